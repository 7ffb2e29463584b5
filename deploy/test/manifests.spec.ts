/**
 * Renders every Kustomize base and overlay under deploy/k8s, validates each object against the Kubernetes schemas
 * (kubernetes-models: JSON-schema validators, plus its TypeScript declarations for unknown fields), and checks the
 * deployment invariants: limits, probes, non-root and read-only containers, a PDB, NetworkPolicy and HPA for every
 * Deployment, least-privilege network paths, secrets only from Secrets, image names that match the apps.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build, isClusterScoped, objectId, parseImage, type Rendered } from './support/kustomize';
import { unknownFieldErrors, validateAgainstSchema } from './support/k8s-schema';
import { allowedPaths, expectEgress, policiesFor } from './support/network';
import {
  bytes,
  cpu,
  label,
  named,
  ofKind,
  podTemplate,
  selectsPods,
  strings,
  type IContainer,
  type IDeployment,
  type IPodSpec,
  type IProbe,
} from './support/k8s-helpers';
import { APPS, APP_NAMES, K8S, OVERLAYS, SECRET_ENV, WORKSPACE, workspaceApplications, type AppName, type LabelSelector } from './support/workspace';

const BASES = [...APP_NAMES, 'migrate', 'admin', 'common', 'postgres'] as const;
const RENDERS = [...BASES.map((b) => `base ${b}`), ...OVERLAYS.map((o) => `overlay ${o}`)];
const NAMESPACE: Record<(typeof OVERLAYS)[number], string> = { dev: 'coffer-dev', production: 'coffer' };

const cache = new Map<string, Rendered[]>();
function render(key: string): Rendered[] {
  let out = cache.get(key);
  if (!out) {
    const [kind, name] = key.split(' ') as [string, string];
    out = build(kind === 'base' ? path.join(K8S, name) : path.join(K8S, 'overlays', name), WORKSPACE);
    cache.set(key, out);
  }
  return out;
}

function onlyContainer(spec: IPodSpec): IContainer {
  expect(spec.containers).toHaveLength(1);
  return spec.containers[0] as IContainer;
}

function env(c: IContainer, name: string) {
  return (c.env ?? []).find((e) => e.name === name);
}

function portNumber(c: IContainer, port: string | number | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return (c.ports ?? []).find((p) => p.name === port)?.containerPort;
}

function expectHttpProbe(c: IContainer, probe: IProbe | undefined, pathName: string, port: number): void {
  expect(probe).toBeDefined();
  expect(probe?.httpGet?.path).toBe(pathName);
  expect(portNumber(c, probe?.httpGet?.port)).toBe(port);
  expect(probe?.periodSeconds ?? 10).toBeGreaterThan(0);
  expect(probe?.timeoutSeconds ?? 1).toBeLessThanOrEqual(probe?.periodSeconds ?? 10);
}

function expectHardenedPod(spec: IPodSpec): void {
  expect(spec.securityContext?.runAsNonRoot).toBe(true);
  expect(spec.securityContext?.runAsUser).toBeGreaterThan(0);
  expect(spec.securityContext?.runAsGroup).toBeGreaterThan(0);
  expect(spec.securityContext?.seccompProfile?.type).toBe('RuntimeDefault');
  expect(spec.automountServiceAccountToken).toBe(false);
  expect(spec.hostNetwork ?? false).toBe(false);
  expect(spec.hostPID ?? false).toBe(false);
  expect(spec.hostIPC ?? false).toBe(false);
  expect((spec.volumes ?? []).filter((v) => v.hostPath)).toEqual([]);
  for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
    const sc = c.securityContext;
    expect({ container: c.name, readOnlyRootFilesystem: sc?.readOnlyRootFilesystem }).toEqual({ container: c.name, readOnlyRootFilesystem: true });
    expect(sc?.allowPrivilegeEscalation).toBe(false);
    expect(sc?.privileged ?? false).toBe(false);
    expect(sc?.runAsNonRoot ?? spec.securityContext?.runAsNonRoot).toBe(true);
    expect(sc?.runAsUser ?? 1).toBeGreaterThan(0);
    expect(sc?.capabilities?.drop).toContain('ALL');
    expect(sc?.capabilities?.add ?? []).toEqual([]);
    // A read-only root needs somewhere to write temporary files.
    const tmp = (c.volumeMounts ?? []).find((m) => m.mountPath === '/tmp');
    expect(tmp).toBeDefined();
    expect((spec.volumes ?? []).find((v) => v.name === tmp?.name)?.emptyDir).toBeDefined();
  }
}

function expectResources(c: IContainer): void {
  const r = c.resources;
  for (const res of ['cpu', 'memory'] as const) {
    expect({ [res]: r?.requests?.[res] }).toEqual({ [res]: expect.anything() });
    expect({ [res]: r?.limits?.[res] }).toEqual({ [res]: expect.anything() });
  }
  expect(cpu(r?.requests?.['cpu'])).toBeGreaterThan(0);
  expect(cpu(r?.requests?.['cpu'])).toBeLessThanOrEqual(cpu(r?.limits?.['cpu']));
  expect(bytes(r?.requests?.['memory'])).toBeGreaterThan(0);
  expect(bytes(r?.requests?.['memory'])).toBeLessThanOrEqual(bytes(r?.limits?.['memory']));
}

function expectSecretsFromSecrets(c: IContainer): void {
  for (const e of c.env ?? []) {
    if (SECRET_ENV.includes(e.name)) {
      expect({ name: e.name, value: e.value }).toEqual({ name: e.name, value: undefined });
      expect({ name: e.name, secret: e.valueFrom?.secretKeyRef?.name }).toEqual({ name: e.name, secret: expect.any(String) });
      expect(e.valueFrom?.secretKeyRef?.optional ?? false).toBe(false);
    }
  }
  expect(c.envFrom ?? []).toEqual([]);
}

// ---------------------------------------------------------------------------------------------------- tests

describe('workspace coverage', () => {
  it('has a Kustomize base for every application in apps/, and no base for an app that does not exist', () => {
    expect(workspaceApplications()).toEqual([...APP_NAMES].sort());
    const dirs = fs
      .readdirSync(K8S, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !['overlays', 'common', 'migrate', 'admin', 'postgres'].includes(d.name))
      .map((d) => d.name)
      .sort();
    expect(dirs).toEqual([...APP_NAMES].sort());
  });
});

describe.each(RENDERS)('%s', (key) => {
  it('renders', () => {
    expect(render(key).length).toBeGreaterThan(0);
  });

  it('validates every object against its Kubernetes schema', () => {
    const failures: string[] = [];
    for (const r of render(key)) {
      try {
        validateAgainstSchema(r.object);
      } catch (err) {
        failures.push(`${label(r)}: ${(err as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('labels every object with its app and part-of=coffer', () => {
    for (const r of render(key)) {
      expect({ id: label(r), partOf: r.object.metadata.labels?.['app.kubernetes.io/part-of'] }).toEqual({ id: label(r), partOf: 'coffer' });
      expect({ id: label(r), name: r.object.metadata.labels?.['app.kubernetes.io/name'] }).toEqual({ id: label(r), name: expect.any(String) });
    }
  });

  it('holds no secret: no Secret objects, secret variables only from secretKeyRef, no credentials in any string', () => {
    for (const r of render(key)) {
      expect(r.object.kind).not.toBe('Secret');
      for (const s of strings(r.object)) {
        expect({ at: `${label(r)}${s.path}`, credentialsInUrl: /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i.test(s.value) }).toEqual({
          at: `${label(r)}${s.path}`,
          credentialsInUrl: false,
        });
      }
    }
    for (const o of [...ofKind(render(key), 'Deployment'), ...ofKind(render(key), 'Job')]) {
      for (const c of podTemplate(o).spec.containers) expectSecretsFromSecrets(c);
    }
  });
});

describe('no unknown fields (TypeScript declarations of kubernetes-models)', () => {
  it('type-checks every rendered object as a literal of its kind', () => {
    const seen = new Set<string>();
    const items = RENDERS.flatMap((key) =>
      render(key)
        .filter((r) => {
          const id = JSON.stringify(r.object);
          if (seen.has(id)) return false;
          seen.add(id);
          return true;
        })
        .map((r) => ({ label: `${key}: ${label(r)}`, object: r.object })),
    );
    expect(unknownFieldErrors(items, WORKSPACE)).toEqual([]);
  });

  it('would catch a misspelt field', () => {
    const deployment = render('base gateway').find((r) => r.object.kind === 'Deployment') as Rendered;
    const broken = structuredClone(deployment.object) as unknown as IDeployment;
    const c = broken.spec?.template.spec?.containers[0] as IContainer & { readinesProbe?: unknown };
    c.readinesProbe = c.readinessProbe;
    delete c.readinessProbe;
    const errors = unknownFieldErrors([{ label: 'broken', object: broken as never }], WORKSPACE);
    expect(errors.join('\n')).toMatch(/broken: .*readinesProbe/);
  });
});

describe.each(APP_NAMES)('base %s', (app) => {
  const facts = APPS[app as AppName];
  const items = () => render(`base ${app}`);

  it('holds exactly a ServiceAccount, Deployment, Service, HPA, PDB and NetworkPolicy named after the app', () => {
    expect(
      items()
        .map((r) => objectId(r.object))
        .sort(),
    ).toEqual(['Deployment', 'HorizontalPodAutoscaler', 'NetworkPolicy', 'PodDisruptionBudget', 'Service', 'ServiceAccount'].map((k) => `${k}/${app}`));
  });

  it('uses the image named after the app (coffer/<app>)', () => {
    const c = onlyContainer(podTemplate(named(items(), 'Deployment', app)).spec);
    expect(parseImage(c.image ?? '').name).toBe(`coffer/${app}`);
    expect(c.name).toBe(app);
  });

  it(`serves probes on ${facts.portEnv}=${facts.port}`, () => {
    const c = onlyContainer(podTemplate(named(items(), 'Deployment', app)).spec);
    expect(env(c, facts.portEnv)?.value).toBe(String(facts.port));
  });

  it('opens its health port to the pod IP (HEALTH_HOST=0.0.0.0: the processes listen on loopback by default)', () => {
    const c = onlyContainer(podTemplate(named(items(), 'Deployment', app)).spec);
    expect(env(c, 'HEALTH_HOST')?.value).toBe('0.0.0.0');
  });
});

describe('gateway metrics', () => {
  const items = () => render('base gateway');

  it('serves /metrics on HEALTH_PORT=9105, where Prometheus scrapes, and only Prometheus may connect there', () => {
    const deployment = named(items(), 'Deployment', 'gateway');
    const c = onlyContainer(podTemplate(deployment).spec);
    expect(env(c, 'HEALTH_PORT')?.value).toBe('9105');
    expect(c.ports?.find((p) => p.name === 'health')?.containerPort).toBe(9105);
    expect(deployment.spec?.template?.metadata?.annotations?.['prometheus.io/port']).toBe('9105');
    const rules = named(items(), 'NetworkPolicy', 'gateway').spec?.ingress ?? [];
    const fromNamespace = (ns: string) =>
      rules
        .filter((r) => (r.from ?? []).some((f) => f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === ns))
        .flatMap((r) => (r.ports ?? []).map((p) => p.port));
    expect(fromNamespace('ingress-nginx')).toEqual(['http', 'console', 'elements']);
    expect(fromNamespace('monitoring')).toEqual(['health']);
  });
});

describe('gateway client address', () => {
  const items = () => render('base gateway');

  it('believes exactly one X-Forwarded-For hop (TRUST_PROXY=1): only the ingress controller may connect to the API port', () => {
    const c = onlyContainer(podTemplate(named(items(), 'Deployment', 'gateway')).spec);
    // the controller appends the address it saw: one hop names the client, and nothing the client sent is believed
    expect(env(c, 'TRUST_PROXY')?.value).toBe('1');
    const rules = named(items(), 'NetworkPolicy', 'gateway').spec?.ingress ?? [];
    const toHttp = rules.filter((r) => (r.ports ?? []).some((p) => p.port === 'http'));
    expect(toHttp.flatMap((r) => (r.from ?? []).map((f) => f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name']))).toEqual(['ingress-nginx']);
    expect(toHttp.every((r) => (r.from ?? []).length > 0)).toBe(true);
  });
});

describe.each(OVERLAYS)('overlay %s', (overlay) => {
  const items = () => render(`overlay ${overlay}`);
  const namespace = NAMESPACE[overlay];

  it('composes every service, the migration Job and the namespace-wide default deny', () => {
    expect(
      ofKind(items(), 'Deployment')
        .map((d) => d.metadata?.name)
        .sort(),
    ).toEqual([...APP_NAMES].sort());
    expect(ofKind(items(), 'Job').map((j) => j.metadata?.name)).toEqual(['migrate']);
    const deny = named(items(), 'NetworkPolicy', 'default-deny');
    expect(deny.spec?.podSelector).toEqual({});
    expect([...(deny.spec?.policyTypes ?? [])].sort()).toEqual(['Egress', 'Ingress']);
    expect(deny.spec?.ingress ?? []).toEqual([]);
    expect(deny.spec?.egress ?? []).toEqual([]);
  });

  it(`puts everything in namespace ${namespace}, which enforces the restricted Pod Security Standard`, () => {
    for (const r of items()) {
      if (isClusterScoped(r.object.kind)) continue;
      expect({ id: label(r), namespace: r.object.metadata.namespace }).toEqual({ id: label(r), namespace });
    }
    const ns = named(items(), 'Namespace', namespace);
    expect(ns.metadata?.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  it('pins every image to a tag or digest, never latest, named coffer/<app>', () => {
    const workloads = [...ofKind(items(), 'Deployment'), ...ofKind(items(), 'Job')];
    for (const w of workloads) {
      for (const c of podTemplate(w).spec.containers) {
        const image = parseImage(c.image ?? '');
        expect(image.name.endsWith(`coffer/${w.metadata?.name}`)).toBe(true);
        expect(Boolean(image.tag || image.digest)).toBe(true);
        expect(image.tag).not.toBe('latest');
      }
    }
  });

  describe.each(APP_NAMES)('Deployment %s', (app) => {
    const facts = APPS[app as AppName];
    const deployment = () => named(items(), 'Deployment', app);
    const pod = () => podTemplate(deployment());
    const container = () => onlyContainer(pod().spec);

    it('has requests and limits for cpu and memory, requests within limits', () => {
      expectResources(container());
    });

    it('has startup and liveness probes on /healthz and a readiness probe on /readyz, on the health port', () => {
      const c = container();
      expectHttpProbe(c, c.startupProbe, '/healthz', facts.port);
      expectHttpProbe(c, c.livenessProbe, '/healthz', facts.port);
      expectHttpProbe(c, c.readinessProbe, '/readyz', facts.port);
      expect(env(c, facts.portEnv)?.value).toBe(String(facts.port));
    });

    it('runs as non-root with a read-only root filesystem, no privileges and no service-account token', () => {
      expectHardenedPod(pod().spec);
    });

    it('spreads replicas across zones and nodes', () => {
      const constraints = pod().spec.topologySpreadConstraints ?? [];
      expect(constraints.map((t) => t.topologyKey).sort()).toEqual(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
      for (const t of constraints) expect(selectsPods(t.labelSelector as LabelSelector, pod().labels)).toBe(true);
    });

    it('leaves time to drain: grace period >= 30 s and >= preStop + SHUTDOWN_TIMEOUT_MS + 5 s', () => {
      const spec = pod().spec;
      const c = container();
      const preStop = c.lifecycle?.preStop;
      const preStopSeconds = preStop?.sleep?.seconds ?? 0;
      const drain = Number(env(c, 'SHUTDOWN_TIMEOUT_MS')?.value) / 1000;
      expect(drain).toBeGreaterThan(0);
      expect(spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(30);
      expect(spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(preStopSeconds + drain + 5);
      if (facts.publicIngress) {
        expect(preStopSeconds).toBeGreaterThanOrEqual(3);
        expect(preStopSeconds).toBeLessThanOrEqual(15);
      }
    });

    it('rolls without losing capacity and leaves the replica count to its HPA', () => {
      expect(deployment().spec?.replicas).toBeUndefined();
      expect(deployment().spec?.strategy?.rollingUpdate?.maxUnavailable).toBe(0);
      expect(selectsPods(deployment().spec?.selector as LabelSelector, pod().labels)).toBe(true);
    });

    it('reaches NATS over TLS only, trusting the bus CA from the Secret coffer-nats-ca (its certificate, never a key)', () => {
      const c = container();
      const caFile = env(c, 'NATS_TLS_CA_FILE')?.value ?? '';
      expect(caFile).toMatch(/^\//);
      const mount = (c.volumeMounts ?? []).find((m) => caFile.startsWith(`${m.mountPath.replace(/\/$/, '')}/`));
      expect(mount?.readOnly).toBe(true);
      const volume = (pod().spec.volumes ?? []).find((v) => v.name === mount?.name);
      expect(volume?.secret?.secretName).toBe('coffer-nats-ca');
      const file = caFile.slice((mount?.mountPath.replace(/\/$/, '') ?? '').length + 1);
      expect(volume?.secret?.items).toEqual([{ key: 'ca.crt', path: file }]);
    });

    it('has its own ServiceAccount without an API token', () => {
      expect(pod().spec.serviceAccountName).toBe(app);
      expect(named(items(), 'ServiceAccount', app).automountServiceAccountToken).toBe(false);
    });

    it('is configured from the environment: NATS as its own user, database (if it has one) and keys from Secrets', () => {
      const c = container();
      // all three servers of the NATS cluster, each over TLS (deploy/test/high-availability.spec.ts: the certificate covers them)
      expect(env(c, 'NATS_URL')?.value).toMatch(/^tls:\/\/[^,]+(,tls:\/\/[^,]+){2}$/);
      // an nkey seed from its own Secret: no NATS password anywhere (the bus holds the public key only)
      expect(env(c, 'NATS_NKEY_SEED')?.valueFrom?.secretKeyRef).toEqual({ name: `${app}-secrets`, key: 'NATS_NKEY_SEED' });
      expect(env(c, 'NATS_USER')).toBeUndefined();
      expect(env(c, 'NATS_PASSWORD')).toBeUndefined();
      expect(env(c, 'DATABASE_URL')?.valueFrom?.secretKeyRef?.name).toBe(facts.needsDatabase ? `${app}-secrets` : undefined);
      expect(Boolean(env(c, 'KEY_ENCRYPTION_KEYS'))).toBe(facts.needsKeyEncryptionKeys);
      if (facts.needsKeyEncryptionKeys) {
        expect(env(c, 'KEY_ENCRYPTION_KEYS')?.valueFrom?.secretKeyRef).toEqual({ name: 'coffer-key-encryption-keys', key: 'KEY_ENCRYPTION_KEYS' });
      }
      for (const flag of ['ALLOW_PRIVATE_EGRESS', 'ALLOW_PRIVATE_CALLBACKS', 'PROXY_ALLOW_PRIVATE_EGRESS']) {
        expect({ flag, value: env(c, flag)?.value }).toEqual({ flag, value: facts.egressFlags.includes(flag) ? 'false' : undefined });
      }
      expect(env(c, 'LOG_LEVEL')?.value).toBeDefined();
      // The image sets NODE_OPTIONS (reactor-service: --no-node-snapshot); an env value would replace it.
      expect(env(c, 'NODE_OPTIONS')).toBeUndefined();
    });

    it('has exactly one PodDisruptionBudget, which still allows a node drain', () => {
      const pdbs = ofKind(items(), 'PodDisruptionBudget').filter((p) => selectsPods(p.spec?.selector as LabelSelector, pod().labels));
      expect(pdbs).toHaveLength(1);
      const pdb = pdbs[0];
      expect(pdb?.spec?.minAvailable).toBeUndefined();
      expect(Number(pdb?.spec?.maxUnavailable)).toBeGreaterThanOrEqual(1);
    });

    it('has exactly one HorizontalPodAutoscaler with a sensible range and metric', () => {
      const hpas = ofKind(items(), 'HorizontalPodAutoscaler').filter((h) => h.spec?.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === app);
      expect(hpas).toHaveLength(1);
      const spec = hpas[0]?.spec;
      expect(spec?.minReplicas).toBeGreaterThanOrEqual(overlay === 'production' ? 2 : 1);
      expect(spec?.maxReplicas).toBeGreaterThanOrEqual(spec?.minReplicas ?? 1);
      const metrics = (spec?.metrics ?? []).map((m) => m.resource?.name);
      expect(metrics[0]).toBe(app === 'reactor-service' ? 'memory' : 'cpu');
    });

    it('has a Service whose target port is the container port', () => {
      // A Service selector is a plain label map (never empty here: an empty one would select nothing).
      const services = ofKind(items(), 'Service').filter(
        (s) => Object.keys(s.spec?.selector ?? {}).length > 0 && selectsPods({ matchLabels: s.spec?.selector }, pod().labels),
      );
      expect(services.map((s) => s.metadata?.name)).toEqual([app]);
      const targets = (services[0]?.spec?.ports ?? []).map((p) => portNumber(container(), p.targetPort));
      expect(targets).toEqual([facts.port, ...(facts.consolePort ? [facts.consolePort] : []), ...(facts.elementsPort ? [facts.elementsPort] : [])]);
    });

    it(`allows only what ${app} needs on the network`, () => {
      const policies = policiesFor(items(), pod().labels).filter((p) => p.metadata?.name !== 'default-deny');
      expect(policies.map((p) => p.metadata?.name)).toEqual([app]);
      expect([...(policies[0]?.spec?.policyTypes ?? [])].sort()).toEqual(['Egress', 'Ingress']);
      const paths = allowedPaths(policies);
      expectEgress(paths, { nats: true, internet: facts.internetEgress, postgres: facts.needsDatabase });
      const sources = paths.ingress.map(({ peer }) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name']);
      expect([...new Set(sources)].sort()).toEqual(facts.publicIngress ? ['ingress-nginx', 'monitoring'] : ['monitoring']);
      for (const { peer, ports } of paths.ingress) {
        expect(peer.ipBlock).toBeUndefined();
        // Prometheus reaches the metrics port only; the ingress controller the API's port (and the console's and the fields') only
        const monitoring = peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'monitoring';
        expect(ports.map((p) => portNumber(container(), p))).toEqual(
          monitoring
            ? [facts.metricsPort ?? facts.port]
            : [facts.port, ...(facts.consolePort ? [facts.consolePort] : []), ...(facts.elementsPort ? [facts.elementsPort] : [])],
        );
      }
    });
  });

  describe('migration Job', () => {
    const job = () => named(items(), 'Job', 'migrate');
    const pod = () => podTemplate(job());

    it("runs the project's own migrate command from the migrate image", () => {
      const c = onlyContainer(pod().spec);
      expect(c.command).toEqual(['node', 'tools/db/migrate.mjs', 'deploy']);
      expect(fs.existsSync(path.join(WORKSPACE, 'tools/db/migrate.mjs'))).toBe(true);
      expect(parseImage(c.image ?? '').name.endsWith('coffer/migrate')).toBe(true);
      expect(env(c, 'DATABASE_URL')?.valueFrom?.secretKeyRef?.name).toBe('migrate-secrets');
      expect((c.env ?? []).map((e) => e.name)).toEqual(['DATABASE_URL']);
    });

    it('runs once, bounded in time and retries, and cleans up after itself', () => {
      expect(pod().spec.restartPolicy).toBe('Never');
      expect(job().spec?.backoffLimit).toBeLessThanOrEqual(3);
      expect(job().spec?.activeDeadlineSeconds).toBeGreaterThan(0);
      expect(job().spec?.ttlSecondsAfterFinished).toBeGreaterThan(0);
      expect(job().spec?.parallelism ?? 1).toBe(1);
    });

    it('has limits and the same hardening as the services', () => {
      expectResources(onlyContainer(pod().spec));
      expectHardenedPod(pod().spec);
      expect(pod().spec.serviceAccountName).toBe('migrate');
    });

    it('reaches PostgreSQL and DNS only', () => {
      const policies = policiesFor(items(), pod().labels).filter((p) => p.metadata?.name !== 'default-deny');
      expect(policies.map((p) => p.metadata?.name)).toEqual(['migrate']);
      const paths = allowedPaths(policies);
      expectEgress(paths, { nats: false, internet: false });
      expect(paths.ingress).toEqual([]);
    });
  });

  it('routes only the API from outside: no /metrics, /healthz, /readyz or catch-all on any Ingress', () => {
    for (const ing of ofKind(items(), 'Ingress')) {
      expect(ing.spec?.defaultBackend).toBeUndefined();
      expect((ing.spec?.tls ?? []).length).toBeGreaterThan(0);
      for (const rule of ing.spec?.rules ?? []) {
        for (const p of rule.http?.paths ?? []) {
          expect(['/', '', '/metrics', '/healthz', '/readyz']).not.toContain(p.path ?? '');
          expect(p.pathType).not.toBe('ImplementationSpecific');
          const service = named(items(), 'Service', p.backend.service?.name ?? '');
          expect((service.spec?.ports ?? []).map((x) => x.name)).toContain(p.backend.service?.port?.name);
        }
      }
    }
  });
});

describe('the console on an origin of its own', () => {
  it("session-service's invitation links name the gateway's console origin; single sign-on comes from the gateway's Secret, optional", () => {
    const gateway = onlyContainer(podTemplate(named(render('base gateway'), 'Deployment', 'gateway')).spec);
    const session = onlyContainer(podTemplate(named(render('base session-service'), 'Deployment', 'session-service')).spec);
    expect(env(session, 'CONSOLE_URL')?.value).toBe(env(gateway, 'CONSOLE_URL')?.value);
    for (const name of ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_COOKIE_SECRET']) {
      const ref = env(gateway, name)?.valueFrom?.secretKeyRef;
      expect(ref).toMatchObject({ name: 'gateway-secrets', key: name, optional: true });
    }
  });

  it('listens on CONSOLE_PORT with CONSOLE_URL, and the production Ingress gives it a host name of its own without /proxy or /docs', () => {
    const c = onlyContainer(podTemplate(named(render('base gateway'), 'Deployment', 'gateway')).spec);
    expect(env(c, 'CONSOLE_PORT')?.value).toBe(String(APPS.gateway.consolePort));
    expect(c.ports?.find((p) => p.name === 'console')?.containerPort).toBe(APPS.gateway.consolePort);
    const consoleUrl = new URL(env(c, 'CONSOLE_URL')?.value ?? '');
    const ingress = named(render('overlay production'), 'Ingress', 'gateway');
    const hosts = (ingress.spec?.rules ?? []).map((r) => r.host);
    expect(hosts).toContain(consoleUrl.hostname);
    const elementsHost = new URL(env(c, 'ELEMENTS_URL')?.value ?? '').hostname;
    const api = (ingress.spec?.rules ?? []).filter((r) => r.host !== consoleUrl.hostname && r.host !== elementsHost);
    expect(api.length).toBeGreaterThan(0);
    for (const rule of ingress.spec?.rules ?? []) {
      const onConsole = rule.host === consoleUrl.hostname;
      for (const p of rule.http?.paths ?? []) {
        expect(p.backend.service?.port?.name).toBe(onConsole ? 'console' : rule.host === elementsHost ? 'elements' : 'http');
        if (onConsole) expect(['/proxy', '/docs']).not.toContain(p.path);
      }
    }
    expect((ingress.spec?.tls ?? []).flatMap((t) => t.hosts ?? [])).toContain(consoleUrl.hostname);
  });
});

describe('the Elements fields on an origin of their own', () => {
  it('listen on ELEMENTS_PORT with ELEMENTS_URL, call the API host only, and the production Ingress routes only /elements on a host of their own', () => {
    const c = onlyContainer(podTemplate(named(render('base gateway'), 'Deployment', 'gateway')).spec);
    expect(env(c, 'ELEMENTS_PORT')?.value).toBe(String(APPS.gateway.elementsPort));
    expect(c.ports?.find((p) => p.name === 'elements')?.containerPort).toBe(APPS.gateway.elementsPort);
    const elementsHost = new URL(env(c, 'ELEMENTS_URL')?.value ?? '').hostname;
    const consoleHost = new URL(env(c, 'CONSOLE_URL')?.value ?? '').hostname;
    expect(elementsHost).not.toBe(consoleHost);
    const ingress = named(render('overlay production'), 'Ingress', 'gateway');
    const rules = (ingress.spec?.rules ?? []).filter((r) => r.host === elementsHost);
    expect(rules.flatMap((r) => (r.http?.paths ?? []).map((p) => [p.path, p.backend.service?.port?.name]))).toEqual([['/elements', 'elements']]);
    // no other host is routed to the fields' port
    for (const rule of (ingress.spec?.rules ?? []).filter((r) => r.host !== elementsHost)) {
      for (const p of rule.http?.paths ?? []) expect(p.backend.service?.port?.name).not.toBe('elements');
    }
    const apiHost = (ingress.spec?.rules ?? []).find((r) => r.host !== elementsHost && r.host !== consoleHost)?.host;
    expect(env(c, 'ELEMENTS_API_URL')?.value).toBe(`https://${apiHost}`);
    expect((ingress.spec?.tls ?? []).flatMap((t) => t.hosts ?? [])).toContain(elementsHost);
  });
});

describe('overlays differ only where they should', () => {
  it('keep the same objects (by kind and name) apart from the production Ingress and PostgreSQL', () => {
    // production runs its database as the CloudNativePG Cluster of deploy/k8s/postgres; dev brings its own
    const ids = (o: string) =>
      render(`overlay ${o}`)
        .filter(
          (r) => r.object.kind !== 'Namespace' && r.object.kind !== 'Ingress' && r.object.metadata.labels?.['app.kubernetes.io/name'] !== 'coffer-postgres',
        )
        .map((r) => `${r.object.kind}/${r.object.metadata.name}`)
        .sort();
    expect(ids('dev')).toEqual(ids('production'));
  });
});
