import 'reflect-metadata';
import { JSONCodec } from 'nats';
import {
  ArrivalStampingDeserializer,
  cappedDeadlineMs,
  currentRequestDeadline,
  deadlineAtDispatch,
  receivedAtOf,
  withRequestDeadline,
} from './request-deadline';

describe('request deadlines', () => {
  it('a request is expired at dispatch when its timeout, counted from arrival, has passed', () => {
    const env = { traceId: 't', body: {}, timeoutMs: 100 };
    expect(deadlineAtDispatch(env, 1_000)).toEqual({ deadline: 1_100, expired: false });
    expect(deadlineAtDispatch({}, 1_000)).toEqual({ deadline: undefined, expired: false });
    expect(deadlineAtDispatch({ timeoutMs: -5 }, 1_000)).toEqual({ deadline: undefined, expired: false });
  });

  it('the deserializer stamps the arrival (never serialized), so a handler started late sees the time lost', () => {
    const codec = JSONCodec();
    const packet = new ArrivalStampingDeserializer().deserialize(
      codec.encode({ pattern: 'x', id: '1', data: { traceId: 't', body: { a: 1 }, timeoutMs: 50 } }),
    ) as {
      data: { timeoutMs: number };
    };
    const receivedAt = receivedAtOf(packet.data);
    expect(typeof receivedAt).toBe('number');
    expect(JSON.stringify(packet.data)).toBe('{"traceId":"t","body":{"a":1},"timeoutMs":50}');
    expect(deadlineAtDispatch(packet.data, (receivedAt as number) + 49).expired).toBe(false);
    expect(deadlineAtDispatch(packet.data, (receivedAt as number) + 50)).toEqual({ deadline: (receivedAt as number) + 50, expired: true });
  });

  it('nested calls never wait longer than the request they serve has left', async () => {
    expect(cappedDeadlineMs(5_000, undefined, 0)).toBe(5_000);
    expect(cappedDeadlineMs(5_000, 1_300, 1_000)).toBe(300);
    expect(cappedDeadlineMs(200, 1_300, 1_000)).toBe(200);
    expect(cappedDeadlineMs(5_000, 1_000, 1_200)).toBeLessThanOrEqual(0);
    expect(currentRequestDeadline()).toBeUndefined();
    const seen = await withRequestDeadline(42, async () => {
      await new Promise((r) => setTimeout(r, 1));
      return currentRequestDeadline();
    });
    expect(seen).toBe(42);
    expect(currentRequestDeadline()).toBeUndefined();
  });
});
