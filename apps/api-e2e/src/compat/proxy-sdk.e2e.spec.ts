/**
 * Issue 26 item 4: @basis-theory/basis-theory-js 4.30.2's ephemeral proxy calls (`bt.proxy.get/post/put/patch/delete`),
 * unchanged, against Coffer and a local HTTPS destination (../proxy/support.ts). The SDK sends BT-API-KEY and
 * BT-PROXY-URL, the body as the caller gives it and the path and query appended to /proxy; it hands back the
 * destination's body as is. (@basis-theory/node-sdk has no ephemeral proxy call: its `proxies` client manages
 * pre-configured proxies.)
 */
import { VISA, createTenant } from '@coffer/testing';
import { btJs, type BtJs } from './support';
import { Destination } from '../proxy/support';

jest.setTimeout(60_000);

describe('@basis-theory/basis-theory-js proxy', () => {
  let bt: BtJs;
  let cardId: string;
  const dest = new Destination();

  beforeAll(async () => {
    await dest.start();
    dest.behave = (req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-dest', 'yes');
      res.end(JSON.stringify({ method: req.method, url: req.url, body: req.body.toString() }));
    };
    const tenant = await createTenant('bt-js-proxy');
    const key = (await tenant.app('private', { permissions: ['token:create', 'token:use', 'proxy:invoke'] })).key;
    bt = await btJs(key);
    cardId = (await bt.tokens.create({ type: 'card', data: { number: VISA, expiration_month: 12, expiration_year: 2030 } })).id;
  });
  afterAll(() => dest.stop());

  it('post: the body with its expressions detokenized, path and query appended, the answer as given', async () => {
    const answer = await bt.proxy.post({
      path: '/charges',
      query: { currency: 'usd' },
      headers: { 'BT-PROXY-URL': dest.url('/v1'), 'Content-Type': 'application/json' },
      body: JSON.stringify({ number: `{{ ${cardId} | json: '$.number' }}`, amount: 100 }),
    });
    const got = typeof answer === 'string' ? JSON.parse(answer) : answer;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/v1/charges?currency=usd');
    expect(JSON.parse(got.body)).toEqual({ number: VISA, amount: 100 });
    expect(dest.last.headers['bt-api-key']).toBeUndefined();
  });

  it('post with includeResponseHeaders: the destination headers come back too', async () => {
    const answer = (await bt.proxy.post({
      headers: { 'BT-PROXY-URL': dest.url(), 'Content-Type': 'text/plain' },
      body: `{{ ${cardId} | json: '$.expiration_year' }}`,
      includeResponseHeaders: true,
    })) as { data: unknown; headers: Record<string, string> };
    expect(answer.headers['x-dest']).toBe('yes');
    expect(answer.headers['bt-proxy-destination-status']).toBe('200');
    const got = typeof answer.data === 'string' ? JSON.parse(answer.data) : answer.data;
    expect(got.body).toBe('2030');
  });

  it.each(['get', 'put', 'patch', 'delete'] as const)('%s reaches the destination with its method', async (method) => {
    const call = bt.proxy[method] as (o: object) => Promise<unknown>;
    const answer = await call.call(bt.proxy, {
      path: '/items/1',
      headers: { 'BT-PROXY-URL': dest.url('/api'), ...(method === 'get' || method === 'delete' ? {} : { 'Content-Type': 'application/json' }) },
      ...(method === 'get' || method === 'delete' ? {} : { body: JSON.stringify({ card: `{{ ${cardId} | json: '$.number' | last4 }}` }) }),
    });
    const got = typeof answer === 'string' ? JSON.parse(answer) : answer;
    expect(got.method).toBe(method.toUpperCase());
    expect(got.url).toBe('/api/items/1');
    if (method === 'put' || method === 'patch') expect(JSON.parse(got.body)).toEqual({ card: VISA.slice(-4) });
  });

  it('a proxy error is the SDK’s BasisTheoryApiError with Coffer’s problem', async () => {
    const err = (await bt.proxy.post({ headers: { 'BT-PROXY-URL': 'http://insecure.example.com' }, body: '{}' }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { name?: string; status?: number };
    expect(err?.name).toBe('BasisTheoryApiError');
    expect(err.status).toBe(400);
  });
});
