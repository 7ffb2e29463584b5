import { decideTokenAccess, lowerTransform, mayReveal, writeReplyTransform } from '@coffer/auth';
import { ExpressionBudget, evaluateMask } from '@coffer/expression';
import { TOKENIZE_RENDERED, type Principal, type Transform } from '@coffer/contracts';

/** token-service's default read budget (EXPRESSION_READ_BUDGET_MS), for the masks a reply evaluates again here. */
const REPLAY_EXPRESSION_BUDGET_MS = 100;

type View = { id: string; containers?: string[]; data?: unknown; mask?: unknown };

/**
 * A token view of a react reply's `tokens`, as the reply showed it: kept (inside the encrypted idempotency record or
 * job outcome, never elsewhere) so that a later rendering of the same reply can be capped by the rules in force then.
 */
export interface ShownView {
  /** where the view sits in `tokens`: object keys and array indexes from its root ([] = `tokens` itself) */
  path: Array<string | number>;
  id: string;
  container: string;
  /** the transform the reply showed it at */
  transform: Transform;
  /**
   * true: the recorded view holds data at `transform` exactly. Records made before deduplicated tokens were capped
   * lack it: their view may hold data above `transform` (a deduplicated token kept at its writer's read level) and
   * is lowered as if it were revealed.
   */
  exact?: boolean;
}

/**
 * Invariant 1 for POST /reactors/{id}/react: tokens the formula's `tokenize` wrote as the Reactor's application
 * are shown to the caller no more revealed than the caller's own decision for each of them (reveal if it may reveal
 * the token, else its read transform, else redacted), and no more than the application's write reply (never above
 * mask unless it may reveal the token) — also a token that deduplication answered with: token-service renders that
 * one at the writer's *read* level, which may be above its write reply. `request` is the formula's `tokenize` value
 * and `created` what token-service returned for it (asked with `rendered`: each view carries TOKENIZE_RENDERED, the
 * transform it was rendered at; a view without it is taken as revealed): token requests (objects with `type` and
 * `data`) became token views at the same place, primitives became ids (which carry no data).
 *
 * `viewer` null: the caller was the writer itself (a reactor without an application): its own write reply caps the
 * views. Every view's place and transform is pushed to `shown` when given.
 */
export function capTokenizeReply(
  request: unknown,
  created: unknown,
  writer: Principal,
  viewer: Principal | null,
  shown?: ShownView[],
  path: Array<string | number> = [],
  budget: ExpressionBudget = new ExpressionBudget(REPLAY_EXPRESSION_BUDGET_MS),
): unknown {
  if (request === null || typeof request !== 'object' || created === null || typeof created !== 'object') return created;
  if (Array.isArray(request)) {
    if (!Array.isArray(created)) return created;
    return created.map((c, i) => capTokenizeReply(request[i], c, writer, viewer, shown, [...path, i], budget));
  }
  const req = request as Record<string, unknown>;
  if ('type' in req && 'data' in req) return capView(created as View, writer, viewer, shown, path, budget);
  // no prototype: a payload key named `__proto__` is a member of the reply like any other
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(created as Record<string, unknown>)) out[k] = capTokenizeReply(req[k], v, writer, viewer, shown, [...path, k], budget);
  return out;
}

function capView(
  given: View,
  writer: Principal,
  viewer: Principal | null,
  shown: ShownView[] | undefined,
  path: Array<string | number>,
  budget: ExpressionBudget,
): View {
  const { view, rendered } = takeRendered(given);
  const ref = refOf(view);
  const ceiling = viewer ? replyCeiling(writer, viewer, false)(ref) : writeReplyTransform(writer, 'token:create', ref);
  const allowed = lowerTransform(rendered, ceiling);
  shown?.push({ path, id: ref.id, container: ref.container, transform: allowed, exact: true });
  return lowerView(view, rendered, allowed, budget);
}

/** The view without TOKENIZE_RENDERED, and the transform it names ('reveal' when missing or not a transform: fail closed). */
function takeRendered(given: View): { view: View; rendered: Transform } {
  if (given === null || typeof given !== 'object' || !(TOKENIZE_RENDERED in given)) return { view: given, rendered: 'reveal' };
  const { [TOKENIZE_RENDERED]: mark, ...view } = given as View & Record<string, unknown>;
  const rendered: Transform = mark === 'redact' || mark === 'mask' ? mark : 'reveal';
  return { view: view as View, rendered };
}

/**
 * The ceiling a react reply's tokens have for `viewer` now: `writer` is the principal that created them (the
 * Reactor's application; null when it no longer exists, which shows nothing), or the viewer itself when the reactor
 * had no application.
 */
export function replyCeiling(writer: Principal | null, viewer: Principal, viewerWrote: boolean): (ref: { id: string; container: string }) => Transform {
  if (viewerWrote) return (ref) => writeReplyTransform(viewer, 'token:create', ref);
  return (ref) => (writer ? lowerTransform(writeReplyTransform(writer, 'token:create', ref), viewerCeiling(viewer, ref)) : 'redact');
}

/**
 * A react reply's `tokens` rendered again (an idempotent replay, a stored asynchronous result): every view recorded
 * in `shown` is lowered to the ceiling the rules give now, never raised above what it was shown at. Reveal → mask
 * evaluates the view's own mask over the revealed data; → redact drops `data`. A view recorded without `exact`
 * below reveal is lowered as if revealed (its mask evaluated again: its data may be a deduplicated token's above
 * what was recorded). Views that are not in `shown` (a record without it) lose their `data`. Returns a copy;
 * `tokens` is not changed.
 */
export function recapTokens(tokens: unknown, shown: ShownView[] | undefined, ceiling: (ref: { id: string; container: string }) => Transform): unknown {
  if (tokens === null || typeof tokens !== 'object') return tokens;
  // one expression budget for every mask of the reply, as token-service gives one read: what does not fit is redacted
  const budget = new ExpressionBudget(REPLAY_EXPRESSION_BUDGET_MS);
  const copy = structuredClone(tokens) as unknown;
  if (shown === undefined) return redactViews(copy);
  let root = copy;
  for (const s of shown) {
    const view = at(root, s.path);
    if (!view) continue;
    // another token than recorded at that place (a damaged record): fail closed
    const same = view.id === s.id;
    const allowed = same ? lowerTransform(s.transform, ceiling({ id: s.id, container: s.container })) : 'redact';
    const lowered = lowerView(view, same && s.exact === true ? s.transform : 'reveal', allowed, budget);
    if (s.path.length === 0) root = lowered;
    else (nodeAt(root, s.path.slice(0, -1)) as Record<string | number, unknown>)[s.path[s.path.length - 1]] = lowered;
  }
  return root;
}

/** Lowers a view shown at `shown` to `allowed` (a copy when anything changes). */
function lowerView(view: View, shown: Transform, allowed: Transform, budget: ExpressionBudget): View {
  if (allowed === shown || !('data' in view)) return view;
  const capped = { ...view };
  delete capped.data;
  if (allowed === 'mask' && shown === 'reveal' && capped.mask !== undefined && capped.mask !== null) {
    let masked: unknown;
    try {
      masked = evaluateMask(capped.mask, view.data, budget);
    } catch {
      masked = undefined; // redacted, as token-service does with a mask that no longer evaluates or fits the budget
    }
    if (masked !== null && masked !== undefined) capped.data = masked;
  }
  return capped;
}

function nodeAt(root: unknown, path: Array<string | number>): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

/** The token view at `path`, null when there is none. */
function at(root: unknown, path: Array<string | number>): View | null {
  const node = nodeAt(root, path);
  return node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as View) : null;
}

/** Without a record of what was shown: every object that looks like a token view loses its data. */
function redactViews(node: unknown): unknown {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map(redactViews);
  const obj = node as Record<string, unknown>;
  if (typeof obj['id'] === 'string' && Array.isArray(obj['containers'])) {
    const copy = { ...obj };
    delete copy['data'];
    return copy;
  }
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, redactViews(v)]));
}

function refOf(view: View): { id: string; container: string } {
  return { id: view.id, container: view.containers?.[0] ?? '' };
}

function viewerCeiling(viewer: Principal, ref: { id: string; container: string }): Transform {
  if (mayReveal(viewer, ref)) return 'reveal';
  const read = decideTokenAccess(viewer, 'token:read', ref);
  return read.allowed ? read.transform : 'redact';
}
