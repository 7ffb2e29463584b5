import { AsyncTask, SimpleIntervalJob } from 'toad-scheduler';

/**
 * A database maintenance task run on a schedule (sweeps of expired rows, retention pruning), through toad-scheduler:
 * `run` every `intervalMs`, never two scheduled runs at once (one still going when the next is due skips it), a
 * failure handed to `onError`, and the timer unref'd (it never keeps a process alive). The owner calls start() when
 * its module starts and stop() when it shuts down.
 */
export function periodicWork(
  name: string,
  intervalMs: number,
  run: () => Promise<unknown>,
  onError: (err: Error) => void = () => undefined,
): SimpleIntervalJob {
  const task = new AsyncTask(name, () => run().then(() => undefined), onError);
  return new SimpleIntervalJob({ milliseconds: intervalMs }, task, { id: name, preventOverrun: true, unref: true });
}
