import { forbidden } from '@coffer/contracts';
import { detokenizationExpressionsOf } from '@coffer/expression';
import { payloadOf, readBody } from './request-body';

/**
 * The detokenization expressions a caller wrote: in its header values and its body (read by its content type, as
 * the detokenizer reads it). A pre-configured proxy's request transforms run before detokenization, and whoever may
 * edit the proxy (`proxy:update`) writes them: what they produce is detokenized only where each of its expressions is
 * one of these, so a proxy's configuration can move or drop a caller's expressions but never add one — a caller is
 * never made to detokenize what it did not ask for (docs/proxy.md#detokenization). A malformed expression is left to
 * the detokenizer's scan (the caller's 400 if it is still there after the transforms).
 */
export function ownExpressions(headers: [string, string][], body: Buffer, contentType: string | undefined): ReadonlySet<string> {
  const shape = readBody(body, contentType);
  const values: unknown[] = headers.filter(([, v]) => v.includes('{{')).map(([, v]) => v);
  if (shape.kind !== 'opaque') values.push(payloadOf(shape));
  const own = new Set<string>();
  for (const value of values) {
    try {
      for (const e of detokenizationExpressionsOf(value)) own.add(e);
    } catch {
      // malformed: see above
    }
  }
  return own;
}

/** Refuses a payload about to be detokenized that holds an expression the caller did not write. */
export function onlyOwnExpressions(payload: unknown, own: ReadonlySet<string>): void {
  if (detokenizationExpressionsOf(payload).some((e) => !own.has(e)))
    throw forbidden("The proxy's request transforms added a detokenization expression: only the caller's own expressions are detokenized");
}
