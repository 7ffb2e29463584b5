import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { ProblemError } from '@coffer/contracts';
import { EgressFetchError } from '@coffer/egress';
import { Forwarder, toProblem } from './forwarder';

/**
 * The address check with the operator's defaults (no ALLOW_PRIVATE_EGRESS, no exempt hosts): a DNS name that
 * resolves to a private address — `localhost`, resolved for real — is refused before any connection, with the same
 * words as a name that does not resolve.
 */
describe('Forwarder under the default egress policy', () => {
  let server: Server;
  let port = 0;
  let hits = 0;
  const forwarder = new Forwarder();

  beforeAll(async () => {
    delete process.env['ALLOW_PRIVATE_EGRESS'];
    delete process.env['EGRESS_ALLOW_HOSTS'];
    server = createServer((_req, res) => {
      hits++;
      res.end('reached');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await forwarder.onModuleDestroy();
    await new Promise((r) => server.close(r));
  });

  const refusal = async (url: string) => {
    try {
      await forwarder.send(new URL(url), 'GET', [], Buffer.alloc(0));
    } catch (err) {
      return (err as ProblemError).problem;
    }
    throw new Error('sent');
  };

  it('refuses a name that resolves to a loopback address, connecting to nothing', async () => {
    const problem = await refusal(`https://localhost:${port}/x`);
    expect(problem.status).toBe(400);
    expect(problem.errors).toEqual({ 'BT-PROXY-URL': ['localhost is not reachable (not found, or not a public address)'] });
    expect(hits).toBe(0);
  });

  it('says the same for a name that does not resolve', async () => {
    const problem = await refusal('https://no-such-host.invalid/x');
    expect(problem.errors).toEqual({ 'BT-PROXY-URL': ['no-such-host.invalid is not reachable (not found, or not a public address)'] });
  });
});

describe('toProblem', () => {
  it.each(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ETIMEDOUT', undefined])('a socket error (%p) is a 502 that does not name it', (code) => {
    const problem = toProblem(new EgressFetchError('request to https://api.example.com/x failed', 'system', code), 'api.example.com').problem;
    expect(problem).toEqual({ title: 'Bad Gateway', status: 502, detail: 'api.example.com could not be reached' });
  });
});
