import { ReconnectBackoff } from './reconnect-backoff';

describe('ReconnectBackoff', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** the pause before each of `failures` consecutive attempts */
  function pauses(backoff: ReconnectBackoff, reconnect: jest.Mock, failures: number): number[] {
    const waited: number[] = [];
    for (let i = 0; i < failures; i++) {
      const calls = reconnect.mock.calls.length;
      backoff.later();
      let ms = 0;
      while (reconnect.mock.calls.length === calls) {
        jest.advanceTimersByTime(50);
        ms += 50;
      }
      waited.push(ms);
    }
    return waited;
  }

  it('waits 250 ms, then twice as long after each failure, at most 30 s', () => {
    const reconnect = jest.fn();
    const backoff = new ReconnectBackoff(reconnect);
    expect(pauses(backoff, reconnect, 10)).toEqual([250, 500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('starts over from 250 ms once connected', () => {
    const reconnect = jest.fn();
    const backoff = new ReconnectBackoff(reconnect);
    pauses(backoff, reconnect, 3);
    backoff.connected();
    expect(pauses(backoff, reconnect, 2)).toEqual([250, 500]);
  });

  it('has one attempt pending at a time, and none after stop', () => {
    const reconnect = jest.fn();
    const backoff = new ReconnectBackoff(reconnect);
    backoff.later();
    backoff.later();
    jest.advanceTimersByTime(60_000);
    expect(reconnect).toHaveBeenCalledTimes(1);
    backoff.later();
    backoff.stop();
    backoff.later();
    jest.advanceTimersByTime(60_000);
    expect(reconnect).toHaveBeenCalledTimes(1);
  });
});
