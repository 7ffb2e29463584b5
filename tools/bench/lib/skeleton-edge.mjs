// The topology floor's edge (lib/skeleton.mjs): a bare Fastify server that hands each request over one NATS request
// to the store (tokens) or the forwarder (POST /proxy/*), as the gateway hands them to token-service and
// proxy-service, and answers with the reply; as the gateway's, the requests of one event-loop iteration are published
// together (one socket write). Under /coalesced, they share one NATS request. No authentication, validation, rate
// limit or metrics. Prints its port on stdout.
import Fastify from 'fastify';
import { JSONCodec } from 'nats';
import { atIterationEnd, connectAs } from './skeleton-bus.mjs';

const nc = await connectAs('_INBOX.gateway');
const json = JSONCodec();
const publish = atIterationEnd();
/** One NATS request, published with the others of this event-loop iteration. */
const busRequest = (subject, payload) =>
  new Promise((resolve, reject) => publish(() => nc.request(subject, json.encode(payload), { timeout: 5000 }).then(resolve, reject)));
const call = async (subject, payload, reply) => {
  const msg = await busRequest(subject, payload);
  const answer = json.decode(msg.data);
  return reply.code(answer.status).send(answer.body);
};
/**
 * The same calls coalesced: what the requests of one event-loop iteration send to `subject` goes in one NATS request
 * (an array), answered by one reply (an array in the same order) — how far sharing a bus message between API
 * requests would move the floor.
 */
const coalesced = (subject) => {
  let waiting = [];
  const flush = async () => {
    const batch = waiting;
    waiting = [];
    try {
      const msg = await nc.request(subject, json.encode(batch.map((w) => w.payload)), { timeout: 5000 });
      json.decode(msg.data).forEach((answer, i) => batch[i].resolve(answer));
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  };
  return (payload, reply) =>
    new Promise((resolve, reject) => {
      if (waiting.push({ payload, resolve, reject }) === 1) setImmediate(flush);
    }).then((answer) => reply.code(answer.status).send(answer.body));
};
const createCoalesced = coalesced('token.skeleton.create-many');
const readCoalesced = coalesced('token.skeleton.read-many');
const app = Fastify({ logger: false });
app.post('/tokens', (request, reply) => call('token.skeleton.create', request.body, reply));
app.get('/tokens/:id', (request, reply) => call('token.skeleton.read', { id: request.params.id }, reply));
app.post('/coalesced/tokens', (request, reply) => createCoalesced(request.body, reply));
app.get('/coalesced/tokens/:id', (request, reply) => readCoalesced({ id: request.params.id }, reply));
// the proxy's floor (skeleton-forwarder.mjs): the body as it came, text, sent on by the forwarder to its destination
app.register(async (scope) => {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  scope.post('/proxy/*', async (request, reply) => {
    const forward = { path: `/${request.params['*']}`, contentType: request.headers['content-type'], body: request.body };
    const msg = await busRequest('proxy.skeleton.forward', forward);
    const answer = json.decode(msg.data);
    return reply
      .code(answer.status)
      .header('content-type', answer.contentType ?? 'application/octet-stream')
      .send(answer.body);
  });
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${app.server.address().port}\n`);
process.on('SIGTERM', () =>
  app
    .close()
    .then(() => nc.close())
    .then(() => process.exit(0)),
);
