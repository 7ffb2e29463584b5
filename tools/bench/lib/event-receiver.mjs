// The events bench's webhook receiver, in its own process (as a receiver would be on its own machine): its CPU is
// measured apart and it never stalls the load generator's event loop. It stands for a receiver on another machine,
// so it is kept as cheap as an HTTP/1.1 endpoint can be: a bare keep-alive parser on node:net (Content-Length bodies,
// what the dispatcher sends), not node:http's request and response objects, which cost several times more per
// request than the dispatcher's own work to send it. Answers 204 to every request and stamps each event's arrival
// (arrival − event.timestamp).
// Talks to its parent over IPC: {port} once listening; on {ask: id} it answers {id, count, lags?} (lags only when
// asked with `lags: true`; `reset: true` empties them afterwards).
import net from 'node:net';

const NO_CONTENT = Buffer.from('HTTP/1.1 204 No Content\r\nKeep-Alive: timeout=60\r\n\r\n');
const BAD_REQUEST = Buffer.from('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

let lags = [];
let count = 0;

function received(body) {
  const arrived = Date.now();
  try {
    lags.push(arrived - Date.parse(JSON.parse(body.toString('utf8')).event.timestamp));
  } catch {
    /* not an event */
  }
  count++;
}

const server = net.createServer((socket) => {
  socket.setNoDelay(true);
  let buf = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    const replies = [];
    for (;;) {
      const end = buf.indexOf(HEAD_END);
      if (end === -1) break;
      const head = buf.toString('latin1', 0, end).toLowerCase();
      if (head.includes('\r\ntransfer-encoding:')) {
        socket.end(BAD_REQUEST); // the dispatcher always sends Content-Length
        return;
      }
      const cl = /\r\ncontent-length:\s*(\d+)/.exec(head);
      const length = cl ? Number(cl[1]) : 0;
      if (buf.length < end + 4 + length) break;
      received(buf.subarray(end + 4, end + 4 + length));
      replies.push(NO_CONTENT);
      buf = buf.subarray(end + 4 + length);
    }
    if (replies.length) socket.write(replies.length === 1 ? replies[0] : Buffer.concat(replies));
  });
  socket.on('error', () => undefined);
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => {
  if (m?.ask === undefined) return;
  process.send({ id: m.ask, count, lags: m.lags ? lags : undefined });
  if (m.reset) lags = [];
});
process.on('disconnect', () => process.exit(0));
