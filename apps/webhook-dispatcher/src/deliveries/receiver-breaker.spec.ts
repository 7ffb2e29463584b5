import { ReceiverBreakers, receiverUnavailable } from './receiver-breaker';

describe('ReceiverBreakers', () => {
  let now = 0;
  const breakers = () => new ReceiverBreakers(3, 30_000, () => now);
  beforeEach(() => (now = 1_000_000));

  it('opens after the threshold of consecutive failures, for the cool-down only', () => {
    const b = breakers();
    b.record('a', true);
    b.record('a', true);
    expect(b.admit('a', 0)).toBe('run');
    b.record('a', true);
    expect(b.admit('a', 0)).toBe('defer');
    expect(b.retryInMs('a')).toBe(30_000);
    expect(b.admit('b', 0)).toBe('run');
    now += 30_000;
    expect(b.retryInMs('a')).toBe(0);
    // half-open: one probe at a time
    expect(b.admit('a', 0)).toBe('run');
    expect(b.admit('a', 1)).toBe('wait');
  });

  it('a failed probe opens it again; an answer closes it', () => {
    const b = breakers();
    for (let i = 0; i < 3; i++) b.record('a', true);
    now += 30_000;
    b.record('a', true);
    expect(b.admit('a', 0)).toBe('defer');
    now += 30_000;
    b.record('a', false);
    expect(b.admit('a', 5)).toBe('run');
    expect(b.retryInMs('a')).toBe(0);
  });

  it('an answer between failures resets the count', () => {
    const b = breakers();
    b.record('a', true);
    b.record('a', true);
    b.record('a', false);
    b.record('a', true);
    b.record('a', true);
    expect(b.admit('a', 0)).toBe('run');
  });

  it('counts no answer, 408, 429 and 5xx as the receiver being unavailable; other answers not', () => {
    expect([undefined, 408, 429, 500, 503].map(receiverUnavailable)).toEqual([true, true, true, true, true]);
    expect([200, 204, 301, 400, 404, 410].map(receiverUnavailable)).toEqual([false, false, false, false, false, false]);
  });
});
