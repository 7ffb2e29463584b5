// A loopback TCP proxy that the fault suite puts between the services and PostgreSQL / NATS, so it can add latency
// and cut connections without touching the real servers. Pass-through until told otherwise.
import net from 'node:net';

export class TcpProxy {
  /** @param {{ name: string, targetPort: number, targetHost?: string }} opts */
  constructor({ name, targetPort, targetHost = '127.0.0.1' }) {
    this.name = name;
    this.target = { port: targetPort, host: targetHost };
    /** added to every chunk in both directions (order is kept: chunks are delayed, not reordered) */
    this.latencyMs = 0;
    /** refuse new connections (closed at once) while true */
    this.refusing = false;
    this.pairs = new Set();
    this.stats = { connections: 0, dropped: 0 };
  }

  /** Listens on a free loopback port; resolves with it. */
  async listen() {
    this.server = net.createServer((client) => this.accept(client));
    await new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', resolve);
    });
    this.port = this.server.address().port;
    return this.port;
  }

  accept(client) {
    if (this.refusing) return client.destroy();
    this.stats.connections++;
    const upstream = net.connect(this.target);
    const pair = { client, upstream };
    this.pairs.add(pair);
    const close = () => {
      if (!this.pairs.delete(pair)) return;
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      s.setNoDelay(true);
      s.on('error', close);
      s.on('close', close);
    }
    this.pipe(client, upstream);
    this.pipe(upstream, client);
  }

  /** Forwards `from` to `to`, holding each chunk `latencyMs` (chained, so order is preserved). */
  pipe(from, to) {
    let queue = Promise.resolve();
    from.on('data', (chunk) => {
      const delay = this.latencyMs;
      if (delay <= 0) {
        if (!to.destroyed) to.write(chunk);
        return;
      }
      const due = Date.now() + delay;
      queue = queue
        .then(() => new Promise((r) => setTimeout(r, Math.max(0, due - Date.now()))))
        .then(() => {
          if (!to.destroyed) to.write(chunk);
        });
    });
  }

  /** Resets every open connection (both sides see the socket die, as when a network path or a server fails). */
  dropAll() {
    const n = this.pairs.size;
    for (const pair of [...this.pairs]) {
      this.pairs.delete(pair);
      pair.client.resetAndDestroy?.() ?? pair.client.destroy();
      pair.upstream.destroy();
    }
    this.stats.dropped += n;
    return n;
  }

  close() {
    this.dropAll();
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
