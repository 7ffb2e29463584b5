import { useCallback, useEffect, useState } from 'react';
import { ApiError, type Problem } from './problem';

export type Load<T> = { state: 'loading' } | { state: 'error'; problem: Problem } | { state: 'ready'; data: T };

/** Runs `fetcher` on mount and whenever `deps` change; `reload` runs it again. */
export function useLoad<T>(fetcher: () => Promise<T>, deps: unknown[]): [Load<T>, () => void] {
  const [load, setLoad] = useState<Load<T>>({ state: 'loading' });
  const [n, setN] = useState(0);
  const reload = useCallback(() => setN((x) => x + 1), []);
  useEffect(() => {
    let live = true;
    setLoad((l) => (l.state === 'ready' ? l : { state: 'loading' }));
    fetcher().then(
      (data) => live && setLoad({ state: 'ready', data }),
      (err: unknown) =>
        live && setLoad({ state: 'error', problem: err instanceof ApiError ? err.problem : { title: 'Error', status: 0, detail: String(err) } }),
    );
    return () => {
      live = false;
    };
  }, [...deps, n]);
  return [load, reload];
}

/** Runs an action, keeping its busy state and problem for the form that started it. */
export function useAction(): { busy: boolean; problem: Problem | null; run: <T>(fn: () => Promise<T>) => Promise<T | undefined>; clear: () => void } {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const run = useCallback(async <T>(fn: () => Promise<T>) => {
    setBusy(true);
    setProblem(null);
    try {
      return await fn();
    } catch (err) {
      setProblem(err instanceof ApiError ? err.problem : { title: 'Error', status: 0, detail: String(err) });
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, problem, run, clear: () => setProblem(null) };
}
