import type { Cursor } from '@coffer/contracts';

/** List filters of the reactor resources; paging is libs/contracts `parseListWindow`. */

export function many(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

/**
 * docs/api-reference.md: `name` is a case-insensitive substring match where `*` matches any run of characters.
 * Returns an ILIKE pattern (backslash escapes), or undefined when there is no filter.
 */
export function namePattern(query: Record<string, unknown>): string | undefined {
  const name = many(query['name'])[0];
  if (name === undefined || name === '') return undefined;
  const escaped = name.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
  return `%${escaped}%`;
}

/** Where a row sits in the (created_at desc, id desc) order cursor pages follow. */
export function positionOf(row: { id: string; createdAt: Date }): Cursor {
  return { createdAt: row.createdAt.toISOString(), id: row.id };
}
