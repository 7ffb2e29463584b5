import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ReaderShell, freshCopy, matchesShown, readerEnv, sectionCommands, type DocCommand } from '../support/doc-walkthrough';

// The walk-throughs of the docs, followed as written on a fresh copy of the working tree: docs/getting-started.md
// (and README.md's first requests), then docs/keys.md "Trying it with SoftHSM2". Other tests set up what they need
// themselves (DATABASE_URL, the HSM); these set nothing a reader would not have, so a step a page forgets (a
// directory to create, a database a command expects) fails here. The first `npm start` builds the copy from scratch: minutes; the second finds its build cached.
jest.setTimeout(30 * 60_000);

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

/** The command that starts Coffer in the reader's first terminal (a trailing comment aside). */
const isStart = (c: DocCommand) => /(^|&&\s*)npm start(\s+#.*)?$/.test(c.command);

/** `npm start` in a terminal of its own: resolves once it says it is ready; `stop()` is Ctrl-C. */
class StartTerminal {
  log = '';
  private child?: ChildProcess;

  async start(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
    // its own process group, as a terminal's foreground job: Ctrl-C reaches every process it started
    const child = spawn('bash', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        this.log += chunk.toString();
        if (/\[coffer\] ready in /.test(this.log)) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`"${command}" exited ${code} before it was ready:\n${this.log.slice(-4000)}`)));
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    const group = child?.pid;
    // never a signal to group 0 (this process's own)
    if (!child || !group || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-group, 'SIGINT');
    let timer: NodeJS.Timeout | undefined;
    const stopped = await Promise.race([exited.then(() => true), new Promise((r) => (timer = setTimeout(() => r(false), 60_000)))]);
    clearTimeout(timer);
    if (!stopped) process.kill(-group, 'SIGKILL');
  }
}

let copy: ReturnType<typeof freshCopy>;

beforeAll(() => {
  copy = freshCopy();
});

afterAll(() => copy?.remove());

/**
 * Follows the commands of `pages`, in order, in the copy: the `npm start` line in one terminal, every other line in a
 * second one (one shell per page, so variables carry over within it), each printing what the page shows under it.
 * Returns what each command printed. Where to listen is all the harness chooses: the suite's own system, or a
 * developer's `npm start`, may hold 8080, 8081 or 54329 (NATS and the health ports move aside by themselves), so the
 * pages' `localhost:8080` becomes the port this run gave the API.
 */
async function follow(pages: Array<{ page: string; commands: DocCommand[] }>, terminal: StartTerminal): Promise<Map<string, string>> {
  const apiPort = await freePort();
  const env = readerEnv({
    PORT: String(apiPort),
    CONSOLE_PORT: String(await freePort()),
    EMBEDDED_PG_PORT: String(await freePort()),
    // the build cache inside the copy, so it goes with it
    NX_CACHE_DIRECTORY: path.join(copy.dir, '.nx', 'cache'),
  });
  const outputs = new Map<string, string>();
  for (const { page, commands } of pages) {
    const shell = new ReaderShell(copy.dir, env);
    try {
      for (const c of commands) {
        if (isStart(c)) {
          await terminal.start(c.command, copy.dir, env);
          continue;
        }
        const output = await shell.run(c.command.replaceAll('localhost:8080', `localhost:${apiPort}`));
        outputs.set(c.command, output);
        if (c.expected !== undefined && !matchesShown(output, c.expected))
          throw new Error(`"${c.command}" printed\n${output}\nwhere ${page} shows\n${c.expected}`);
      }
    } finally {
      shell.close();
    }
  }
  return outputs;
}

describe("docs/getting-started.md and README.md's first requests, as written", () => {
  const terminal = new StartTerminal();
  afterAll(async () => {
    await terminal.stop();
    // the next walk-through starts from a fresh clone's state too (the build stays: it is cached by content)
    fs.rmSync(path.join(copy.dir, '.data'), { recursive: true, force: true });
  });

  it('get from a fresh clone to a token, an application, a session and a reactor', async () => {
    // not followed: `git clone` (the copy is the clone) and `npm test` (this suite is part of it)
    const commands = sectionCommands('docs/getting-started.md').filter((c) => !/^git clone\b/.test(c.command) && !/^npm test\b/.test(c.command));
    expect(commands.filter(isStart)).toHaveLength(1);
    // then README.md's, against the same running Coffer, from a terminal of their own
    const readme = sectionCommands('README.md', 'First requests');
    expect(readme.length).toBeGreaterThan(0);
    const outputs = await follow(
      [
        { page: 'docs/getting-started.md', commands },
        { page: 'README.md', commands: readme },
      ],
      terminal,
    );
    expect(terminal.log).toContain('[coffer] created the default tenant');
    const react = [...outputs].find(([command]) => /\/react\s/.test(command));
    expect(JSON.parse(react?.[1] ?? 'null')).toEqual({ raw: { bin: '424242' } });
    // README's last request lists the card it tokenized by its metadata, case-insensitively
    const listed = JSON.parse(outputs.get(readme[readme.length - 1].command) ?? '{}') as { data?: Array<{ metadata?: object }> };
    expect(listed.data?.length).toBeGreaterThan(0);
  });
});

describe('docs/keys.md, "Trying it with SoftHSM2", as written', () => {
  const terminal = new StartTerminal();
  afterAll(() => terminal.stop());

  it('starts Coffer with its key-encryption key in SoftHSM2, and the API shows the tenant keys wrapped by it', async () => {
    const commands = sectionCommands('docs/keys.md', 'Trying it with SoftHSM2');
    expect(commands.map((c) => c.command)).toEqual(
      expect.arrayContaining(['node tools/dev/softhsm.mjs .data/softhsm', expect.stringMatching(/npm start$/), expect.stringMatching(/keys init/)]),
    );
    const outputs = await follow([{ page: 'docs/keys.md', commands }], terminal);
    // the HSM was what wrapped the keys: `npm start` created the KEK in the token, and the API says so
    expect(terminal.log).toContain('created the key-encryption key "coffer-kek" (pkcs11:coffer-kek)');
    const keys = [...outputs].find(([command]) => command.includes('/tenants/self/keys'));
    const versions = (JSON.parse(keys?.[1] ?? '{}').data ?? []) as Array<{ kek_provider: string }>;
    expect(versions.length).toBeGreaterThan(0);
    expect(versions.every((v) => v.kek_provider === 'pkcs11')).toBe(true);
  });
});
