// The proxy bench's reference forwarder, in its own process: the least any proxy can do — read a plain HTTP request,
// send it over a keep-alive HTTPS pool to the destination (argv: origin), answer with the destination's status and
// body. No authentication, policy, expressions, audit or metrics. Its throughput against the immediate destination
// is the ceiling of a one-hop Node proxy on this machine, measured in the same run as Coffer's (tools/bench/proxy.mjs).
// Tells its parent {port} over IPC.
import http from 'node:http';
import { Pool } from 'undici';

const pool = new Pool(process.argv[2], { connections: 64, pipelining: 1, keepAliveTimeout: 60_000 });
const server = http.createServer(async (req, res) => {
  try {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const answer = await pool.request({
      method: req.method,
      path: req.url,
      headers: { 'content-type': req.headers['content-type'] ?? 'application/octet-stream' },
      body: Buffer.concat(chunks),
    });
    const body = Buffer.from(await answer.body.arrayBuffer());
    res.writeHead(answer.statusCode, { 'content-type': answer.headers['content-type'] ?? 'application/octet-stream', 'content-length': body.length });
    res.end(body);
  } catch (err) {
    res.writeHead(502).end(String(err?.message ?? err));
  }
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('disconnect', () => process.exit(0));
