import Fastify from 'fastify';
import { ConfigError } from '@coffer/observability';
import { fastifyTrustProxy, parseTrustProxy, type TrustProxy } from './trust-proxy';

/** The address Fastify gives a request from `remoteAddress` carrying `X-Forwarded-For: forwarded`. */
async function clientOf(trust: TrustProxy, remoteAddress: string, forwarded: string): Promise<string> {
  const app = Fastify({ trustProxy: fastifyTrustProxy(trust) });
  app.get('/', async (req) => ({ ip: req.ip }));
  const res = await app.inject({ method: 'GET', url: '/', remoteAddress, headers: { 'x-forwarded-for': forwarded } });
  await app.close();
  return res.json().ip;
}

describe('TRUST_PROXY as Fastify applies it', () => {
  it('by default no forwarding header is believed: the client is the socket address', async () => {
    expect(await clientOf(false, '198.51.100.7', `=cmd|' /C calc'!A0, 203.0.113.9`)).toBe('198.51.100.7');
  });

  it('a trusted proxy (CIDR) gives the address it saw; an untrusted sender does not', async () => {
    expect(await clientOf(['10.0.0.0/8'], '10.1.2.3', '=cmd|x, 203.0.113.9')).toBe('203.0.113.9');
    expect(await clientOf(['10.0.0.0/8'], '198.51.100.7', '203.0.113.9')).toBe('198.51.100.7');
    expect(await clientOf(['loopback', '172.16.0.0/255.240.0.0'], '172.20.0.1', '203.0.113.9')).toBe('203.0.113.9');
  });

  it('a hop count believes that many proxies', async () => {
    expect(await clientOf(1, '10.1.2.3', '203.0.113.9, 192.0.2.1')).toBe('192.0.2.1');
    expect(await clientOf(2, '10.1.2.3', '203.0.113.9, 192.0.2.1')).toBe('203.0.113.9');
  });
});

describe('parseTrustProxy (the value config.ts reads from TRUST_PROXY)', () => {
  it('believes no forwarding header when unset, empty or 0', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy(' , ')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
  });

  it('takes a hop count or a list of proxies', () => {
    expect(parseTrustProxy('3')).toBe(3);
    expect(parseTrustProxy('10.0.0.0/8, loopback')).toEqual(['10.0.0.0/8', 'loopback']);
  });

  it('refuses a bad value, naming TRUST_PROXY (a count with blanks around it, as envInt reads a number)', () => {
    expect(() => parseTrustProxy('21')).toThrow(new ConfigError('TRUST_PROXY must be an integer between 0 and 20, got "21"'));
    expect(() => parseTrustProxy(' 2 ')).toThrow(new ConfigError('TRUST_PROXY must be an integer between 0 and 20, got " 2 "'));
    expect(() => parseTrustProxy('proxy.internal')).toThrow(ConfigError);
    expect(() => parseTrustProxy('proxy.internal')).toThrow(/^TRUST_PROXY: a hop count \(0–20\) or a comma list of proxies: .*got "proxy.internal"$/);
  });
});
