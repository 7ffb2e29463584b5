import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { VISA, createTenant, type TestTenant } from '@coffer/testing';
import { SilentReceiver } from '../events/support';
import { formulaCode, makeReactor } from '../reactors/support';
import {
  DeliveryWatch,
  type Pattern,
  type PatternResult,
  type VictimOperation,
  LINGERING_STATEMENT_S,
  loops,
  profileFromEnv,
  runPattern,
  send,
  slowBodies,
  victimCreate,
  victimProxy,
  victimRead,
  victimDelivery,
  victimReact,
  waves,
  writeReport,
} from './noisy-neighbour';

/**
 * The noisy-neighbour suite (issue 22): for each hostile pattern, one tenant or an anonymous client attacks while a
 * victim tenant's reads are timed. A pattern fails when the victim's p99 exceeds 1 s or any victim request fails, when
 * the attacker got something other than the answer defined for it (a 500 or a 504 instead of a 4xx), when the victim
 * is not healthy again shortly after the attack, or when a statement it provoked is still running in PostgreSQL.
 * The figures of every pattern go to stderr and to tmp/noisy-neighbour.json. Bounded here; `npm run test:faults`
 * runs the same file with longer windows and more victim clients (NOISY_NEIGHBOUR_MODE=full).
 */

const profile = profileFromEnv();
/** baseline + window + the attack's answers + recovery + a restart, with room for set-up */
const PATTERN_TIMEOUT_MS = profile.baselineMs + profile.windowMs + profile.settleMs + profile.recoveryMs + 40_000;

/**
 * One Liquid loop that stays under the 100 ms each template may take: about 40 ms on the 2-core CI machine. The
 * issue's 80 000 iterations were just under the limit where it was found; here they exceed it at the second leaf and
 * the create fails fast, which would test the per-template limit instead of the missing total budget.
 */
const EXPENSIVE = '{% for i in (1..40000) %}{% endfor %}';
/** `count` keys, each with `value` */
const leaves = (count: number, value: string) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, value]));
const is4xx = (s: number) => s >= 400 && s < 500;
/** a legitimate request may also be throttled (429) or shed (503 with Retry-After) — never a 500 or a 504 */
const servedOrShed = (ok: number) => (s: number) => s === ok || s === 429 || s === 503;

async function attackerTenant(name: string, permissions: string[]): Promise<{ tenant: TestTenant; key: string }> {
  const tenant = await createTenant(`noisy-${name}`);
  return { tenant, key: (await tenant.app('private', { permissions })).key };
}

/** The proxy destination (proxy-destination.mjs) in its own process: its large answers cost this process nothing. */
async function startDestination(): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(path.join(__dirname, 'proxy-destination.mjs'), [], { env: process.env, stdio: 'inherit' });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`proxy destination exited with ${code}`)));
  });
  return { child, url: `https://localhost:${port}` };
}

describe('noisy neighbour: one tenant or anonymous client cannot stall another tenant', () => {
  const results: PatternResult[] = [];
  let victimKeys: string[];
  let reads: VictimOperation;
  let reacts: VictimOperation;
  let deliveries: VictimOperation;
  const watch = new DeliveryWatch();
  const hung = new SilentReceiver();
  let proxied: VictimOperation;
  /** the attack's destination, and the victim's own: one serving 4 MiB answers must not make the other slow */
  let destination: { child: ChildProcess; url: string };
  let victimDestination: { child: ChildProcess; url: string };

  beforeAll(async () => {
    const victim = await createTenant('noisy-victim');
    await Promise.all([watch.start(), hung.start()]);
    const hook = await send('POST', '/webhooks', { key: victim.managementKey, body: { name: 'victim', url: watch.url, events: ['token.created'] } });
    if (hook.status !== 201) throw new Error(`victim webhook: ${hook.status}`);
    victimKeys = [];
    for (let i = 0; i < profile.victimClients; i++) victimKeys.push((await victim.app('private', { permissions: ['token:create', 'token:read'] })).key);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await send('POST', '/tokens', {
        key: victimKeys[0],
        body: { type: 'card', data: { number: VISA, expiration_month: 12, expiration_year: 2031 } },
      });
      if (res.status !== 201) throw new Error(`victim token: ${res.status}`);
      ids.push(res.body.id);
    }
    reads = victimRead(victimKeys, ids);
    const reactor = await makeReactor(victim.managementKey, { code: formulaCode('return { raw: { ok: true } };') });
    reacts = victimReact((await victim.app('private', { permissions: ['token:use'] })).key, reactor.reactorId);
    deliveries = victimDelivery(victimKeys[0], watch);
    destination = await startDestination();
    victimDestination = await startDestination();
    proxied = victimProxy((await victim.app('private', { permissions: ['proxy:invoke'] })).key, victimDestination.url);
  }, 60_000);

  afterAll(async () => {
    destination?.child.kill();
    victimDestination?.child.kill();
    writeReport(profile, results);
    await Promise.all([watch.stop(), hung.stop()]);
  });

  const patterns: Pattern[] = [
    {
      name: 'tokenize ["a","a"] with deduplication on, 20 at once',
      attacker: 'tenant',
      allowed: servedOrShed(200),
      async prepare() {
        const { tenant, key } = await attackerTenant('dedup', ['token:create', 'token:read']);
        const on = await send('PUT', '/tenants/self', { key: tenant.managementKey, body: { name: 'noisy-dedup', settings: { deduplicate_tokens: 'true' } } });
        if (on.status !== 200) throw new Error(`deduplicate_tokens: ${on.status}`);
        return (ctx) => waves(ctx, 20, () => send('POST', '/tokenize', { key, body: ['a', 'a'], signal: ctx.signal }));
      },
    },
    {
      name: 'mask of 200 expensive leaves on create',
      attacker: 'tenant',
      allowed: is4xx,
      async prepare() {
        const { key } = await attackerTenant('mask', ['token:create']);
        const body = { type: 'token', data: leaves(200, 'v'), mask: leaves(200, EXPENSIVE) };
        return (ctx) => waves(ctx, 1, () => send('POST', '/tokens', { key, body, signal: ctx.signal }));
      },
    },
    {
      name: 'masked reads of a token holding such a mask',
      attacker: 'tenant',
      allowed: (s) => s === 200 || is4xx(s) || s === 503,
      async prepare() {
        const { tenant, key } = await attackerTenant('masked-read', ['token:create', 'token:read', 'token:use']);
        // outside the timed windows; 20 leaves (about 1 s) stay well under the create's 5 s deadline, so today it is written
        const created = await send('POST', '/tokens', {
          key,
          body: { type: 'token', data: leaves(20, 'v'), mask: leaves(20, EXPENSIVE), metadata: { noisy: 'mask' } },
          cutoffMs: 60_000,
        });
        let id: string | undefined = created.status === 201 ? created.body.id : undefined;
        // a create answered 504 may still have been written: look for it (revealed with token:use, so no mask renders)
        for (let i = 0; !id && created.status === 504 && i < 10; i++) {
          await new Promise((r) => setTimeout(r, 1_000));
          id = (await send('GET', '/tokens?metadata.noisy=mask&size=1', { key })).body?.data?.[0]?.id;
        }
        if (!id && created.status >= 400 && created.status < 500) {
          // the API refuses such a mask now: put it in place the way an older release could have stored it, so the
          // reads below still prove that a stored expensive mask cannot stall anyone
          const plain = await send('POST', '/tokens', { key, body: { type: 'token', data: leaves(20, 'v'), mask: leaves(20, '{{ data }}') } });
          if (plain.status !== 201) throw new Error(`masked-read token: ${plain.status}`);
          const db = new pg.Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
          await db.connect();
          try {
            await db.query('UPDATE tokens SET mask = $1::jsonb WHERE tenant_id = $2::uuid AND id = $3', [
              JSON.stringify(leaves(20, EXPENSIVE)),
              tenant.tenantId,
              plain.body.id,
            ]);
          } finally {
            await db.end();
          }
          id = plain.body.id;
        }
        if (!id) return async (ctx) => void ctx.notes.push(`not run: no token with the expensive mask exists (its create answered ${created.status})`);
        const reader = (await tenant.app('private', { permissions: ['token:read'] })).key;
        return (ctx) => loops(ctx, 2, () => send('GET', `/tokens/${id}`, { key: reader, signal: ctx.signal }));
      },
    },
    {
      name: '10 expensive search indexes per token, 4 at once',
      attacker: 'tenant',
      allowed: (s) => s === 201 || is4xx(s) || s === 503,
      async prepare() {
        const { key } = await attackerTenant('indexes', ['token:create']);
        const body = { type: 'token', data: 'x', search_indexes: Array(10).fill(EXPENSIVE) };
        return (ctx) => waves(ctx, 4, () => send('POST', '/tokens', { key, body, signal: ctx.signal }));
      },
    },
    {
      name: 'tokenize 100 tokens, each with an expensive mask',
      attacker: 'tenant',
      allowed: is4xx,
      async prepare() {
        const { key } = await attackerTenant('tokenize-masks', ['token:create']);
        const body = Array.from({ length: 100 }, () => ({ type: 'token', data: 'x', mask: EXPENSIVE }));
        return (ctx) => waves(ctx, 1, () => send('POST', '/tokenize', { key, body, signal: ctx.signal }));
      },
    },
    {
      name: '70 anonymous slow bodies (headers, then nothing)',
      attacker: 'anonymous',
      allowed: (s) => is4xx(s) || s === 503,
      async prepare() {
        return (ctx) => slowBodies(ctx, 70);
      },
    },
    {
      name: "70 slow bodies with the attacker's own key",
      attacker: 'tenant',
      allowed: (s) => is4xx(s) || s === 503,
      async prepare() {
        const { key } = await attackerTenant('slow-body', ['token:create']);
        return (ctx) => slowBodies(ctx, 70, { key });
      },
    },
    {
      name: 'search of 400 AND-ed data terms, 4 at once',
      attacker: 'tenant',
      allowed: is4xx,
      lingeringCheckAfterMs: (LINGERING_STATEMENT_S + 1) * 1_000,
      async prepare() {
        const { key } = await attackerTenant('search', ['token:create', 'token:search']);
        const seeded = await send('POST', '/tokenize', { key, body: Array.from({ length: 50 }, (_, i) => ({ type: 'token', data: `seed-${i}` })) });
        if (seeded.status !== 200) throw new Error(`seed tokens: ${seeded.status}`);
        // terms side by side are AND-ed: 400 of them in 3.6 KB, under the 4 096-character limit on a query
        const query = Array.from({ length: 400 }, (_, i) => `data:${100 + i}`).join(' ');
        return (ctx) => waves(ctx, 4, () => send('POST', '/tokens/search', { key, body: { query }, signal: ctx.signal }));
      },
    },
    {
      name: '12 idempotent creates at once on a cold tenant',
      attacker: 'new tenant',
      allowed: servedOrShed(201),
      async prepare() {
        // one cold tenant (data key not cached) per wave: creating one during the window would block this process
        const cold: string[] = [];
        for (let i = 0; i < Math.max(2, Math.ceil(profile.windowMs / 4_000)); i++) cold.push((await attackerTenant(`cold-${i}`, ['token:create'])).key);
        return (ctx) =>
          waves(ctx, 12, (i) =>
            send('POST', '/tokens', {
              key: cold[Math.min(Math.floor(i / 12), cold.length - 1)],
              headers: { 'SVC-IDEMPOTENCY-KEY': randomUUID() },
              body: { type: 'token', data: 'cold' },
              signal: ctx.signal,
            }),
          );
      },
      get victimExtra() {
        return [victimCreate(victimKeys)];
      },
    },
    {
      name: '16 synchronous reacts busy for 9 s (10 s limit)',
      attacker: 'tenant',
      // 504 here is the attacker's own formula running out of its 10 s
      allowed: (s) => s === 200 || s === 429 || s === 503 || s === 504,
      async prepare() {
        const { tenant, key } = await attackerTenant('react', ['token:use']);
        const { reactorId } = await makeReactor(tenant.managementKey, {
          code: formulaCode('const end = Date.now() + 9000; while (Date.now() < end) {} return { raw: {} };'),
        });
        return (ctx) => loops(ctx, 16, () => send('POST', `/reactors/${reactorId}/react`, { key, body: { args: {} }, signal: ctx.signal }));
      },
      // the sandbox's isolates are shared by every tenant: the victim's own reacts must not wait behind the attacker's
      get victimExtra() {
        return [reacts];
      },
    },
    {
      name: 'anonymous calls of a proxy with 20 mask transforms on a 2 MiB answer, 2 at once',
      attacker: 'anonymous',
      // 422: the masks exceed the call's transform budget, the proxy's own configuration at fault; 408: the
      // destination (this suite's) did not answer within the run's 2 s PROXY_DESTINATION_TIMEOUT_MS on a loaded machine
      allowed: (s) => s === 200 || s === 408 || s === 422 || s === 429 || s === 503,
      async prepare() {
        const tenant = await createTenant('noisy-proxy-masks');
        const created = await send('POST', '/proxies', {
          key: tenant.managementKey,
          body: {
            name: 'masks',
            destination_url: `${destination.url}/cards?bytes=${2 * 1024 * 1024}`,
            require_auth: false,
            // a digit as the replacement keeps every mask matching as much as the first
            response_transforms: Array.from({ length: 20 }, () => ({ type: 'mask', matcher: 'regex', expression: '"n":"(\\d+)"', replacement: '9' })),
          },
        });
        if (created.status !== 201) throw new Error(`masking proxy: ${created.status}`);
        const key = created.body.key as string;
        return (ctx) => loops(ctx, 2, () => send('GET', '/proxy', { headers: { 'BT-PROXY-KEY': key }, signal: ctx.signal, discard: true }));
      },
      // the masks ran in reactor-service, the answers cross proxy-service: both of the victim's calls there are timed
      get victimExtra() {
        return [reacts, proxied];
      },
    },
    {
      name: '24 proxy calls with 4 MiB answers at once',
      attacker: 'tenant',
      allowed: (s) => servedOrShed(200)(s) || s === 408,
      async prepare() {
        const { key } = await attackerTenant('proxy-large', ['proxy:invoke']);
        const headers = { 'BT-PROXY-URL': `${destination.url}/blob?bytes=${4 * 1024 * 1024 - 1024}` };
        return (ctx) => loops(ctx, 24, () => send('GET', '/proxy', { key, headers, signal: ctx.signal, discard: true }));
      },
      get victimExtra() {
        return [proxied];
      },
    },
    {
      name: 'search created_at:-271821-04-20 (v1 and v2), 20 at once',
      attacker: 'tenant',
      allowed: (s) => s === 400,
      async prepare() {
        const { key } = await attackerTenant('dates', ['token:search']);
        const body = { query: 'created_at:-271821-04-20T00:00:00.000Z' };
        return (ctx) => waves(ctx, 20, (i) => send('POST', i % 2 ? '/v2/tokens/search' : '/tokens/search', { key, body, signal: ctx.signal }));
      },
    },
    {
      name: 'invalid API keys, 50 at once',
      attacker: 'anonymous',
      allowed: (s) => s === 401 || s === 429 || s === 503,
      async prepare() {
        return (ctx) => waves(ctx, 50, () => send('GET', `/tokens/${randomUUID()}`, { key: `key_${randomUUID().replace(/-/g, '')}`, signal: ctx.signal }), 50);
      },
    },
    {
      name: "a hung webhook receiver (accepts, never answers) flooded with the attacker's events, 4 creates at once",
      attacker: 'tenant',
      allowed: servedOrShed(201),
      async prepare() {
        const { tenant, key } = await attackerTenant('hung-receiver', ['token:create']);
        const hook = await send('POST', '/webhooks', { key: tenant.managementKey, body: { name: 'hung', url: hung.url, events: ['token.created'] } });
        if (hook.status !== 201) throw new Error(`attacker webhook: ${hook.status}`);
        return (ctx) => loops(ctx, 4, () => send('POST', '/tokens', { key, body: { type: 'token', data: 'noise' }, signal: ctx.signal }));
      },
      // the victim's own events must reach its receiver as fast as without the attacker's receiver hanging
      get victimExtra() {
        return [deliveries];
      },
    },
  ];

  for (const pattern of patterns) {
    it(
      pattern.name,
      async () => {
        const result = await runPattern(profile, reads, pattern);
        results.push(result);
        expect(result.problems).toEqual([]);
      },
      PATTERN_TIMEOUT_MS,
    );
  }
});
