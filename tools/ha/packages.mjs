// The Debian packages the HA drill (tools/ha) runs: Patroni (PostgreSQL failover), etcd (Patroni's DCS) and HAProxy
// (routes clients to the leader). Installed with apt-get when a binary is missing, as .ci/run installs nats-server.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** binary → the Debian package that ships it */
export const HA_PACKAGES = {
  patroni: { package: 'patroni', candidates: ['/usr/bin/patroni'] },
  etcd: { package: 'etcd-server', candidates: ['/usr/bin/etcd'] },
  haproxy: { package: 'haproxy', candidates: ['/usr/sbin/haproxy', '/usr/bin/haproxy'] },
};

/** The path of a binary (the usual Debian place, else $PATH), or null. */
export function findBinary(name) {
  for (const candidate of HA_PACKAGES[name]?.candidates ?? []) if (fs.existsSync(candidate)) return candidate;
  const which = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}

/**
 * Installs patroni, etcd-server and haproxy (apt-get install -y -qq) when one of their binaries is missing; returns
 * { patroni, etcd, haproxy } (their paths). Throws a clear error when they cannot be installed (not root and no sudo, no
 * Debian registry). The packages' own services are not used: the drill runs its own processes on free loopback ports.
 */
export function ensureHaPackages(log = () => undefined) {
  const required = Object.entries(HA_PACKAGES);
  const missing = required.filter(([bin]) => !findBinary(bin)).map(([, p]) => p.package);
  if (missing.length) {
    if (!fs.existsSync('/usr/bin/apt-get'))
      throw new Error(`the HA drill needs ${missing.join(', ')} (Patroni, etcd, HAProxy): install them, no apt-get here to do it`);
    const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
    const sh = (args) => {
      const [cmd, ...rest] = [...sudo, ...args];
      return spawnSync(cmd, rest, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    };
    log(`installing ${missing.join(', ')} (apt-get install -y -qq) ...`);
    sh(['apt-get', 'update', '-qq']);
    const res = sh(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing]);
    const still = required.filter(([bin]) => !findBinary(bin)).map(([, p]) => p.package);
    if (res.error || res.status !== 0 || still.length)
      throw new Error(
        `the HA drill needs ${missing.join(', ')} and could not install them (apt-get install -y ${missing.join(' ')}${sudo.length ? ', as root' : ''}): ` +
          `${(res.error?.message ?? res.stderr ?? '').trim().split('\n').slice(-3).join(' ')}`,
      );
  }
  return { patroni: findBinary('patroni'), etcd: findBinary('etcd'), haproxy: findBinary('haproxy') };
}
