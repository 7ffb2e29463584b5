import { allowPrivateCallbacksFromEnv, allowPrivateEgressFromEnv, isSwitchOn } from './egress-config';

describe('the egress switches', () => {
  it('are off unless set: unset, empty, false, 0, no, or anything else', () => {
    for (const value of [undefined, '', 'false', '0', 'no', 'on', 'maybe']) expect(isSwitchOn(value)).toBe(false);
    expect(allowPrivateEgressFromEnv('ALLOW_PRIVATE_EGRESS', {})).toBe(false);
    expect(allowPrivateCallbacksFromEnv({})).toBe(false);
  });

  it('are on with true, 1 or yes, in any case (as envBool reads them)', () => {
    for (const value of ['true', 'TRUE', '1', 'yes', 'Yes']) expect(isSwitchOn(value)).toBe(true);
    expect(allowPrivateEgressFromEnv('ALLOW_PRIVATE_EGRESS', { ALLOW_PRIVATE_EGRESS: 'true' })).toBe(true);
    expect(allowPrivateCallbacksFromEnv({ ALLOW_PRIVATE_CALLBACKS: '1' })).toBe(true);
  });

  it('each reads its own variable, ALLOW_PRIVATE_EGRESS by default, from the process environment unless given one', () => {
    expect(allowPrivateEgressFromEnv('PROXY_ALLOW_PRIVATE_EGRESS', { ALLOW_PRIVATE_EGRESS: 'true' })).toBe(false);
    expect(allowPrivateCallbacksFromEnv({ ALLOW_PRIVATE_EGRESS: 'true' })).toBe(false);
    const saved = process.env['ALLOW_PRIVATE_EGRESS'];
    try {
      process.env['ALLOW_PRIVATE_EGRESS'] = 'yes';
      expect(allowPrivateEgressFromEnv()).toBe(true);
      delete process.env['ALLOW_PRIVATE_EGRESS'];
      expect(allowPrivateEgressFromEnv()).toBe(false);
    } finally {
      if (saved !== undefined) process.env['ALLOW_PRIVATE_EGRESS'] = saved;
    }
  });
});
