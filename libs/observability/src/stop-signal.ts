import { isMainThread, parentPort, type MessagePort } from 'node:worker_threads';

/** What the service host (tools/dev/service-host.mjs) posts to a service running as one of its threads. */
export interface StopRequest {
  type: 'stop';
  signal: 'SIGTERM' | 'SIGINT';
}

export function isStopRequest(message: unknown): message is StopRequest {
  const m = message as Partial<StopRequest> | null;
  return typeof m === 'object' && m !== null && m.type === 'stop' && (m.signal === 'SIGTERM' || m.signal === 'SIGINT');
}

/**
 * Calls `stop` once when the service is asked to stop. A process of its own is asked by SIGTERM or SIGINT; a
 * service that runs as a worker thread of the service host (`npm start`'s default) never sees a signal — signals
 * reach only the process's main thread — so the host forwards them as a {@link StopRequest} message.
 */
export function onStopSignal(stop: (signal: string) => void, hostPort: MessagePort | null = isMainThread ? null : parentPort): void {
  let asked = false;
  const once = (signal: string) => {
    if (asked) return;
    asked = true;
    stop(signal);
  };
  if (!hostPort) {
    process.once('SIGTERM', () => once('SIGTERM'));
    process.once('SIGINT', () => once('SIGINT'));
    return;
  }
  const port = hostPort;
  port.on('message', (message: unknown) => {
    if (isStopRequest(message)) once(message.signal);
  });
  // listening must not keep the thread alive by itself, as a signal handler keeps no process alive
  port.unref();
}
