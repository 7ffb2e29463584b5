/** NetworkPolicy analysis: which peers and ports the policies selecting a pod allow. Used inside jest tests. */
import type { Rendered } from './kustomize';
import { ofKind, selectsPods, type INetworkPolicy, type INetworkPolicyPeer } from './k8s-helpers';
import type { LabelSelector } from './workspace';

export type Peer = INetworkPolicyPeer;
const nsIs = (p: Peer, ns: string) => p.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === ns;
const isDns = (p: Peer) => nsIs(p, 'kube-system') && p.podSelector?.matchLabels?.['k8s-app'] === 'kube-dns';
const isNats = (p: Peer) => nsIs(p, 'nats') && p.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'nats';
const POSTGRES_PORTS = [5432, 6432];
/** The CloudNativePG Cluster's instances in the workload's own namespace (deploy/k8s/postgres). */
export const POSTGRES_CLUSTER = 'coffer-postgres';
export const isPostgresCluster = (p: Peer) => !p.namespaceSelector && !p.ipBlock && p.podSelector?.matchLabels?.['cnpg.io/cluster'] === POSTGRES_CLUSTER;
/** The CloudNativePG Cluster, a database in namespace postgres, or a database subnet (an ipBlock other than the internet) on PostgreSQL ports. */
const isPostgres = (p: Peer, ports: (string | number | undefined)[]) =>
  isPostgresCluster(p) ||
  nsIs(p, 'postgres') ||
  (Boolean(p.ipBlock) && !isInternet(p) && ports.length > 0 && ports.every((x) => POSTGRES_PORTS.includes(Number(x))));
const isInternet = (p: Peer) => p.ipBlock?.cidr === '0.0.0.0/0' || p.ipBlock?.cidr === '::/0';
const MUST_EXCLUDE_V4 = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '127.0.0.0/8', '100.64.0.0/10'];
const MUST_EXCLUDE_V6 = ['::1/128', 'fc00::/7', 'fe80::/10', '::ffff:0:0/96'];

export function policiesFor(items: Rendered[], podLabels: Record<string, string>): INetworkPolicy[] {
  return ofKind(items, 'NetworkPolicy').filter((p) => selectsPods(p.spec?.podSelector as LabelSelector, podLabels));
}

export interface Paths {
  egress: { peer: Peer; ports: (string | number | undefined)[] }[];
  ingress: { peer: Peer; ports: (string | number | undefined)[] }[];
}

/** Every (peer, ports) the union of policies allows, after checking no rule allows everything. */
export function allowedPaths(policies: INetworkPolicy[]): Paths {
  const out: Paths = { egress: [], ingress: [] };
  for (const p of policies) {
    for (const rule of p.spec?.egress ?? []) {
      expect({ policy: p.metadata?.name, egressTo: (rule.to ?? []).length > 0 }).toEqual({ policy: p.metadata?.name, egressTo: true });
      for (const peer of rule.to ?? []) out.egress.push({ peer, ports: (rule.ports ?? []).map((x) => x.port) });
    }
    for (const rule of p.spec?.ingress ?? []) {
      expect({ policy: p.metadata?.name, ingressFrom: (rule.from ?? []).length > 0 }).toEqual({ policy: p.metadata?.name, ingressFrom: true });
      for (const peer of rule.from ?? []) out.ingress.push({ peer, ports: (rule.ports ?? []).map((x) => x.port) });
    }
  }
  return out;
}

export function expectEgress(paths: Paths, wants: { nats: boolean; internet: boolean; postgres?: boolean }): void {
  const kinds = paths.egress.map(({ peer, ports }) =>
    isDns(peer) ? 'dns' : isNats(peer) ? 'nats' : isPostgres(peer, ports) ? 'postgres' : isInternet(peer) ? 'internet' : 'other',
  );
  expect(kinds).not.toContain('other');
  expect(kinds).toContain('dns');
  expect(kinds.includes('postgres')).toBe(wants.postgres ?? true);
  expect(kinds.includes('nats')).toBe(wants.nats);
  expect(kinds.includes('internet')).toBe(wants.internet);
  for (const { peer, ports } of paths.egress) {
    if (isDns(peer)) expect([...new Set(ports)]).toEqual([53]);
    if (isNats(peer)) expect(ports).toEqual([4222]);
    if (isPostgres(peer, ports)) expect(ports).toContain(5432);
    if (isInternet(peer)) {
      const except = peer.ipBlock?.except ?? [];
      for (const cidr of peer.ipBlock?.cidr === '0.0.0.0/0' ? MUST_EXCLUDE_V4 : MUST_EXCLUDE_V6) expect(except).toContain(cidr);
    }
  }
}
