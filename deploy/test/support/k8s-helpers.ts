/** Typed views and small helpers over rendered Kubernetes objects. */
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { INetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPeer';
import type { INetworkPolicyPort } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPort';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { INamespace } from 'kubernetes-models/v1/Namespace';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import type { IService } from 'kubernetes-models/v1/Service';
import type { IServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { K8sObject, Rendered } from './kustomize';
import { selects, type LabelSelector } from './workspace';

export type {
  IContainer,
  IDeployment,
  IHorizontalPodAutoscaler,
  IIngress,
  IJob,
  INamespace,
  INetworkPolicy,
  INetworkPolicyPeer,
  INetworkPolicyPort,
  IPodDisruptionBudget,
  IPodSpec,
  IProbe,
  IService,
  IServiceAccount,
};

interface KindMap {
  Deployment: IDeployment;
  HorizontalPodAutoscaler: IHorizontalPodAutoscaler;
  Job: IJob;
  Ingress: IIngress;
  Namespace: INamespace;
  NetworkPolicy: INetworkPolicy;
  PodDisruptionBudget: IPodDisruptionBudget;
  Service: IService;
  ServiceAccount: IServiceAccount;
}

export function ofKind<K extends keyof KindMap>(items: Rendered[], kind: K): KindMap[K][] {
  return items.filter((r) => r.object.kind === kind).map((r) => r.object as unknown as KindMap[K]);
}

export function named<K extends keyof KindMap>(items: Rendered[], kind: K, name: string): KindMap[K] {
  const found = ofKind(items, kind).filter((o) => o.metadata?.name === name);
  if (found.length !== 1) throw new Error(`expected one ${kind}/${name}, found ${found.length}`);
  return found[0] as KindMap[K];
}

export function podTemplate(o: IDeployment | IJob): { labels: Record<string, string>; spec: IPodSpec } {
  const template = o.spec?.template;
  if (!template?.spec) throw new Error(`${o.kind}/${o.metadata?.name} has no pod template`);
  return { labels: template.metadata?.labels ?? {}, spec: template.spec };
}

export function selectsPods(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  return selects(selector, labels);
}

/** CPU in cores. */
export function cpu(q: string | number | undefined): number {
  if (q === undefined) return NaN;
  if (typeof q === 'number') return q;
  const m = /^(\d+(?:\.\d+)?)(m?)$/.exec(q);
  if (!m) return NaN;
  return Number(m[1]) / (m[2] ? 1000 : 1);
}

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
const DECIMAL: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };

/** Memory in bytes. */
export function bytes(q: string | number | undefined): number {
  if (q === undefined) return NaN;
  if (typeof q === 'number') return q;
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T|)$/.exec(q);
  if (!m) return NaN;
  const unit = m[2] as string;
  return Number(m[1]) * (BINARY[unit] ?? DECIMAL[unit] ?? NaN);
}

/** Walks every string in an object, with its JSON path. */
export function strings(value: unknown, at = ''): { path: string; value: string }[] {
  if (typeof value === 'string') return [{ path: at, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}/${i}`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}/${k}`));
  return [];
}

export function label(r: Rendered): string {
  return `${r.object.kind}/${r.object.metadata.name} (${r.source})`;
}

export function isObject(o: K8sObject, kind: string, name: string): boolean {
  return o.kind === kind && o.metadata.name === name;
}
