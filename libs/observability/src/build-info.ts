import { Gauge } from 'prom-client';
import { ConfigError, envString } from './config';
import { metricsRegistry } from './metrics';

// Bundled into each service by webpack (and read from the source tree by jest): the version the repository released,
// not the generated dist/apps/<app>/package.json's 0.0.1. The root package.json belongs to no project, so the module
// boundaries have nothing to protect here.
// eslint-disable-next-line @nx/enforce-module-boundaries
const ROOT_PACKAGE = require('../../../package.json') as { version: string };

/** The release every process reports: the root package.json's version. */
export const COFFER_VERSION = ROOT_PACKAGE.version;

export const DEFAULT_COFFER_COMMIT = 'unknown';

/**
 * COFFER_COMMIT: the commit the process was built from (the image build or `npm start` sets it), 1–64 letters,
 * digits, `.`, `_` or `-`; default `unknown`. A label value of coffer_build_info, so nothing else is accepted.
 */
export function loadBuildCommit(): string {
  const commit = envString('COFFER_COMMIT', DEFAULT_COFFER_COMMIT).trim();
  if (!/^[\w.-]{1,64}$/.test(commit)) throw new ConfigError(`COFFER_COMMIT must be 1 to 64 letters, digits, ".", "_" or "-", got "${commit}"`);
  return commit;
}

let commit: string | undefined;

/**
 * coffer_build_info{version,commit,node} 1: what runs where, for dashboards (versions during a rollout) and for
 * joining onto other series. Set when scraped; COFFER_COMMIT was checked at start-up (loadProcessConfig), so reading
 * it here cannot fail, and once read it is kept.
 */
export const buildInfo = new Gauge({
  name: 'coffer_build_info',
  help: 'Always 1: the Coffer version, the commit it was built from and the Node.js version of this process',
  labelNames: ['version', 'commit', 'node'] as const,
  registers: [metricsRegistry],
  collect() {
    commit ??= safeCommit();
    this.set({ version: COFFER_VERSION, commit, node: process.version }, 1);
  },
});

function safeCommit(): string {
  try {
    return loadBuildCommit();
  } catch {
    return DEFAULT_COFFER_COMMIT;
  }
}
