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
});
