/**
 * The harness of the hostile-code suites (hostile-escape.spec.ts, hostile-resources.spec.ts): a pool of two workers
 * with a resolver that maps test names to loopback, private and unresolvable addresses, a loopback server with a
 * canary secret, and the checks every attack is held to. After every test the pool must serve a normal invocation.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxPool, type SandboxInvocation, type SandboxOutcome, type SandboxPoolEvent } from '../index';

export const CANARY = 'canary-' + Math.random().toString(36).slice(2);
export const LEAK = new RegExp([CANARY, 'COFFER_SANDBOX', 'memoryLimitMb', '/work/', 'node_modules', 'ts-node'].join('|'));
export const mod = (body: string) => `module.exports = async function (req) {\n${body}\n};`;
export const FAST = 600; // timeout for the deadline attacks

export function inv(code: string, extra: Partial<SandboxInvocation> = {}): SandboxInvocation {
  return { code, args: {}, configuration: {}, svc: false, timeoutMs: 5000, captureConsole: true, tenant: 'attacker', ...extra };
}

export function expectContained(o: SandboxOutcome): void {
  expect(JSON.stringify(o)).not.toMatch(LEAK);
}

export function expectFailed(o: SandboxOutcome, status?: number): void {
  expectContained(o);
  expect(o.ok).toBe(false);
  if (!o.ok && status !== undefined) expect(o.problem.status).toBe(status);
}

export function rawOf(o: SandboxOutcome): unknown {
  expectContained(o);
  if (!o.ok) throw new Error('expected success: ' + JSON.stringify(o));
  return o.result.raw;
}

/** An attack that reports what it obtained: it must obtain nothing of the host. */
export const probe = (attempt: string) =>
  mod(`
    try {
      const got = (function () { ${attempt} })();
      return { raw: { got: typeof got === 'undefined' ? 'undefined' : String(got) } };
    } catch (e) {
      return { raw: { blocked: String(e && e.message) } };
    }
  `);

/** Registers the suite's hooks in the calling `describe` and returns its live state. */
export function useHostilePool() {
  const h = { pool: null as unknown as SandboxPool, port: 0, secretHits: 0, events: [] as SandboxPoolEvent[], canaryFile: '' };
  let server: Server;
  const dir = mkdtempSync(join(tmpdir(), 'sbx-'));
  h.canaryFile = join(dir, 'canary.txt');

  beforeAll(async () => {
    writeFileSync(h.canaryFile, CANARY);
    process.env['SANDBOX_TEST_CANARY'] = CANARY;
    server = createServer((req, res) => {
      if (req.url === '/secret') {
        h.secretHits++;
        res.end(CANARY);
      } else if (req.url === '/to-loopback') {
        res.statusCode = 302;
        res.setHeader('location', `http://127.0.0.1:${h.port}/secret`);
        res.end();
      } else if (req.url === '/to-internal-name') {
        res.statusCode = 307;
        res.setHeader('location', `http://internal.example:${h.port}/secret`);
        res.end();
      } else if (req.url === '/to-nxdomain') {
        res.statusCode = 307;
        res.setHeader('location', `http://nxdomain.example:${h.port}/secret`);
        res.end();
      } else if (req.url === '/to-metadata') {
        res.statusCode = 301;
        res.setHeader('location', 'http://169.254.169.254/latest/meta-data/');
        res.end();
      } else if (req.url === '/slow') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const t = setInterval(() => res.write('.'), 50);
        res.on('close', () => clearInterval(t));
      } else if (req.url === '/big') {
        res.writeHead(200);
        const chunk = Buffer.alloc(1024 * 1024, 97);
        let n = 0;
        const write = () => {
          while (n < 20) {
            n++;
            if (!res.write(chunk)) return void res.once('drain', write);
          }
          res.end();
        };
        write();
      } else {
        res.end('ok');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    h.port = (server.address() as AddressInfo).port;
    h.pool = new SandboxPool({
      // SANDBOX_WORKER_SCRIPT=dist/apps/reactor-service/sandbox-worker.js runs the suite against the bundled worker
      workerScript: process.env['SANDBOX_WORKER_SCRIPT'],
      size: 2,
      concurrency: 2,
      allowHosts: ['allowed.test'],
      resolver: async (host) => {
        if (host === 'allowed.test') return ['127.0.0.1'];
        if (host === 'internal.example') return ['10.1.2.3'];
        if (host === 'rebind.example') return ['93.184.216.34', '127.0.0.1'];
        if (host === 'mapped.example') return ['::ffff:169.254.169.254'];
        if (host === 'localhost') return ['127.0.0.1', '::1'];
        if (host === 'nxdomain.example') throw Object.assign(new Error('getaddrinfo ENOTFOUND nxdomain.example'), { code: 'ENOTFOUND' });
        if (host === 'nodata.example') return [];
        return ['93.184.216.34'];
      },
      onEvent: (e) => {
        h.events.push(e);
        if (process.env['SBX_DEBUG']) process.stderr.write((Date.now() % 100000) + ' ' + JSON.stringify(e).slice(0, 200) + '\n');
      },
    });
    await ready();
  });

  /** Deadlines count from the call: wait until the workers (and replacements of killed ones) are up. */
  async function ready(): Promise<void> {
    const until = Date.now() + 30_000;
    while (h.pool.stats().ready < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  }

  afterEach(async () => {
    await ready();
    if (process.env['SBX_DEBUG']) process.stderr.write((Date.now() % 100000) + ' stats ' + JSON.stringify(h.pool.stats()) + '\n');
    // the h.pool still serves a normal invocation
    const o = await h.pool.run(inv(mod('return { raw: { fine: req.args.n * 2 } };'), { args: { n: 21 } }), null);
    expect(o.ok ? o.result : o.problem).toEqual({ raw: { fine: 42 } });
  });

  afterAll(async () => {
    await h.pool.close();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
    delete process.env['SANDBOX_TEST_CANARY'];
  });
  return h;
}
