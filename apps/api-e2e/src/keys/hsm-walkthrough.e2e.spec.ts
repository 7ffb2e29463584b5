import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { freshCopy, matchesShown, readerEnv, sectionCommands, type DocCommand } from '../support/doc-walkthrough';

// docs/keys.md "Trying it with SoftHSM2", followed as written on a fresh copy of the working tree: the tests of
// hsm-custody set DATABASE_URL and the HSM up themselves; this one sets nothing a reader would not have, so a step
// the page forgets (a directory to create, a database `keys init` expects) fails here. `npm start` builds the copy
// from scratch (no build cache of its own yet): minutes.
jest.setTimeout(20 * 60_000);

const PAGE = 'docs/keys.md';
const SECTION = 'Trying it with SoftHSM2';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.once('error', reject);
  });
}

const isStart = (c: DocCommand) => /(^|&&\s*)npm start$/.test(c.command);

describe(`${PAGE}, "${SECTION}", as written`, () => {
  let copy: ReturnType<typeof freshCopy>;
  let env: NodeJS.ProcessEnv;
  let apiPort: number;
  let start: ChildProcess | undefined;
  let startLog = '';

  beforeAll(async () => {
    copy = freshCopy();
    apiPort = await freePort();
    // where to listen is all the harness chooses: the e2e suite's own system, or a developer's `npm start`, may hold
    // 8080, 8081 or 54329 (NATS and the health ports move aside by themselves); the build cache inside the copy, so
    // it goes with it
    env = readerEnv({
      PORT: String(apiPort),
      CONSOLE_PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
      NX_CACHE_DIRECTORY: path.join(copy.dir, '.nx', 'cache'),
    });
  });

  afterAll(async () => {
    if (start && start.exitCode === null && start.signalCode === null) {
      // Ctrl-C in the reader's terminal: the whole process group
      const exited = new Promise((r) => start!.once('exit', r));
      process.kill(-start.pid!, 'SIGINT');
      const stopped = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 60_000))]);
      if (!stopped) process.kill(-start.pid!, 'SIGKILL');
    }
    copy?.remove();
  });

  /** One command in the reader's shell, in the copy; the page's port stands for the one this run listens on. */
  function run(c: DocCommand): string {
    const command = c.command.replaceAll('localhost:8080', `localhost:${apiPort}`);
    const r = spawnSync('bash', ['-c', command], { cwd: copy.dir, env, encoding: 'utf8', timeout: 10 * 60_000 });
    if (r.status !== 0) throw new Error(`"${c.command}" exited ${r.status ?? r.signal}\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  }

  /** `npm start` in a terminal of its own, until it says it is ready (or exits). */
  async function startInBackground(c: DocCommand): Promise<void> {
    start = spawn('bash', ['-c', c.command], { cwd: copy.dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const child = start;
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        startLog += chunk.toString();
        if (/\[coffer\] ready in /.test(startLog)) resolve();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`"${c.command}" exited ${code} before it was ready:\n${startLog.slice(-4000)}`)));
    });
  }

  it('runs every command of the section, in order, each answering what the page shows', async () => {
    const commands = sectionCommands(PAGE, SECTION);
    expect(commands.map((c) => c.command)).toEqual(
      expect.arrayContaining(['node tools/dev/softhsm.mjs .data/softhsm', expect.stringMatching(/npm start$/), expect.stringMatching(/keys init/)]),
    );
    const outputs = new Map<string, string>();
    for (const c of commands) {
      if (isStart(c)) await startInBackground(c);
      else outputs.set(c.command, run(c));
      if (c.expected !== undefined && !matchesShown(outputs.get(c.command) ?? '', c.expected))
        throw new Error(`"${c.command}" printed\n${outputs.get(c.command)}\nwhere ${PAGE} shows\n${c.expected}`);
    }

    // the HSM was what wrapped the keys: `npm start` created the KEK in the token, and the API says so
    expect(startLog).toContain('created the key-encryption key "coffer-kek" (pkcs11:coffer-kek)');
    const keys = [...outputs.entries()].find(([command]) => command.includes('/tenants/self/keys'));
    expect(keys).toBeDefined();
    const versions = JSON.parse(keys![1]).data as Array<{ kek_provider: string }>;
    expect(versions.length).toBeGreaterThan(0);
    expect(versions.every((v) => v.kek_provider === 'pkcs11')).toBe(true);
  });
});
