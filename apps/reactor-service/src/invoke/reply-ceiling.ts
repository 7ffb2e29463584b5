import { decideTokenAccess, lowerTransform, mayReveal, writeReplyTransform } from '@coffer/auth';
import { evaluateMask } from '@coffer/expression';
import type { Principal, Transform } from '@coffer/contracts';

type View = { id: string; containers?: string[]; data?: unknown; mask?: unknown };

/**
 * Invariant 1 for POST /reactors/{id}/react: tokens the formula's `tokenize` created as the Reactor's application
 * are shown to the caller no more revealed than the caller's own decision for each of them (reveal if it may reveal
 * the token, else its read transform, else redacted). `request` is the formula's `tokenize` value and `created`
 * what token-service returned for it: token requests (objects with `type` and `data`) became token views at the
 * same place, primitives became ids (which carry no data).
 */
export function capTokenizeReply(request: unknown, created: unknown, writer: Principal, viewer: Principal): unknown {
  if (request === null || typeof request !== 'object' || created === null || typeof created !== 'object') return created;
  if (Array.isArray(request)) {
    if (!Array.isArray(created)) return created;
    return created.map((c, i) => capTokenizeReply(request[i], c, writer, viewer));
  }
  const req = request as Record<string, unknown>;
  if ('type' in req && 'data' in req) return capView(created as View, writer, viewer);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(created as Record<string, unknown>)) out[k] = capTokenizeReply(req[k], v, writer, viewer);
  return out;
}

function capView(view: View, writer: Principal, viewer: Principal): View {
  const ref = { id: view.id, container: view.containers?.[0] ?? '' };
  const shown = writeReplyTransform(writer, 'token:create', ref);
  const allowed = lowerTransform(shown, viewerCeiling(viewer, ref));
  if (allowed === shown || !('data' in view)) return view;
  const capped = { ...view };
  delete capped.data;
  if (allowed === 'mask' && shown === 'reveal' && capped.mask !== undefined && capped.mask !== null) {
    const masked = evaluateMask(capped.mask, view.data);
    if (masked !== null && masked !== undefined) capped.data = masked;
  }
  return capped;
}

function viewerCeiling(viewer: Principal, ref: { id: string; container: string }): Transform {
  if (mayReveal(viewer, ref)) return 'reveal';
  const read = decideTokenAccess(viewer, 'token:read', ref);
  return read.allowed ? read.transform : 'redact';
}
