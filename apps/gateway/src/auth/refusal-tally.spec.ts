import type { FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError, RefusalWindowMessage, validateContract } from '@coffer/contracts';
import type { RpcClient } from '@coffer/bus';
import { metricsRegistry } from '@coffer/observability';
import type { PrincipalResolver } from './principal-resolver';
import { RefusalTally } from './refusal-tally';

type Sent = { windows: RefusalWindowMessage[] };

/** A tally whose bus answers with `answer` (a reply, or a ProblemError to throw) and records what was sent. */
function tallyWith(answer: (batch: Sent) => unknown) {
  const sent: Sent[] = [];
  const rpc = {
    call: async (_op: unknown, body: Sent) => {
      sent.push(structuredClone(body));
      const a = answer(body);
      if (a instanceof Error) throw a;
      return a;
    },
  } as unknown as RpcClient;
  const resolver = { recentTenant: () => undefined } as unknown as PrincipalResolver;
  return { tally: new RefusalTally(rpc, resolver), sent };
}

/** A refused request as Fastify hands it to the onResponse hook. */
function refuse(tally: RefusalTally, ip: string, traceId: string, headers: Record<string, string> = {}, status = 401) {
  tally.observe({ ip, headers, traceId } as unknown as FastifyRequest, { statusCode: status } as FastifyReply);
}

async function dropped(reason: string): Promise<number> {
  const metric = (await metricsRegistry.getMetricsAsJSON()).find((m) => m.name === 'coffer_audit_refusals_dropped_total');
  return Number(metric?.values.find((v) => v.labels['reason'] === reason)?.value ?? 0);
}

const ok = (b: Sent) => ({ windows: b.windows.length });

describe('RefusalTally', () => {
  it('never makes a window the contract refuses: the source is a plain address or "unknown", the trace id one the gateway takes', async () => {
    const { tally, sent } = tallyWith(ok);
    const hostile = ['9'.repeat(8_000), `=cmd|' /C calc'!A0`, '', '203.0.113.9, 10.0.0.1', '1.2.3.4.5'];
    hostile.forEach((ip, i) => refuse(tally, ip, `t-${i}`));
    refuse(tally, '::ffff:198.51.100.7', 'a'.repeat(128));
    refuse(tally, '2001:db8::1', 'b'.repeat(129));
    refuse(tally, '198.51.100.8', 'bad trace\u0000');
    refuse(tally, `fe80::1%${'e'.repeat(200)}`, 'zoned');
    await tally.flush();
    const windows = sent.flatMap((b) => b.windows);
    for (const w of windows) expect(() => validateContract(RefusalWindowMessage, w)).not.toThrow();
    const bySource = (s: string) => windows.filter((w) => w.source === s);
    // the addresses that are not addresses count as one unknown client, never as what they said
    expect(bySource('unknown')).toEqual([expect.objectContaining({ reason: 'missing_key', count: hostile.length, traceId: 't-0' })]);
    expect(bySource('198.51.100.7')).toEqual([expect.objectContaining({ traceId: 'a'.repeat(128) })]);
    expect(bySource('2001:db8::1')[0]).not.toHaveProperty('traceId');
    expect(bySource('198.51.100.8')[0]).not.toHaveProperty('traceId');
    expect(windows.map((w) => w.source).sort()).toEqual(['198.51.100.7', '198.51.100.8', '2001:db8::1', 'fe80::1', 'unknown']);
  });

  it('a batch token-service refuses (4xx) is dropped and counted, never sent again', async () => {
    let refuseNext = true;
    const { tally, sent } = tallyWith((b) => (refuseNext ? ((refuseNext = false), new ProblemError(400, 'The request is invalid')) : ok(b)));
    const before = await dropped('rejected');
    refuse(tally, '198.51.100.1', 'first');
    await tally.flush();
    refuse(tally, '198.51.100.2', 'second');
    await tally.flush();
    await tally.flush();
    expect(sent.map((b) => b.windows.map((w) => w.source))).toEqual([['198.51.100.1'], ['198.51.100.2']]);
    expect(await dropped('rejected')).toBe(before + 1);
  });

  it('while the bus fails (5xx), windows are kept and sent again a bounded number of times, then dropped and counted', async () => {
    let down = true;
    const { tally, sent } = tallyWith((b) => (down ? new ProblemError(503, 'The token-service is unavailable') : ok(b)));
    const before = await dropped('undeliverable');
    refuse(tally, '198.51.100.1', 'kept');
    await tally.flush();
    refuse(tally, '198.51.100.1', 'kept-2');
    await tally.flush();
    down = false;
    await tally.flush();
    // the counts of both failed flushes arrive together once the bus is back
    expect(sent.at(-1)?.windows).toEqual([expect.objectContaining({ source: '198.51.100.1', count: 2, traceId: 'kept' })]);

    down = true;
    refuse(tally, '198.51.100.3', 'lost');
    for (let i = 0; i < RefusalTally.MAX_ATTEMPTS + 3; i++) await tally.flush();
    const attempts = sent.filter((b) => b.windows.some((w) => w.source === '198.51.100.3')).length;
    expect(attempts).toBe(RefusalTally.MAX_ATTEMPTS);
    expect(await dropped('undeliverable')).toBe(before + 1);
  });

  it('holds at most MAX_KEYS windows of their own: beyond, refusals (new or held back) count under source "*"', async () => {
    const { tally, sent } = tallyWith(() => new ProblemError(503, 'down'));
    for (let i = 0; i < RefusalTally.MAX_KEYS + 10; i++) refuse(tally, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, `t${i}`);
    await tally.flush();
    const first = sent[0].windows;
    expect(first).toHaveLength(RefusalTally.MAX_KEYS + 1);
    expect(first.find((w) => w.source === '*')?.count).toBe(10);
    // the held windows fill the queue again: new addresses still count, under "*"
    for (let i = 0; i < 5; i++) refuse(tally, `192.0.2.${i + 1}`, `n${i}`);
    await tally.flush();
    expect(sent[1].windows).toHaveLength(RefusalTally.MAX_KEYS + 1);
    expect(sent[1].windows.find((w) => w.source === '*')?.count).toBe(15);
    expect(sent[1].windows.reduce((n, w) => n + w.count, 0)).toBe(RefusalTally.MAX_KEYS + 15);
  });
});
