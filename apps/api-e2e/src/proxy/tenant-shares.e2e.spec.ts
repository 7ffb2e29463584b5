/**
 * Issue 34 item 3: proxy-service shares its calls between tenants. One tenant's many slow calls take at most its
 * share (PROXY_MAX_IN_FLIGHT is 32 in this run: 16 a tenant); the rest are refused at once with 503 and Retry-After,
 * and another tenant's call still goes through.
 */
import { createTenant } from '@coffer/testing';
import { Destination, proxy } from './support';

jest.setTimeout(60_000);

describe("proxy-service's in-flight shares", () => {
  const dest = new Destination();
  beforeAll(async () => {
    await dest.start();
    dest.behave = (req, res) => {
      // well within the run's 2 s PROXY_DESTINATION_TIMEOUT_MS, on a loaded machine too
      const ms = req.url.startsWith('/slow') ? 800 : 0;
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ok: true }));
      }, ms);
    };
  });
  afterAll(() => dest.stop());

  it("refuses one tenant's calls past its share with 503 and Retry-After; another tenant's call is served", async () => {
    const hog = await createTenant('proxy-share-hog');
    const victim = await createTenant('proxy-share-victim');
    const hogKey = (await hog.app('private', { permissions: ['proxy:invoke'] })).key;
    const victimKey = (await victim.app('private', { permissions: ['proxy:invoke'] })).key;

    // one answer first: the hog's answers are known to be small, so its share of the calls is what bounds it (before
    // any answer is seen, each call is charged the largest answer and a first burst meets the byte rate instead)
    expect((await proxy('GET', '/proxy/fast', { key: hogKey, destination: dest.url() })).status).toBe(200);
    const calls = Array.from({ length: 24 }, () => proxy('GET', '/proxy/slow', { key: hogKey, destination: dest.url() }));
    // while the hog's calls wait for the slow destination, the victim's call is admitted
    await new Promise((r) => setTimeout(r, 300));
    const mine = await proxy('GET', '/proxy/fast', { key: victimKey, destination: dest.url() });
    expect(mine.status).toBe(200);

    const answers = await Promise.all(calls);
    // admitted: answered, or (on a loaded machine) past the run's 2 s destination timeout, 408 — sent either way
    const admitted = answers.filter((a) => a.status === 200 || a.status === 408);
    const refused = answers.filter((a) => a.status === 503);
    expect(admitted.length + refused.length).toBe(24);
    expect(admitted.length).toBeLessThanOrEqual(16);
    expect(refused.length).toBeGreaterThanOrEqual(8);
    for (const r of refused) {
      expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.body.detail).toMatch(/busy with this tenant's calls/);
    }
  });
});
