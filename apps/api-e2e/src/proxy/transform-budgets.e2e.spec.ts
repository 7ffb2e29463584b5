/**
 * Issue 34 item 1: a pre-configured proxy's transforms run off reactor-service's event loop, within a per-call time
 * and byte budget. An anonymous call whose answer is 2 MiB with twenty mask transforms used to hold reactor-service's
 * event loop for seconds (7.9 s for five masks in the issue), and every other tenant's call to reactor-service waited; now the masks run in a worker
 * thread, the call is refused with a 422 problem once its budget is spent, and the other tenant's calls answer at once.
 */
import { api, createTenant, type TestTenant } from '@coffer/testing';
import { Destination, proxy } from './support';

jest.setTimeout(120_000);

/**
 * About 2 MiB of JSON with a card number every 25 bytes: 84 000 matches per mask, so twenty masks take about twice the
 * default 5 s budget on a quiet 2-core machine (with a number every 60 bytes they took 4.8 s there, inside it).
 */
function largeAnswer(): string {
  const items: Array<{ n: string }> = [];
  for (let size = 0; size < 2 * 1024 * 1024; size += 25) items.push({ n: '4242424242424242' });
  return JSON.stringify(items);
}

describe('proxy transform budgets', () => {
  let hostile: TestTenant;
  let victim: TestTenant;
  let victimProxyId: string;
  const dest = new Destination();
  const answer = largeAnswer();

  beforeAll(async () => {
    await dest.start();
    dest.behave = (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(answer);
    };
    hostile = await createTenant('transform-budget-hostile');
    victim = await createTenant('transform-budget-victim');
    const mine = await api('POST', '/proxies', { key: victim.managementKey, body: { name: 'victim', destination_url: dest.url('/v') } });
    expect(mine.status).toBe(201);
    victimProxyId = mine.body.id;
  });
  afterAll(() => dest.stop());

  // a replacement that is a digit keeps every later mask matching as much as the first
  const maskProxy = async (masks: number, replacement: string) => {
    const res = await api('POST', '/proxies', {
      key: hostile.managementKey,
      body: {
        name: 'masks',
        destination_url: dest.url('/big'),
        require_auth: false,
        response_transforms: Array.from({ length: masks }, () => ({ type: 'mask', matcher: 'regex', expression: '"n":"(\\d+)"', replacement })),
      },
    });
    expect(res.status).toBe(201);
    return res.body.key as string;
  };

  it('masks a large answer without stalling another tenant, and refuses transforms over their budget with 422', async () => {
    const key = await maskProxy(20, '9');
    const started = performance.now();
    const hostileCall = proxy('GET', '/proxy/x', { headers: { 'BT-PROXY-KEY': key } }).then((res) => ({ res, ms: performance.now() - started }));
    // the victim reads its own proxy from reactor-service, one read after another, while the masks run
    await new Promise((r) => setTimeout(r, 300));
    const victimMs: number[] = [];
    let done = false;
    void hostileCall.finally(() => (done = true));
    while (!done) {
      const t = performance.now();
      const res = await api('GET', `/proxies/${victimProxyId}`, { key: victim.managementKey });
      expect(res.status).toBe(200);
      victimMs.push(performance.now() - t);
      // a pause between reads: the victim stays under the gateway's rate limit
      await new Promise((r) => setTimeout(r, 100));
    }
    const { res, ms } = await hostileCall;
    // twenty masks of 2 MiB exceed the default 5 s budget: the proxy's own configuration is at fault, a 4xx
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.detail).toMatch(/transforms/);
    expect(res.text).not.toContain('4242424242424242');
    expect(ms).toBeGreaterThan(1000);
    expect(victimMs.length).toBeGreaterThan(2);
    expect(Math.max(...victimMs)).toBeLessThan(1000);
  });

  it('still masks a large answer within the budget', async () => {
    const key = await maskProxy(2, '*');
    const res = await proxy('GET', '/proxy/x', { headers: { 'BT-PROXY-KEY': key } });
    expect(res.status).toBe(200);
    const items = res.body as Array<{ n: string }>;
    expect(items.length).toBeGreaterThan(80_000);
    expect(items.every((i) => i.n === '****************')).toBe(true);
  });
});
