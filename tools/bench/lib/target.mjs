// What the benchmark runs against: a throwaway system started like `npm start` does (built services, migrations,
// a private nats-server, a fresh database on the local PostgreSQL) or a running Coffer at BASE_URL.
import { APPS, build, startEphemeralSystem } from '../../dev/system.mjs';

/**
 * BASE_URL + BENCH_MANAGEMENT_KEY: an existing Coffer (its rate limit must allow the load). BENCH_DATABASE_URL (its
 * database) enables the baselines, the seeded scale scenarios and PostgreSQL's CPU figures; BENCH_PIDS
 * ("gateway=123,token-service=456,...") names its processes for the CPU columns.
 * Otherwise a throwaway system whose rate limit is raised out of the way and whose expiry sweep runs every 2 s.
 */
export async function startTarget({ log, cpuProfDir, replicas = {}, noBuild = false, env: extraEnv = {} }) {
  if (process.env.BASE_URL) {
    const managementKey = process.env.BENCH_MANAGEMENT_KEY;
    if (!managementKey) throw new Error('BASE_URL needs BENCH_MANAGEMENT_KEY (a management key of the tenant to load)');
    const pids = {};
    for (const pair of (process.env.BENCH_PIDS ?? '').split(',').filter(Boolean)) {
      const [name, pid] = pair.split('=');
      pids[name] = [Number(pid)];
    }
    const databaseUrl = process.env.BENCH_DATABASE_URL;
    log(`target: ${process.env.BASE_URL}${databaseUrl ? '' : ' (no BENCH_DATABASE_URL: no baselines, no seeded scale scenarios)'}`);
    return {
      kind: 'base-url',
      url: process.env.BASE_URL.replace(/\/$/, ''),
      managementKey,
      tenantId: process.env.BENCH_TENANT_ID,
      databaseUrl,
      databaseName: databaseUrl ? new URL(databaseUrl).pathname.slice(1) : undefined,
      processPids: () => pids,
      sweepIntervalMs: undefined,
      stop: async () => undefined,
    };
  }
  // no ensureInstalled() here: the bench imports pg and undici before it could run, and an `npm ci` from a worktree
  // whose node_modules is shared would reinstall under everyone else's feet
  if (!noBuild) build([...APPS, 'admin']);
  const sweepIntervalMs = Number(process.env.BENCH_SWEEP_INTERVAL_MS ?? 2000);
  const systemEnv = {
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    RATE_LIMIT_PRIVATE: '100000000/10s',
    RATE_LIMIT_PUBLIC: '100000000/10s',
    RATE_LIMIT_MANAGEMENT: '100000000/10s',
    TOKEN_SWEEP_INTERVAL_MS: String(sweepIntervalMs),
    ...extraEnv,
  };
  // BENCH_SERVICES_AS=threads: the whole run against npm start's arrangement (one service host; its CPU in one column)
  const servicesAs = process.env.BENCH_SERVICES_AS || 'processes';
  const sys = await startEphemeralSystem({
    servicesAs,
    natsMonitoring: true,
    replicas,
    // --cpu-prof: each process writes <name>-<replica>.cpuprofile as it exits (sys.stop() waits for that)
    nodeArgs: cpuProfDir ? (name, replica) => ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`, `--cpu-prof-name=${name}-${replica}.cpuprofile`] : undefined,
    env: systemEnv,
  });
  let created;
  try {
    created = sys.createTenant('bench');
  } catch (err) {
    // the system is up: stop it, or its services and nats-server outlive the failed run
    await sys.stop();
    throw err;
  }
  const { management_key: managementKey, tenant_id: tenantId } = created;
  log(`target: throwaway system at ${sys.urls.join(', ')}, database ${sys.dbName}`);
  return {
    kind: 'throwaway',
    url: sys.url,
    urls: sys.urls,
    natsMonitorUrl: sys.natsMonitorUrl,
    managementKey,
    tenantId,
    databaseUrl: sys.databaseUrl,
    /** the bus's secrets (CA, per-service seeds): the topology floor (lib/skeleton.mjs) starts a nats-server like it */
    bus: sys.bus,
    databaseName: sys.dbName,
    processPids: () => {
      const out = {};
      for (const [name, child] of sys.children) if (child.pid) out[name] = [child.pid];
      // replicas count with their service: CPU per request of the service as a whole
      for (const child of sys.replicas ?? []) if (child.pid) out[child.name] = [...(out[child.name] ?? []), child.pid];
      if (sys.nats?.pid) out['nats-server'] = [sys.nats.pid];
      return out;
    },
    sweepIntervalMs,
    /**
     * The same system as `npm start` runs it, for the idle measurement: the services as threads of one service host
     * (SERVICES_AS=threads) on a database and nats-server of its own. This target runs a process per service, so
     * that the scenarios can tell each service's CPU per request. Resolves {roots, stop}.
     */
    startNpmStartTwin:
      servicesAs === 'threads'
        ? undefined
        : async () => {
            const twin = await startEphemeralSystem({ servicesAs: 'threads', env: systemEnv });
            return {
              roots: { 'service-host': [twin.children.get('service-host').pid], 'nats-server': [twin.nats.pid] },
              stop: () => twin.stop(),
            };
          },
    stop: () => sys.stop(),
  };
}
