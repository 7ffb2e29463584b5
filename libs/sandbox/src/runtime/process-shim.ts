/**
 * Injected by the bundler wherever a bundled library names the free variable `process` (util@0.12 reads
 * NODE_DEBUG from its `env` when it loads and checks `process.noDeprecation`): a stand-in local to the bundle with an
 * empty environment. There is no `process` global in the isolate, and the formula never sees this object.
 */
export const process = {
  env: {} as Record<string, string | undefined>,
  noDeprecation: true,
  pid: 0,
  nextTick(fn: (...args: unknown[]) => void, ...args: unknown[]): void {
    void Promise.resolve().then(() => fn(...args));
  },
};
