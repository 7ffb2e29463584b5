// promtool, from Debian's `prometheus` package: installed with apt-get when it is missing (as root, or with sudo), as
// .ci/run installs nats-server and tools/dev/softhsm.mjs installs SoftHSM2. Only promtool is used: Debian's
// policy-rc.d in containers keeps the package's Prometheus daemon from starting, and elsewhere it is stopped at once.
import { spawnSync } from 'node:child_process';

function onPath() {
  return spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' }).status === 0;
}

/** `promtool`, once it is installed; throws how to install it when it cannot be. */
export function ensurePromtool() {
  if (onPath()) return 'promtool';
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const sh = (args, env = {}) =>
    spawnSync(sudo.length ? sudo[0] : args[0], sudo.length ? [...sudo.slice(1), ...args] : args.slice(1), {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive', ...env },
    });
  process.stderr.write('[coffer] installing promtool (apt-get install -y --no-install-recommends prometheus) ...\n');
  sh(['apt-get', 'update', '-qq']);
  const res = sh(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'prometheus']);
  // outside a container the package starts its daemon: the tests need promtool alone
  sh(['sh', '-c', 'command -v systemctl >/dev/null && systemctl disable --now prometheus >/dev/null 2>&1 || true']);
  if (res.status !== 0 || !onPath())
    throw new Error('promtool is missing and could not be installed: apt-get install -y prometheus (Debian/Ubuntu) or brew install prometheus');
  return 'promtool';
}

/** Runs promtool with `args`; resolves with its output, throws with it when promtool fails. */
export function promtool(args, options = {}) {
  const res = spawnSync(ensurePromtool(), args, { encoding: 'utf8', ...options });
  const output = `${res.stdout ?? ''}${res.stderr ?? ''}`;
  if (res.status !== 0) throw new Error(`promtool ${args.join(' ')} failed:\n${output}`);
  return output;
}
