import { isProblem, type Problem, type RpcEnvelope } from '@coffer/contracts';

/**
 * Coffer's RPC wire format on NATS, spoken by RpcClient and CofferNatsServer and nothing else:
 *
 * - a request is the RpcEnvelope as JSON, published on the operation's subject (the subject is the route, so the
 *   payload carries no pattern, and the reply subject is NATS's own: no correlation id either);
 * - a reply is `{"ok": <value>}` or `{"problem": <Problem>}` (`{}`: ok, with no value: a handler returning nothing).
 *
 * Both sides are in this repository, so the format is ours to version: a change ships on a new subject version
 * (`….v<n+1>`), as any contract change does.
 */
export type RpcReply<T = unknown> = { ok: T } | { problem: Problem };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeRequest(envelope: RpcEnvelope): Uint8Array {
  return encoder.encode(JSON.stringify(envelope));
}

/** The envelope of a request, or undefined when the bytes are not a JSON object (a malformed request gets a 400). */
export function decodeRequest(data: Uint8Array): RpcEnvelope | undefined {
  try {
    const value: unknown = JSON.parse(decoder.decode(data));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as RpcEnvelope) : undefined;
  } catch {
    return undefined;
  }
}

export function encodeReply(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify({ ok: value }));
}

export function encodeProblemReply(problem: Problem): Uint8Array {
  return encoder.encode(JSON.stringify({ problem }));
}

/** The reply, or a 502 problem when the bytes are not one (the responder is not a Coffer service). */
export function decodeReply<T>(data: Uint8Array): RpcReply<T> {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(data));
  } catch {
    value = undefined;
  }
  if (typeof value === 'object' && value !== null) {
    if ('problem' in value) {
      if (isProblem((value as { problem: unknown }).problem)) return value as RpcReply<T>;
    } else if (!Array.isArray(value)) return { ok: (value as { ok?: T }).ok as T };
  }
  return { problem: { title: 'Bad Gateway', status: 502, detail: 'The reply is not a Coffer RPC reply' } };
}
