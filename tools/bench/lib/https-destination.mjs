// The proxy bench's destination, in its own process (as a third party would be on its own machine): an HTTPS
// server with a certificate of the bench's test CA (argv: cert, key) that answers every request with a small JSON
// body. Tells its parent {port} over IPC once listening.
import fs from 'node:fs';
import https from 'node:https';

const [cert, key] = process.argv.slice(2);
const answer = Buffer.from(JSON.stringify({ id: 'ch_1', status: 'succeeded' }));
const server = https.createServer({ cert: fs.readFileSync(cert), key: fs.readFileSync(key) }, (req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length }).end(answer));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('disconnect', () => process.exit(0));
