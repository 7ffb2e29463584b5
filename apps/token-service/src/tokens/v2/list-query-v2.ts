import { FieldErrors, parsePageSize } from '@coffer/contracts';
import { Prisma } from '@coffer/db';
import { parseListFilter } from '../read/read-tokens.use-case';
import type { TokenListFilter } from '../token.repository';

/** A v2 page request: a size and an optional cursor; there are no page numbers (and no totals) in v2. */
export interface CursorWindow {
  size: number;
  start?: string;
}

/** The filters of GET /v2/tokens, in a fixed shape: the repository filter and the canonical form a cursor binds to. */
export interface V2ListFilter {
  filter: TokenListFilter;
  canonical: Record<string, unknown>;
}

const one = (v: unknown): unknown => (Array.isArray(v) ? v[v.length - 1] : v);

/** `size` 0–100 (default 20) and `start`; `page` belongs to v1 and is refused rather than ignored. */
export function parseCursorWindow(raw: { size?: unknown; start?: unknown; page?: unknown }, errors: FieldErrors, fromQuery: boolean): CursorWindow {
  if (raw.page !== undefined) errors.add('page', 'is not supported by v2 lists: pass pagination.next of the previous page as start');
  const size = fromQuery ? one(raw.size) : raw.size;
  // a null size (SDKs send it for "not set") is the default
  const window: CursorWindow = { size: parsePageSize(size === null ? undefined : size, errors, fromQuery ? 'query' : 'body') };
  const start = fromQuery ? one(raw.start) : raw.start;
  if (start !== undefined && start !== null) {
    if (typeof start !== 'string') errors.add('start', 'must be a string');
    else window.start = start;
  }
  return window;
}

/**
 * GET /v2/tokens filters, as the node SDK sends them: `type`, `container`, `fingerprint`, and `metadata` as one
 * JSON object (`?metadata={"customer":"c-42"}`; case-insensitive exact match, keys ANDed). The v1 forms
 * (`metadata.<key>=`, repeated `id` and `type`) work too. A container ending in `*` matches by prefix.
 */
export function parseV2ListFilter(query: Record<string, unknown>, errors: FieldErrors): V2ListFilter {
  const filter = parseListFilter(query);
  const metadata: Record<string, string> = { ...(filter.metadata ?? {}) };
  const json = one(query['metadata']);
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(json));
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      errors.add('metadata', 'must be a JSON object of strings, e.g. {"customer":"c-42"}');
    else
      for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
        if (v === null || v === undefined) continue;
        if (typeof v !== 'string') errors.add(`metadata.${k}`, 'must be a string');
        else if (k.includes('\u0000') || v.includes('\u0000')) errors.add('metadata', 'must not contain the NUL character (U+0000)');
        else if (!(k.toLowerCase() in metadata)) metadata[k.toLowerCase()] = v.toLowerCase();
      }
  }
  if (Object.keys(metadata).length) filter.metadata = metadata;
  else delete filter.metadata;

  const where: Prisma.Sql[] = [];
  const container = one(query['container']);
  let containerCanonical: string | undefined;
  if (container !== undefined) {
    const c = String(container).toLowerCase();
    containerCanonical = c;
    where.push(c.endsWith('*') ? Prisma.sql`starts_with(container, ${c.slice(0, -1)})` : Prisma.sql`container = ${c}`);
  }
  const fingerprint = one(query['fingerprint']);
  if (fingerprint !== undefined) where.push(Prisma.sql`fingerprint = ${String(fingerprint)}`);
  if (where.length) filter.where = Prisma.join(where, ' AND ');

  const sortedMetadata = Object.fromEntries(Object.entries(filter.metadata ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    filter,
    canonical: {
      ids: filter.ids ?? null,
      types: filter.types ?? null,
      metadata: sortedMetadata,
      container: containerCanonical ?? null,
      fingerprint: fingerprint === undefined ? null : String(fingerprint),
    },
  };
}
