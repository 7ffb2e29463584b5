/**
 * The runtime every fresh isolate context runs before the formula (bundled by tools/bundle-runtime.mjs into one
 * script; see README.md, "The in-isolate runtime"). It builds the Node 16 surface formula code expects and evaluates
 * to the `entry` function the worker calls:
 *
 *   entry('invoke', wrapperFn, reqJson, hostSync, hostLog, optsJson) -> Promise<'R<result json>' | 'E<error json>'>
 *   entry('timer', id)                                               -> 'ok' | 'gone' | 'X' (uncaught exception)
 *   entry('settle', callId, ok, json, bytes)                          -> resolves a pending fetch/svc call
 *
 * Nothing of Node is reachable from here. This code is as untrusted as the formula once the formula runs (it can
 * rewrite any built-in): every limit that matters is enforced again by the worker and the pool.
 */
import { settle } from './calls';
import { removeEngineScheduledWork } from './engine-work';
import { installGlobals } from './globals';
import { invoke } from './invoke';
import { fireTimer } from './timers';

removeEngineScheduledWork();
installGlobals();

export function entry(op: unknown, a?: unknown, b?: unknown, c?: unknown, d?: unknown, e?: unknown): unknown {
  if (op === 'invoke') return invoke(a, b, c, d, e);
  if (op === 'timer') return fireTimer(a);
  if (op === 'settle') return settle(a, b, c, d);
  return 'unknown';
}
