// The events bench's webhook receiver, in its own process (as a receiver would be on its own machine): its CPU is
// measured apart and it never stalls the load generator's event loop. Answers 204 to every POST and stamps each
// event's arrival (arrival − event.timestamp). Talks to its parent over IPC: {port} once listening; on {ask: id}
// it answers {id, count, lags?} (lags only when asked with `lags: true`; `reset: true` empties them afterwards).
import http from 'node:http';

let lags = [];
let count = 0;
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const arrived = Date.now();
    try {
      lags.push(arrived - Date.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')).event.timestamp));
    } catch {
      /* not an event */
    }
    count++;
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => {
  if (m?.ask === undefined) return;
  process.send({ id: m.ask, count, lags: m.lags ? lags : undefined });
  if (m.reset) lags = [];
});
process.on('disconnect', () => process.exit(0));
