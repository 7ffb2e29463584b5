import Fastify from 'fastify';
import { fastifyTrustProxy, type TrustProxy } from './trust-proxy';

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
