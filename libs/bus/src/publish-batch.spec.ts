import { Events } from 'nats';
import { PublishBatch } from './publish-batch';

describe('PublishBatch', () => {
  it('sends what one event-loop iteration queued together at its end, in order', async () => {
    const batch = new PublishBatch();
    const sent: string[] = [];
    batch.add(() => sent.push('a'));
    await Promise.resolve();
    batch.add(() => sent.push('b'));
    expect(sent).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual(['a', 'b']);
    batch.add(() => sent.push('c'));
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual(['a', 'b', 'c']);
  });

  it('flush sends at once and leaves nothing for the end of the iteration', async () => {
    const batch = new PublishBatch();
    const sent: string[] = [];
    batch.add(() => sent.push('a'));
    batch.flush();
    expect(sent).toEqual(['a']);
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual(['a']);
  });

  it('a send that throws does not stop the others', () => {
    const batch = new PublishBatch();
    const sent: string[] = [];
    batch.add(() => {
      throw new Error('connection closed');
    });
    batch.add(() => sent.push('b'));
    batch.flush();
    expect(sent).toEqual(['b']);
  });

  it('following a connection, holds the sends while it is down and makes them, in order, once it has reconnected', async () => {
    // the connection's status events, as nats.js yields them
    const events: Array<{ type: string }> = [];
    let wake: () => void = () => undefined;
    const nc = {
      status: async function* () {
        for (;;) {
          while (events.length) yield events.shift() as { type: string; data: string };
          await new Promise<void>((r) => (wake = r));
        }
      },
    };
    const tell = async (type: string) => {
      events.push({ type });
      wake();
      await new Promise((r) => setImmediate(r));
    };
    const batch = new PublishBatch().followConnection(nc as never);
    const sent: string[] = [];
    const iteration = () => new Promise((r) => setImmediate(r));
    await tell(Events.Disconnect);
    batch.add(() => sent.push('a'));
    batch.add(() => sent.push('b'));
    await iteration();
    await iteration();
    expect(sent).toEqual([]);
    await tell(Events.Reconnect);
    await iteration();
    expect(sent).toEqual(['a', 'b']);
    batch.add(() => sent.push('c'));
    await iteration();
    expect(sent).toEqual(['a', 'b', 'c']);
  });
});
