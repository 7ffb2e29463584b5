/**
 * Per-invocation egress rules (README, "Egress"): a reactor's host list or its tenant's default, applied by the call
 * broker on every hop; refusals look like unreachable hosts; every request is reported for metrics and logs.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SandboxPool, type EgressRecord, type EgressRule, type SandboxInvocation, type SandboxOutcome } from './index';

jest.setTimeout(30_000);

describe('sandbox egress rules', () => {
  let server: Server;
  let port = 0;
  let pool: SandboxPool;
  const records: EgressRecord[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/to-other') {
        res.statusCode = 302;
        res.setHeader('location', `http://other.test:${port}/ok`);
        res.end();
        return;
      }
      res.end('hello');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
    pool = new SandboxPool({
      workerScript: process.env['SANDBOX_WORKER_SCRIPT'],
      size: 1,
      allowHosts: ['api.test', 'other.test', 'a.partner.test'],
      resolver: async (host) => {
        if (['api.test', 'other.test', 'a.partner.test'].includes(host)) return ['127.0.0.1'];
        throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
      },
      onEgress: (r) => records.push(r),
    });
    while (pool.stats().ready < 1) await new Promise((r) => setTimeout(r, 20));
  });

  afterAll(async () => {
    await pool.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const fetching = (url: string) =>
    `module.exports = async () => { try { const r = await fetch(${JSON.stringify(url)}); return { raw: { status: r.status, text: await r.text() } }; }
      catch (e) { return { raw: { error: e.message.split(new URL(${JSON.stringify(url)}).hostname).join('<host>'), code: e.code, type: e.type } }; } };`;
  const run = (url: string, egress?: SandboxInvocation['egress']): Promise<SandboxOutcome> =>
    pool.run({ code: fetching(url), args: {}, configuration: {}, svc: false, timeoutMs: 10_000, tenant: 't1', ...(egress ? { egress } : {}) }, null);
  const raw = (o: SandboxOutcome) => (o.ok ? o.result.raw : o.problem);
  const listed: EgressRule = { allow: ['api.test', '*.partner.test'], unlisted: 'deny' };

  it('a listed host (exact or *. pattern) is reached; an unlisted one fails exactly like an unknown host', async () => {
    expect(raw(await run(`http://api.test:${port}/`, listed))).toEqual({ status: 200, text: 'hello' });
    expect(raw(await run(`http://a.partner.test:${port}/`, listed))).toEqual({ status: 200, text: 'hello' });
    const unlisted = raw(await run(`http://other.test:${port}/`, listed));
    const unknown = raw(await run(`http://unknown.test:${port}/`));
    expect(unlisted).toEqual(unknown);
    expect(unlisted).toMatchObject({ code: 'EGRESS_DENIED', type: 'system' });
  });

  it('redirects to an unlisted host are refused', async () => {
    expect(raw(await run(`http://api.test:${port}/to-other`, listed))).toMatchObject({ code: 'EGRESS_DENIED' });
    expect(raw(await run(`http://api.test:${port}/to-other`))).toEqual({ status: 200, text: 'hello' });
  });

  it('a tenant default of deny refuses every host; the default is read on the first fetch only', async () => {
    let lookups = 0;
    const tenantDefault = async (): Promise<EgressRule> => {
      lookups++;
      return { allow: null, unlisted: 'deny' };
    };
    expect(raw(await run(`http://api.test:${port}/`, tenantDefault))).toMatchObject({ code: 'EGRESS_DENIED' });
    expect(lookups).toBe(1);
    const o = await pool.run(
      { code: 'module.exports = async () => ({ raw: 1 });', args: {}, configuration: {}, svc: false, timeoutMs: 10_000, egress: tenantDefault },
      null,
    );
    expect(raw(o)).toBe(1);
    expect(lookups).toBe(1);
  });

  it('a default that cannot be read lets nothing out', async () => {
    const o = await run(`http://api.test:${port}/`, () => Promise.reject(new Error('session-service down')));
    expect(raw(o)).toMatchObject({ type: 'system', error: expect.stringContaining('egress policy is unavailable') });
  });

  it('every request is recorded with host, outcome, status, bytes and duration - never a path', async () => {
    records.length = 0;
    await run(`http://api.test:${port}/secret-path?card=4242`, listed);
    await run(`http://other.test:${port}/`, listed);
    expect(records).toEqual([
      { host: 'api.test', outcome: 'ok', status: 200, bytes: 5, durationMs: expect.any(Number), tenant: 't1' },
      { host: 'other.test', outcome: 'denied', bytes: 0, durationMs: expect.any(Number), tenant: 't1' },
    ]);
    expect(JSON.stringify(records)).not.toContain('secret-path');
  });
});
