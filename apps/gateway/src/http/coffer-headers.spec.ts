import { idempotencyKeyFrom } from './coffer-headers';

const NAMES = ['svc-idempotency-key', 'bt-idempotency-key'];

describe('idempotencyKeyFrom', () => {
  it('takes the key from SVC-IDEMPOTENCY-KEY, an alias or Idempotency-Key', () => {
    expect(idempotencyKeyFrom({ 'svc-idempotency-key': 'a' }, NAMES)).toEqual({ key: 'a' });
    expect(idempotencyKeyFrom({ 'bt-idempotency-key': 'b' }, NAMES)).toEqual({ key: 'b' });
    expect(idempotencyKeyFrom({ 'idempotency-key': 'c' }, NAMES)).toEqual({ key: 'c' });
    expect(idempotencyKeyFrom({}, NAMES)).toEqual({});
  });

  it('several headers with the same key are that key', () => {
    expect(idempotencyKeyFrom({ 'svc-idempotency-key': 'k', 'idempotency-key': 'k', 'bt-idempotency-key': 'k' }, NAMES)).toEqual({ key: 'k' });
  });

  it('different keys are a conflict naming the headers, never a silent pick', () => {
    expect(idempotencyKeyFrom({ 'svc-idempotency-key': 'a', 'idempotency-key': 'b' }, NAMES)).toEqual({
      conflicting: ['svc-idempotency-key', 'idempotency-key'],
    });
    expect(idempotencyKeyFrom({ 'svc-idempotency-key': 'a', 'bt-idempotency-key': 'b' }, NAMES)).toEqual({
      conflicting: ['svc-idempotency-key', 'bt-idempotency-key'],
    });
    // an empty value is no key (as before for SVC-IDEMPOTENCY-KEY)
    expect(idempotencyKeyFrom({ 'idempotency-key': '', 'svc-idempotency-key': 'a' }, NAMES)).toEqual({ key: 'a' });
  });

  it('leaves Idempotency-Key alone when told to (the proxy forwards it to the destination)', () => {
    expect(idempotencyKeyFrom({ 'idempotency-key': 'for-the-destination' }, NAMES, false)).toEqual({});
    expect(idempotencyKeyFrom({ 'idempotency-key': 'x', 'svc-idempotency-key': 'k' }, NAMES, false)).toEqual({ key: 'k' });
  });
});
