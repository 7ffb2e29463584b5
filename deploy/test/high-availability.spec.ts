/**
 * The production topology of docs/high-availability.md, as rendered from deploy/k8s/overlays/production: PostgreSQL
 * as a CloudNativePG Cluster of three instances with synchronous replication and a failover that never loses an
 * acknowledged commit, reached through its read-write Service by every workload that has a database; NATS as three
 * servers that every service knows by name, with the events stream on all three; every Coffer Deployment with at
 * least two replicas, spread across nodes and zones, and a PodDisruptionBudget.
 */
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { crdErrors } from './support/crd-schema';
import { build, loadObjects, type K8sObject, type Rendered } from './support/kustomize';
import { named, ofKind, podTemplate, selectsPods, type IContainer, type INetworkPolicy } from './support/k8s-helpers';
import { isPostgresCluster, POSTGRES_CLUSTER } from './support/network';
import { APPS, APP_NAMES, K8S, WORKSPACE, readText, selects, type LabelSelector } from './support/workspace';

const NAMESPACE = 'coffer';
const RW_HOST = `${POSTGRES_CLUSTER}-rw.${NAMESPACE}.svc`;
/** The official NATS chart with release name `nats` in namespace `nats`: StatefulSet nats, headless Service nats-headless. */
const NATS_SERVER = (n: number) => `nats-${n}.nats-headless.nats.svc.cluster.local`;

let rendered: Rendered[] | undefined;
const production = (): Rendered[] => (rendered ??= build(path.join(K8S, 'overlays/production'), WORKSPACE));

interface ClusterSpec {
  instances: number;
  imageName?: string;
  postgresql?: {
    parameters?: Record<string, string>;
    synchronous?: { method: string; number: number; dataDurability?: string; failoverQuorum?: boolean };
  };
  affinity?: { enablePodAntiAffinity?: boolean; topologyKey?: string; podAntiAffinityType?: string };
  topologySpreadConstraints?: { topologyKey: string; labelSelector?: LabelSelector }[];
  enablePDB?: boolean;
  primaryUpdateStrategy?: string;
  primaryUpdateMethod?: string;
  bootstrap?: { initdb?: { database?: string; owner?: string; secret?: { name: string } } };
  storage?: { size?: string };
  walStorage?: { size?: string };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

function cluster(): ClusterSpec {
  const found = production().filter((r) => r.object.apiVersion === 'postgresql.cnpg.io/v1' && r.object.kind === 'Cluster');
  expect(found.map((r) => r.object.metadata.name)).toEqual([POSTGRES_CLUSTER]);
  return (found[0] as Rendered).object['spec'] as ClusterSpec;
}

function env(c: IContainer, name: string) {
  return (c.env ?? []).find((e) => e.name === name);
}

function container(app: string): IContainer {
  return podTemplate(named(production(), 'Deployment', app)).spec.containers[0] as IContainer;
}

/** Workloads that connect to PostgreSQL: the services with tables, the migration Job, the operator CLI Jobs. */
const DATABASE_USERS = [...APP_NAMES.filter((a) => APPS[a].needsDatabase), 'migrate', 'admin'];

describe('PostgreSQL: the CloudNativePG Cluster coffer-postgres (deploy/k8s/postgres)', () => {
  it('matches the Cluster schema of CloudNativePG 1.28, which refuses a misspelt or mistyped field', () => {
    const object = production().find((r) => r.object.kind === 'Cluster')?.object as K8sObject;
    expect(crdErrors(object)).toEqual([]);
    const broken = structuredClone(object) as K8sObject & { spec: Record<string, unknown> };
    broken.spec['instance'] = 3;
    (broken.spec['postgresql'] as { synchronous: Record<string, unknown> }).synchronous['dataDurability'] = 'always';
    broken.spec['enablePDB'] = 'yes';
    expect(crdErrors(broken).sort()).toEqual([
      '/spec/enablePDB: expected boolean, got string',
      '/spec/instance: unknown field',
      '/spec/postgresql/synchronous/dataDurability: "always" is not one of ["required","preferred"]',
    ]);
  });

  it('runs three instances, each on a node of its own, spread across zones', () => {
    const spec = cluster();
    expect(spec.instances).toBe(3);
    expect(spec.affinity).toEqual({ enablePodAntiAffinity: true, topologyKey: 'kubernetes.io/hostname', podAntiAffinityType: 'required' });
    const zone = (spec.topologySpreadConstraints ?? []).find((t) => t.topologyKey === 'topology.kubernetes.io/zone');
    expect(selects(zone?.labelSelector, { 'cnpg.io/cluster': POSTGRES_CLUSTER })).toBe(true);
  });

  it('replicates synchronously and fails over without losing an acknowledged commit', () => {
    const spec = cluster();
    // ANY 1 of the standbys acknowledges every commit; writes wait rather than turn asynchronous; a standby is
    // promoted only when it is known to hold every acknowledged commit
    expect(spec.postgresql?.synchronous).toEqual({ method: 'any', number: 1, dataDurability: 'required', failoverQuorum: true });
    expect(spec.postgresql?.synchronous?.number).toBeLessThan(spec.instances);
    // nothing weakens it: synchronous_commit stays on, and the operator alone writes synchronous_standby_names
    const parameters = spec.postgresql?.parameters ?? {};
    expect(parameters['synchronous_commit'] ?? 'on').toBe('on');
    expect(parameters['synchronous_standby_names']).toBeUndefined();
    expect(parameters['fsync'] ?? 'on').toBe('on');
  });

  it('keeps a PodDisruptionBudget, updates the primary by switchover without a person, and is pinned to an image', () => {
    const spec = cluster();
    expect(spec.enablePDB ?? true).toBe(true);
    expect(spec.primaryUpdateStrategy).toBe('unsupervised');
    expect(spec.primaryUpdateMethod).toBe('switchover');
    expect(spec.imageName).toMatch(/^ghcr\.io\/cloudnative-pg\/postgresql:\d+\.\d+/);
  });

  it('creates the database coffer owned by the schema owner, from a Secret; storage and guaranteed resources', () => {
    const spec = cluster();
    expect(spec.bootstrap?.initdb).toMatchObject({ database: 'coffer', owner: 'coffer_owner', secret: { name: expect.any(String) } });
    expect(spec.storage?.size).toBeDefined();
    expect(spec.walStorage?.size).toBeDefined();
    expect(spec.resources?.requests).toEqual(spec.resources?.limits);
  });

  it('is reached by every workload with a database on 5432, by the operator and by its own instances, and by no one else', () => {
    const policies = ofKind(production(), 'NetworkPolicy').filter((p) =>
      selectsPods(p.spec?.podSelector as LabelSelector, { 'cnpg.io/cluster': POSTGRES_CLUSTER }),
    );
    const own = policies.filter((p) => p.metadata?.name !== 'default-deny');
    expect(own.map((p) => p.metadata?.name)).toEqual([POSTGRES_CLUSTER]);
    const policy = own[0] as INetworkPolicy;
    const admits = (labels: Record<string, string>, port: number, namespace = NAMESPACE) =>
      (policy.spec?.ingress ?? []).some(
        (rule) =>
          (rule.ports ?? []).some((p) => p.port === port) &&
          (rule.from ?? []).some((peer) => {
            const inNamespace = peer.namespaceSelector
              ? selects(peer.namespaceSelector as LabelSelector, { 'kubernetes.io/metadata.name': namespace })
              : namespace === NAMESPACE;
            return inNamespace && !peer.ipBlock && selects((peer.podSelector ?? {}) as LabelSelector, labels);
          }),
      );
    for (const app of DATABASE_USERS) expect({ app, admitted: admits({ 'app.kubernetes.io/name': app }, 5432) }).toEqual({ app, admitted: true });
    for (const app of APP_NAMES.filter((a) => !APPS[a].needsDatabase)) {
      expect({ app, admitted: admits({ 'app.kubernetes.io/name': app }, 5432) }).toEqual({ app, admitted: false });
    }
    const operator = { 'app.kubernetes.io/name': 'cloudnative-pg' };
    expect([admits(operator, 5432, 'cnpg-system'), admits(operator, 8000, 'cnpg-system')]).toEqual([true, true]);
    const instance = { 'cnpg.io/cluster': POSTGRES_CLUSTER };
    expect([admits(instance, 5432), admits(instance, 8000)]).toEqual([true, true]);
    // instances replicate to each other
    const egressToInstances = (policy.spec?.egress ?? []).filter((r) => (r.to ?? []).some((p) => isPostgresCluster(p)));
    expect(egressToInstances.flatMap((r) => (r.ports ?? []).map((p) => p.port))).toEqual(expect.arrayContaining([5432, 8000]));
  });

  it('every workload with a database may reach the instances on 5432 (production overlay, and the admin Jobs)', () => {
    const admin = build(path.join(K8S, 'admin'), WORKSPACE);
    for (const app of DATABASE_USERS) {
      const items = app === 'admin' ? admin : production();
      const workload = app === 'migrate' || app === 'admin' ? ofKind(items, 'Job')[0] : named(items, 'Deployment', app);
      const labels = podTemplate(workload as never).labels;
      const rules = ofKind(items, 'NetworkPolicy')
        .filter((p) => selectsPods(p.spec?.podSelector as LabelSelector, labels))
        .flatMap((p) => p.spec?.egress ?? []);
      const reaches = rules.some((r) => (r.to ?? []).some((p) => isPostgresCluster(p)) && (r.ports ?? []).some((p) => p.port === 5432));
      expect({ app, reaches }).toEqual({ app, reaches: true });
    }
  });
});

describe('PostgreSQL: every DATABASE_URL points at the read-write Service', () => {
  // The URLs live in Secrets outside the repository; docs/deploying.md says what each must hold, for each Secret
  // that a production workload reads DATABASE_URL from.
  const doc = () => {
    const text = readText('docs/deploying.md');
    const start = text.indexOf('### PostgreSQL on CloudNativePG');
    expect(start).toBeGreaterThan(0);
    return text.slice(start, text.indexOf('\n## ', start));
  };

  it(`names ${RW_HOST}:5432/coffer for every Secret a workload reads DATABASE_URL from`, () => {
    const workloads = [...production(), ...build(path.join(K8S, 'admin'), WORKSPACE)].filter((r) => r.object.kind === 'Deployment' || r.object.kind === 'Job');
    const secrets = new Set<string>();
    for (const w of workloads) {
      for (const c of podTemplate(w.object as never).spec.containers) {
        const ref = env(c, 'DATABASE_URL')?.valueFrom?.secretKeyRef;
        if (ref?.name) secrets.add(ref.name);
      }
    }
    expect([...secrets].sort()).toEqual([...DATABASE_USERS.map((a) => `${a}-secrets`)].sort());
    const text = doc();
    const urls = [...text.matchAll(/postgres(?:ql)?:\/\/[^\s'"`]+/g)].map((m) => m[0]);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) {
      const u = new URL(
        url
          .replace(/\$\{[^}]*\}/g, 'x')
          .replace(/\$[A-Za-z_]+/g, 'x')
          .replace(/…/g, 'x'),
      );
      expect({ url, host: u.host, database: u.pathname }).toEqual({ url, host: `${RW_HOST}:5432`, database: '/coffer' });
    }
    // each Secret is created in the snippet: migrate-secrets and admin-secrets by name, the services in the loop
    for (const secret of secrets) {
      const service = secret.replace(/-secrets$/, '');
      expect({ secret, documented: text.includes(secret) || new RegExp(`for svc in [^;]*\\b${service}\\b`).test(text) }).toEqual({ secret, documented: true });
    }
  });

  it('gives the migration Job (a session-level advisory lock) a direct connection: the -rw Service', () => {
    const line = doc()
      .split('\n')
      .findIndex((l) => l.includes('create secret generic migrate-secrets'));
    expect(line).toBeGreaterThan(0);
    expect(doc().split('\n')[line + 1]).toContain(`@${RW_HOST}:5432/coffer`);
  });
});

describe('NATS: every service knows all three servers', () => {
  const values = () => parse(readText('deploy/nats/values.yaml')) as { config: { cluster: { replicas: number } } };
  const serverCertificate = () =>
    parseAllDocuments(readText('deploy/nats/certificate.yaml'))
      .map((d) => d.toJSON() as K8sObject & { spec: { secretName?: string; dnsNames?: string[] } })
      .find((o) => o.kind === 'Certificate' && o.spec.secretName === 'nats-server-tls');

  it.each(APP_NAMES)('%s: NATS_URL lists the three servers by name, over TLS, each covered by the server certificate', (app) => {
    const replicas = values().config.cluster.replicas;
    expect(replicas).toBe(3);
    const urls = (env(container(app), 'NATS_URL')?.value ?? '').split(',').map((u) => new URL(u));
    expect(urls.map((u) => u.hostname)).toEqual(Array.from({ length: replicas }, (_, n) => NATS_SERVER(n)));
    for (const u of urls) {
      expect(u.protocol).toBe('tls:');
      expect(u.port).toBe('4222');
      expect(serverCertificate()?.spec.dnsNames).toContain(u.hostname);
    }
  });

  it('the same in every base (what a team renders on its own)', () => {
    for (const app of APP_NAMES) {
      const [d] = loadObjects(path.join(K8S, app, 'deployment.yaml')) as [K8sObject];
      const c = podTemplate(d as never).spec.containers[0] as IContainer;
      expect(env(c, 'NATS_URL')?.value).toBe(env(container(app), 'NATS_URL')?.value);
    }
  });

  it('webhook-dispatcher keeps the events stream on all three servers (EVENTS_STREAM_REPLICAS=3)', () => {
    expect(env(container('webhook-dispatcher'), 'EVENTS_STREAM_REPLICAS')?.value).toBe('3');
    expect(Number(env(container('webhook-dispatcher'), 'EVENTS_STREAM_REPLICAS')?.value)).toBeLessThanOrEqual(values().config.cluster.replicas);
  });
});

describe.each(APP_NAMES)('Deployment %s in production', (app) => {
  const deployment = () => named(production(), 'Deployment', app);
  const pod = () => podTemplate(deployment());

  it('runs at least two replicas', () => {
    const replicas = deployment().spec?.replicas;
    if (replicas !== undefined) expect(replicas).toBeGreaterThanOrEqual(2);
    const hpas = ofKind(production(), 'HorizontalPodAutoscaler').filter(
      (h) => h.spec?.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === app,
    );
    expect(hpas).toHaveLength(1);
    expect(hpas[0]?.spec?.minReplicas).toBeGreaterThanOrEqual(2);
  });

  it('prefers a node of its own for each replica (pod anti-affinity on the hostname)', () => {
    const terms = pod().spec.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
    const onHost = terms.filter((t) => t.podAffinityTerm.topologyKey === 'kubernetes.io/hostname');
    expect(onHost).toHaveLength(1);
    expect(selectsPods(onHost[0]?.podAffinityTerm.labelSelector as LabelSelector, pod().labels)).toBe(true);
    expect(onHost[0]?.weight).toBeGreaterThan(0);
    // preferred, not required: a node short of capacity must not stop a rollout or a scale-up
    expect(pod().spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).toEqual([]);
  });

  it('spreads across zones (ScheduleAnyway) and nodes', () => {
    const constraints = pod().spec.topologySpreadConstraints ?? [];
    const zone = constraints.find((t) => t.topologyKey === 'topology.kubernetes.io/zone');
    const host = constraints.find((t) => t.topologyKey === 'kubernetes.io/hostname');
    expect(zone?.whenUnsatisfiable).toBe('ScheduleAnyway');
    expect(host).toBeDefined();
    for (const t of [zone, host]) expect(selectsPods(t?.labelSelector as LabelSelector, pod().labels)).toBe(true);
  });

  it('has a PodDisruptionBudget selecting its pods that lets one go at a time', () => {
    const pdbs = ofKind(production(), 'PodDisruptionBudget').filter((p) => selectsPods(p.spec?.selector as LabelSelector, pod().labels));
    expect(pdbs).toHaveLength(1);
    const spec = pdbs[0]?.spec;
    expect(spec?.maxUnavailable === 1 || spec?.minAvailable === 1).toBe(true);
  });
});
