import { isDeepStrictEqual } from 'node:util';
import { FieldErrors } from '@coffer/contracts';

/** camelCase spellings clients of the mirrored service send (its JS SDK passes the react body through as written). */
const ALIASES = { callbackUrl: 'callback_url', timeoutMs: 'timeout_ms' } as const;

/**
 * The react body with `callbackUrl` / `timeoutMs` read as `callback_url` / `timeout_ms`: never ignored (an
 * ignored callbackUrl would silently run the call synchronously). Both spellings with different values are a 400
 * naming both. Anything that is not an object is passed on for the reactor service to refuse.
 */
export function normalizeReactBody(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  const errors = new FieldErrors();
  for (const [alias, field] of Object.entries(ALIASES)) {
    if (!Object.prototype.hasOwnProperty.call(out, alias)) continue;
    const value = out[alias];
    delete out[alias];
    if (Object.prototype.hasOwnProperty.call(out, field) && !isDeepStrictEqual(out[field], value)) {
      const message = `${alias} and ${field} are the same field: give one, or the same value in both`;
      errors.add(field, message).add(alias, message);
    } else out[field] = value;
  }
  errors.throwIfAny();
  return out;
}
