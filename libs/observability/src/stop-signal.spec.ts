import { MessageChannel } from 'node:worker_threads';
import { isStopRequest, onStopSignal } from './stop-signal';

const tick = () => new Promise((r) => setTimeout(r, 20));

describe('onStopSignal', () => {
  it('tells a stop request from any other message', () => {
    expect(isStopRequest({ type: 'stop', signal: 'SIGTERM' })).toBe(true);
    expect(isStopRequest({ type: 'stop', signal: 'SIGINT' })).toBe(true);
    expect(isStopRequest({ type: 'stop', signal: 'SIGKILL' })).toBe(false);
    expect(isStopRequest({ type: 'stop' })).toBe(false);
    expect(isStopRequest('stop')).toBe(false);
    expect(isStopRequest(null)).toBe(false);
  });

  it('as a thread of the service host, stops once on the host’s request and ignores anything else', async () => {
    // the host's end and the thread's end of a real message port, as Worker and parentPort are
    const { port1: host, port2: thread } = new MessageChannel();
    const calls: string[] = [];
    onStopSignal((signal) => calls.push(signal), thread);
    host.postMessage('stop');
    host.postMessage({ type: 'stop', signal: 'SIGHUP' });
    await tick();
    expect(calls).toEqual([]);
    host.postMessage({ type: 'stop', signal: 'SIGTERM' });
    host.postMessage({ type: 'stop', signal: 'SIGINT' });
    await tick();
    expect(calls).toEqual(['SIGTERM']);
    host.close();
  });

  it('as a process of its own, stops once on SIGTERM or SIGINT', () => {
    const before = { term: process.listenerCount('SIGTERM'), int: process.listenerCount('SIGINT') };
    const calls: string[] = [];
    onStopSignal((signal) => calls.push(signal), null);
    expect(process.listenerCount('SIGTERM')).toBe(before.term + 1);
    process.emit('SIGINT');
    process.emit('SIGTERM');
    expect(calls).toEqual(['SIGINT']);
    for (const listener of process.listeners('SIGTERM').slice(before.term)) process.off('SIGTERM', listener);
  });
});
