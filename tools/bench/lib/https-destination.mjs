// The proxy bench's destination, in its own process (as a third party would be on its own machine): an HTTPS
// server with a certificate of the bench's test CA (argv: cert, key, delay ms) that answers every request with a
// small JSON body, after `delay` ms (a payment processor's own time; 0: at once). Tells its parent {port} over IPC.
import fs from 'node:fs';
import https from 'node:https';

const [cert, key, delay = '0'] = process.argv.slice(2);
const DELAY_MS = Number(delay);
const answer = Buffer.from(JSON.stringify({ id: 'ch_1', status: 'succeeded' }));
const server = https.createServer({ cert: fs.readFileSync(cert), key: fs.readFileSync(key) }, (req, res) => {
  req.resume();
  const send = () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length }).end(answer);
  req.on('end', () => (DELAY_MS > 0 ? setTimeout(send, DELAY_MS) : send()));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('disconnect', () => process.exit(0));
