import { cappedDeadlineMs, currentRequestDeadline, deadlineAtDispatch, withRequestDeadline } from './request-deadline';

describe('request deadlines', () => {
  it('a request is expired at dispatch when its timeout, counted from arrival, has passed', () => {
    const env = { traceId: 't', body: {}, timeoutMs: 100 };
    expect(deadlineAtDispatch(env, 1_000, 1_000)).toEqual({ deadline: 1_100, expired: false });
    expect(deadlineAtDispatch(env, 1_000, 1_099)).toEqual({ deadline: 1_100, expired: false });
    expect(deadlineAtDispatch(env, 1_000, 1_100)).toEqual({ deadline: 1_100, expired: true });
    expect(deadlineAtDispatch({}, 1_000, 9_000)).toEqual({ deadline: undefined, expired: false });
    expect(deadlineAtDispatch({ timeoutMs: -5 }, 1_000, 9_000)).toEqual({ deadline: undefined, expired: false });
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
