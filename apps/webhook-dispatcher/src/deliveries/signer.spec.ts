import { signatureHeader, signingKeys } from './signer';
import { RetrySchedule, parseRetryAfter, parseSchedule } from './retry-schedule';

describe('signatureHeader (Standard Webhooks)', () => {
  it('matches the specification test vector', () => {
    expect(signatureHeader(['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('signs alike with keys imported once for a batch', () => {
    const secrets = ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='];
    const keys = signingKeys(secrets);
    expect(signatureHeader(keys, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      signatureHeader(secrets, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    );
    expect(signatureHeader(keys.slice(0, 1), 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('signs with every active secret, space-separated', () => {
    const header = signatureHeader(['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='], 'id', 1, '{}');
    expect(header.split(' ')).toHaveLength(2);
    for (const sig of header.split(' ')) expect(sig).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });
});

describe('RetrySchedule', () => {
  it('defaults to 10 attempts over about 2.5 hours', () => {
    const s = new RetrySchedule(parseSchedule('5s,30s,2m,5m,10m,20m,30m,40m,45m'));
    expect(s.maxAttempts).toBe(10);
    const total = s.delays.reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeGreaterThan(2.4);
    expect(total / 3_600_000).toBeLessThan(2.7);
  });

  it('jitters ±20%, gives up after the last attempt, honours Retry-After', () => {
    const s = new RetrySchedule([1000, 2000]);
    expect(s.nextDelay(1, undefined, () => 0)).toBe(800);
    expect(s.nextDelay(1, undefined, () => 1)).toBe(1200);
    expect(s.nextDelay(2, undefined, () => 0.5)).toBe(2000);
    expect(s.nextDelay(3)).toBeNull();
    expect(s.nextDelay(1, 30_000, () => 0.5)).toBe(30_000);
    expect(s.nextDelay(1, 10 * 3_600_000, () => 0.5)).toBe(3_600_000);
  });

  it('parses schedules and Retry-After', () => {
    expect(parseSchedule('200ms, 1s,2m,1h')).toEqual([200, 1000, 120_000, 3_600_000]);
    expect(() => parseSchedule('soon')).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThan(50_000);
    expect(parseRetryAfter('nonsense')).toBeUndefined();
  });
});
