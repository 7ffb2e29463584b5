import { isProblem, type Problem, type RpcEnvelope } from '@coffer/contracts';

/**
 * Coffer's RPC wire format on NATS, spoken by RpcClient and CofferNatsServer and nothing else:
 *
 * - a request is the RpcEnvelope as JSON, published on the operation's subject (the subject is the route, so the
 *   payload carries no pattern, and the reply subject is NATS's own: no correlation id either);
 * - a reply is `{"ok": <value>}` or `{"problem": <Problem>}` (`{}`: ok, with no value: a handler returning nothing);
 * - a reply whose value has bytes as its top-level `body` (a proxied answer, up to a few MiB) is a binary frame when
 *   the request said it reads them (`bytes` in the envelope): a NUL byte (no JSON text starts with one), the length
 *   of the JSON part (4 bytes, big-endian), `{"ok": <value without body>}`, then the body's bytes as they are —
 *   never base64 inside JSON, which cost a third more bytes and a JSON string of that size on both sides. A caller
 *   that did not say so gets the body as base64 text (what every reply carried before).
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

const FRAME = 0;

function bytesBody(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const body = (value as { body?: unknown }).body;
  return body instanceof Uint8Array ? body : undefined;
}

/** `binary`: the caller reads binary frames (its envelope's `bytes`). */
export function encodeReply(value: unknown, binary = false): Uint8Array {
  const bytes = bytesBody(value);
  if (!bytes) return encoder.encode(JSON.stringify({ ok: value }));
  const rest = { ...(value as object), body: undefined };
  if (!binary)
    return encoder.encode(JSON.stringify({ ok: { ...rest, body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') } }));
  const json = encoder.encode(JSON.stringify({ ok: rest }));
  const frame = new Uint8Array(5 + json.length + bytes.length);
  frame[0] = FRAME;
  new DataView(frame.buffer).setUint32(1, json.length);
  frame.set(json, 5);
  frame.set(bytes, 5 + json.length);
  return frame;
}

export function encodeProblemReply(problem: Problem): Uint8Array {
  return encoder.encode(JSON.stringify({ problem }));
}

/** The reply, or a 502 problem when the bytes are not one (the responder is not a Coffer service). */
export function decodeReply<T>(data: Uint8Array): RpcReply<T> {
  let value: unknown;
  try {
    value = data[0] === FRAME ? decodeFrame(data) : JSON.parse(decoder.decode(data));
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

/** A binary frame: the JSON part's value with `body` set to a Buffer over the frame's remaining bytes (no copy). */
function decodeFrame(data: Uint8Array): unknown {
  const length = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(1);
  const value = JSON.parse(decoder.decode(data.subarray(5, 5 + length))) as { ok?: Record<string, unknown> };
  if (typeof value?.ok !== 'object' || value.ok === null) return undefined;
  value.ok['body'] = Buffer.from(data.buffer, data.byteOffset + 5 + length, data.byteLength - 5 - length);
  return value;
}
