// The proxy's topology floor (tools/bench/proxy.mjs, "bus forwarder"): answers the skeleton edge's NATS requests as
// proxy-service answers the gateway's, by sending the request on over a keep-alive HTTPS pool to the destination
// (SKELETON_DESTINATION) and replying with its status and body; as proxy-service's, the replies of one event-loop
// iteration are published together (one socket write). No authentication, policy, expressions or audit. Prints
// "ready" on stdout.
import { JSONCodec } from 'nats';
import { Pool } from 'undici';
import { atIterationEnd, connectAs } from './skeleton-bus.mjs';

const pool = new Pool(process.env.SKELETON_DESTINATION, { connections: 64, pipelining: 1, keepAliveTimeout: 60_000 });
const nc = await connectAs('_INBOX.proxy-service');
const json = JSONCodec();
const publish = atIterationEnd();
const sub = nc.subscribe('proxy.skeleton.forward', { queue: 'skeleton' });
(async () => {
  for await (const msg of sub) {
    const { path, contentType, body } = json.decode(msg.data);
    pool
      .request({ method: 'POST', path, headers: { 'content-type': contentType ?? 'application/octet-stream' }, body })
      .then(async (answer) => ({ status: answer.statusCode, contentType: answer.headers['content-type'], body: await answer.body.text() }))
      .catch((err) => ({ status: 502, body: String(err?.message ?? err) }))
      .then((reply) => publish(() => msg.respond(json.encode(reply))));
  }
})();
await nc.flush();
process.stdout.write('ready\n');
process.on('SIGTERM', () =>
  nc
    .drain()
    .then(() => pool.close())
    .then(() => process.exit(0)),
);
