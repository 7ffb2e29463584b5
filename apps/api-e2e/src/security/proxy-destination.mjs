// A proxy destination for the noisy-neighbour suite, in a process of its own so that serving the attack's large
// answers never costs the jest process (which times the victim) any CPU: https://localhost:<port> with the run's test
// certificate. GET /small answers a few bytes; /cards?bytes=N about N bytes of JSON with a card number every 60 bytes;
// /blob?bytes=N N bytes of application/octet-stream. The port is sent to the parent once listening.
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';

const dir = process.env.COFFER_E2E_PROXY_TLS_DIR;
const cache = new Map();
function cards(bytes) {
  const items = [];
  for (let size = 0; size < bytes; size += 60) items.push({ n: '4242424242424242', name: 'x'.repeat(20) });
  return Buffer.from(JSON.stringify(items));
}
const server = https.createServer({ key: fs.readFileSync(path.join(dir, 'server.key')), cert: fs.readFileSync(path.join(dir, 'server.pem')) }, (req, res) => {
  req.resume();
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'https://localhost');
    const bytes = Math.min(Number(url.searchParams.get('bytes') ?? '0') || 0, 8 * 1024 * 1024);
    const key = `${url.pathname}:${bytes}`;
    if (url.pathname === '/cards') {
      if (!cache.has(key)) cache.set(key, cards(bytes));
      res.setHeader('content-type', 'application/json');
      return res.end(cache.get(key));
    }
    if (url.pathname === '/blob') {
      if (!cache.has(key)) cache.set(key, Buffer.alloc(bytes, 0x5a));
      res.setHeader('content-type', 'application/octet-stream');
      return res.end(cache.get(key));
    }
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('disconnect', () => process.exit(0));
