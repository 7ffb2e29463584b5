/**
 * Paths, and the facts about the apps that the deployment artefacts must agree with (ports, which secrets each
 * service needs, who may reach the internet). These are written from the apps' contracts, independently of the
 * manifests, so a test can compare the two.
 */
import fs from 'node:fs';
import path from 'node:path';

export const WORKSPACE = path.resolve(__dirname, '../../..');
export const DEPLOY = path.join(WORKSPACE, 'deploy');
export const K8S = path.join(DEPLOY, 'k8s');
export const OVERLAYS = ['dev', 'production'] as const;

export type AppName = 'gateway' | 'token-service' | 'session-service' | 'reactor-service' | 'webhook-dispatcher' | 'proxy-service';

export interface AppFacts {
  /** env variable that sets the port serving /healthz, /readyz and /metrics */
  portEnv: 'PORT' | 'HEALTH_PORT';
  port: number;
  /** where Prometheus scrapes /metrics, when not `port` (the gateway: HEALTH_PORT, never the API's port) */
  metricsPort?: number;
  /** the web console's own listener (the gateway's CONSOLE_PORT): reached by the ingress controller like the API */
  consolePort?: number;
  /** the hosted card fields' own listener (the gateway's ELEMENTS_PORT): reached by the ingress controller too */
  elementsPort?: number;
  needsKeyEncryptionKeys: boolean;
  /** connects to PostgreSQL (the gateway is stateless: it holds no table of its own) */
  needsDatabase: boolean;
  /** may open connections to public internet addresses (formula fetch, webhook callbacks) */
  internetEgress: boolean;
  /** reachable from outside the namespace (ingress controller) */
  publicIngress: boolean;
  /** egress switches the app reads; the manifests must set them explicitly */
  egressFlags: string[];
  /** node options the image must carry */
  nodeArgs: string[];
}

/**
 * What a service behind the gateway is unless its entry says otherwise: its HEALTH_PORT serves /healthz, /readyz and
 * /metrics, it holds keys and a database connection, and it is reached only from inside the namespace.
 */
const INTERNAL_SERVICE = {
  portEnv: 'HEALTH_PORT',
  needsKeyEncryptionKeys: true,
  needsDatabase: true,
  internetEgress: false,
  publicIngress: false,
  egressFlags: [],
  nodeArgs: [],
} as const satisfies Omit<AppFacts, 'port'>;

export const APPS: Record<AppName, AppFacts> = {
  gateway: {
    ...INTERNAL_SERVICE,
    portEnv: 'PORT',
    port: 8080,
    metricsPort: 9105,
    consolePort: 8081,
    elementsPort: 8082,
    needsKeyEncryptionKeys: false,
    needsDatabase: false,
    publicIngress: true,
  },
  'token-service': { ...INTERNAL_SERVICE, port: 9101 },
  'session-service': { ...INTERNAL_SERVICE, port: 9102 },
  'reactor-service': {
    ...INTERNAL_SERVICE,
    port: 9103,
    internetEgress: true,
    egressFlags: ['ALLOW_PRIVATE_EGRESS', 'ALLOW_PRIVATE_CALLBACKS'],
    nodeArgs: ['--no-node-snapshot'],
  },
  'webhook-dispatcher': { ...INTERNAL_SERVICE, port: 9104, internetEgress: true, egressFlags: ['ALLOW_PRIVATE_CALLBACKS'] },
  // the proxy: holds plaintext in flight, needs no database and no key (token-service detokenizes)
  'proxy-service': {
    ...INTERNAL_SERVICE,
    port: 9106,
    needsKeyEncryptionKeys: false,
    needsDatabase: false,
    internetEgress: true,
    egressFlags: ['PROXY_ALLOW_PRIVATE_EGRESS'],
  },
};

export const APP_NAMES = Object.keys(APPS) as AppName[];

/** Environment variables whose values are secrets: only ever from a Secret, never a literal. */
export const SECRET_ENV = ['DATABASE_URL', 'NATS_NKEY_SEED', 'NATS_PASSWORD', 'NATS_TOKEN', 'NATS_CREDS', 'KEY_ENCRYPTION_KEYS'];

/** The Node.js applications of the workspace: every apps/<name>/project.json with projectType application. */
export function workspaceApplications(): string[] {
  const dir = path.join(WORKSPACE, 'apps');
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'project.json')))
    .filter((d) => {
      const project = JSON.parse(fs.readFileSync(path.join(dir, d.name, 'project.json'), 'utf8')) as {
        projectType?: string;
        tags?: string[];
      };
      // the console and the Elements fields are static bundles inside the gateway's image: no deployment of their own
      const tags = project.tags ?? [];
      return project.projectType === 'application' && !tags.includes('type:e2e') && !tags.includes('scope:console') && !tags.includes('scope:elements');
    })
    .map((d) => d.name)
    .sort();
}

export function readText(...segments: string[]): string {
  return fs.readFileSync(path.join(WORKSPACE, ...segments), 'utf8');
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

/** Kubernetes label-selector semantics; an empty selector selects everything. */
export function selects(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector) return false;
  const l = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(l, e.key);
    const value = l[e.key];
    if (e.operator === 'In' && !(has && (e.values ?? []).includes(value as string))) return false;
    if (e.operator === 'NotIn' && has && (e.values ?? []).includes(value as string)) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}
