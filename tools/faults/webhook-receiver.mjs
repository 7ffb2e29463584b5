// The loopback endpoint asynchronous reactor results are delivered to. It records every delivery, and refuses the
// first attempt of every `failEvery`-th webhook-id with a 500, so redelivery (same webhook-id) is exercised too.
import http from 'node:http';

export class WebhookReceiver {
  constructor({ failEvery = 5 } = {}) {
    this.failEvery = failEvery;
    /** @type {Array<{ id: string, body: string, at: number, answered: number }>} */
    this.deliveries = [];
    this.seen = new Set();
  }

  async start() {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const id = String(req.headers['webhook-id'] ?? '');
        const first = !this.seen.has(id);
        this.seen.add(id);
        const refuse = first && this.failEvery > 0 && this.seen.size % this.failEvery === 0;
        const answered = refuse ? 500 : 204;
        this.deliveries.push({ id, body, at: Date.now(), answered });
        res.writeHead(answered).end();
      });
    });
    await new Promise((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${this.server.address().port}/hook`;
    return this.url;
  }

  /** Distinct webhook-ids that were accepted (2xx) at least once, with the body of that delivery. */
  accepted() {
    const byId = new Map();
    for (const d of this.deliveries) if (d.answered < 300 && !byId.has(d.id)) byId.set(d.id, d);
    return byId;
  }

  close() {
    return new Promise((r) => this.server.close(() => r()));
  }
}
