import { acceptedCallbackUrl, callbackUrlRule } from './callback-url';
import { EgressPolicy } from './egress-policy';

const resolver = async (host: string) => ({ 'public.test': ['8.8.8.8'], 'private.test': ['10.0.0.5'] })[host] ?? [];

describe('callback URLs', () => {
  it('in production: https to a public address only', async () => {
    const policy = EgressPolicy.callbacks(false, { resolver });
    expect(callbackUrlRule(policy)).toBe('must be an https URL to a public address');
    await expect(acceptedCallbackUrl(policy, 'https://public.test/hook')).resolves.toBe('https://public.test/hook');
    await expect(acceptedCallbackUrl(policy, 'https://PUBLIC.test')).resolves.toBe('https://public.test/');
    for (const refused of ['http://public.test/hook', 'https://private.test/hook', 'https://unknown.test/', 'https://127.0.0.1/', 'not a url'])
      await expect(acceptedCallbackUrl(policy, refused)).resolves.toBeUndefined();
  });

  it('with ALLOW_PRIVATE_CALLBACKS: http too, and private addresses, but the host must still resolve', async () => {
    const policy = EgressPolicy.callbacks(true, { resolver });
    expect(callbackUrlRule(policy)).toBe('must be an http(s) URL whose host resolves');
    await expect(acceptedCallbackUrl(policy, 'http://private.test:8080/hook')).resolves.toBe('http://private.test:8080/hook');
    await expect(acceptedCallbackUrl(policy, 'http://unknown.test/')).resolves.toBeUndefined();
  });
});
