import { parentPort } from 'node:worker_threads';
import { runJob, type TransformJob } from './transform-steps';

/**
 * The transform worker thread's entry (built next to main.js as transform-worker.js): one job at a time, answered
 * with its id. An error that is not a transform's own (a bug) is answered as such, never kills the thread.
 */
parentPort?.on('message', ({ id, job }: { id: number; job: TransformJob }) => {
  let result;
  try {
    result = runJob(job);
  } catch (err) {
    result = { ok: false as const, kind: 'internal' as const, message: err instanceof Error ? err.name : 'error' };
  }
  parentPort?.postMessage({ id, result });
});
