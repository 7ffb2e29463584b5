import type { NatsConnection } from 'nats';
import { coalesceWrites } from './write-coalescing';

/** The shape of nats.js's protocol handler: publishes fill `outbound`, flushPending writes it to the socket. */
function fakeConnection() {
  const writes: string[][] = [];
  const protocol = {
    outbound: [] as string[],
    closed: false,
    flushPending() {
      if (this.outbound.length) writes.push(this.outbound.splice(0));
    },
    async close() {
      this.closed = true;
    },
    publish(msg: string) {
      this.outbound.push(msg);
      this.flushPending();
    },
  };
  return { nc: { protocol } as unknown as NatsConnection, protocol, writes };
}

const nextIteration = () => new Promise((r) => setImmediate(r));

describe('coalesceWrites', () => {
  it('writes the messages published during one event-loop iteration together, in order', async () => {
    const { nc, protocol, writes } = fakeConnection();
    expect(coalesceWrites(nc)).toBe(true);
    protocol.publish('a');
    await Promise.resolve();
    protocol.publish('b');
    queueMicrotask(() => protocol.publish('c'));
    expect(writes).toEqual([]);
    await nextIteration();
    expect(writes).toEqual([['a', 'b', 'c']]);
    protocol.publish('d');
    await nextIteration();
    expect(writes).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('flushes what is pending before the connection closes', async () => {
    const { nc, protocol, writes } = fakeConnection();
    coalesceWrites(nc);
    protocol.publish('last reply');
    await protocol.close();
    expect(writes).toEqual([['last reply']]);
    expect(protocol.closed).toBe(true);
  });

  it('is applied once per connection', async () => {
    const { nc, protocol, writes } = fakeConnection();
    coalesceWrites(nc);
    coalesceWrites(nc);
    protocol.publish('a');
    await nextIteration();
    expect(writes).toEqual([['a']]);
  });

  it('leaves a connection of another shape alone', () => {
    expect(coalesceWrites({} as NatsConnection)).toBe(false);
    expect(coalesceWrites({ protocol: {} } as unknown as NatsConnection)).toBe(false);
  });
});
