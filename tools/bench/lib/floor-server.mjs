// The HTTP floor: a bare Fastify handler answering a token-sized JSON body, in its own process (as the gateway is)
// so its CPU is measured apart from the load generator. Prints its port on stdout.
import Fastify from 'fastify';

const body = {
  id: '3b4f9a3e-9c1b-4b3a-9f57-0c8e5f1d2a10',
  type: 'card_number',
  tenant_id: '6e0b0c8e-0f4f-4a8c-9d40-1f0b7e8e2b11',
  data: 'XXXXXXXXXXXX4242',
  fingerprint: 'AKCUXS83DokKo4pDRKSAy4d42t9i8dcP1X2jijwEBCQH',
  container: '/pci/high/',
  metadata: { customer: 'c-1' },
  created_at: '2026-11-24T00:00:00.000Z',
};
const app = Fastify({ logger: false });
app.get('/floor', async () => body);
app.listen({ port: 0, host: '127.0.0.1' }).then(() => process.stdout.write(`${app.server.address().port}\n`));
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
