import { Prisma } from '@coffer/db';
import { JSON_LIMIT_MESSAGES, badRequest } from '@coffer/contracts';
import { storableDate } from '../../storable-date';

/**
 * The search language of docs/tokens.md: `field:value` terms joined by AND, OR, NOT, parentheses, quoted phrases;
 * adjacent terms mean AND. A small recursive-descent grammar compiled to parameterised SQL over indexed columns.
 * `data:` terms compare blind-index digests only; nothing is decrypted to search.
 */
type Tok = { kind: 'lparen' | 'rparen' | 'and' | 'or' | 'not' } | { kind: 'term'; field: string; value: string; range?: [string, string] };

const TERM = /^([A-Za-z_][\w.-]*):("(?:[^"\\]|\\.)*"|\[[^\]]*\]|[^\s()]+)/;

export const MAX_QUERY_LENGTH = 4096;
/**
 * Terms per query. Real queries hold a handful (a person or an SDK filter: a few fields, a date range); 64 leaves
 * room for generated OR-lists of ids or values while keeping the statement's size and planning time small and fixed.
 */
export const MAX_SEARCH_TERMS = 64;
/** Nesting of parentheses and NOT: any boolean formula of a few terms fits in 8 levels; deeper only costs the parser. */
export const MAX_SEARCH_DEPTH = 8;

function unquote(v: string): string {
  return v.startsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v;
}

export function lex(query: string): Tok[] {
  const toks: Tok[] = [];
  const trimmed = query.trim();
  const lead = query.length - query.trimStart().length;
  let s = trimmed;
  while (s.length) {
    if (s[0] === '(') toks.push({ kind: 'lparen' });
    else if (s[0] === ')') toks.push({ kind: 'rparen' });
    else {
      const word = /^(AND|OR|NOT)(?=\s|\(|$)/.exec(s);
      if (word) {
        toks.push({ kind: word[1].toLowerCase() as 'and' | 'or' | 'not' });
        s = s.slice(word[1].length).trimStart();
        continue;
      }
      const m = TERM.exec(s);
      // the position, never an excerpt: a query may hold the very values searched for
      if (!m) throw badRequest('The search query is invalid', { query: [`expected field:value at character ${lead + trimmed.length - s.length + 1}`] });
      const raw = m[2];
      if (raw.startsWith('[')) {
        const r = /^\[\s*(\S+)\s+TO\s+(\S+)\s*\]$/.exec(raw);
        if (!r) throw badRequest('The search query is invalid', { query: [`a range is written [from TO to]`] });
        toks.push({ kind: 'term', field: m[1], value: raw, range: [unquote(r[1]), unquote(r[2])] });
      } else toks.push({ kind: 'term', field: m[1], value: unquote(raw) });
      s = s.slice(m[0].length).trimStart();
      continue;
    }
    s = s.slice(1).trimStart();
  }
  return toks;
}

export interface CompileContext {
  /** the tenant searched: `data:` terms look up its blind indexes directly (one index range scan per group) */
  tenantId: string;
  /** blind-index digest of a `data:` value */
  digest(value: string): string;
}

/** A compiled piece: SQL, or a `data:` digest not yet turned into SQL (siblings' digests are looked up together). */
type Node = { sql: Prisma.Sql } | { digest: string };

export function compileSearch(query: string, ctx: CompileContext): Prisma.Sql {
  if (typeof query !== 'string' || !query.trim()) throw badRequest('The search query is invalid', { query: ['is required'] });
  if (query.length > MAX_QUERY_LENGTH) throw badRequest('The search query is invalid', { query: [`must be at most ${MAX_QUERY_LENGTH} characters`] });
  // PostgreSQL refuses text holding U+0000 (ids, metadata, fingerprints compared below): a 400, never a 500
  if (query.includes('\u0000')) throw badRequest('The search query is invalid', { query: [JSON_LIMIT_MESSAGES.nul] });
  const fail = (msg: string): never => {
    throw badRequest('The search query is invalid', { query: [msg] });
  };
  const toks = lex(query);
  if (toks.filter((t) => t.kind === 'term').length > MAX_SEARCH_TERMS) fail(`must have at most ${MAX_SEARCH_TERMS} terms`);
  let i = 0;
  let depth = 0;
  const peek = () => toks[i];
  const deeper = () => {
    if (++depth > MAX_SEARCH_DEPTH) fail(`is nested too deeply (at most ${MAX_SEARCH_DEPTH} levels of parentheses and NOT)`);
  };

  /**
   * `data:` terms become `tokens.id IN (one lookup in token_search_indexes)` rather than one correlated EXISTS each:
   * the AND-ed ones of a group are found together (every digest present: count = n, the index holds each digest of a
   * token once), the OR-ed ones too (any digest present). Each lookup is one range scan of the primary key
   * (tenant_id, digest, token_id), however many terms, and works the same under NOT.
   */
  const lookup = (digests: string[], all: boolean): Prisma.Sql => {
    const unique = [...new Set(digests)];
    const where = Prisma.sql`tenant_id = ${ctx.tenantId}::uuid AND digest = ANY(${unique}::text[])`;
    if (!all || unique.length === 1) return Prisma.sql`tokens.id IN (SELECT token_id FROM token_search_indexes WHERE ${where})`;
    return Prisma.sql`tokens.id IN (SELECT token_id FROM token_search_indexes WHERE ${where} GROUP BY token_id HAVING count(*) = ${unique.length})`;
  };
  const toSql = (n: Node): Prisma.Sql => ('sql' in n ? n.sql : lookup([n.digest], true));
  const group = (parts: Node[], all: boolean): Node => {
    if (parts.length === 1) return parts[0];
    const digests = parts.flatMap((p) => ('digest' in p ? [p.digest] : []));
    const rest = parts.flatMap((p) => ('sql' in p ? [p.sql] : []));
    const joined = [...(digests.length ? [lookup(digests, all)] : []), ...rest];
    return { sql: joined.length === 1 ? joined[0] : Prisma.sql`(${Prisma.join(joined, all ? ' AND ' : ' OR ')})` };
  };

  const or = (): Node => {
    const parts = [and()];
    while (peek()?.kind === 'or') {
      i++;
      parts.push(and());
    }
    return group(parts, false);
  };
  const and = (): Node => {
    const parts = [not()];
    for (;;) {
      const t = peek();
      if (t?.kind === 'and') {
        i++;
        parts.push(not());
      } else if (t && (t.kind === 'term' || t.kind === 'not' || t.kind === 'lparen')) parts.push(not());
      else break;
    }
    return group(parts, true);
  };
  const not = (): Node => {
    if (peek()?.kind === 'not') {
      i++;
      deeper();
      const inner = toSql(not());
      depth--;
      return { sql: Prisma.sql`NOT ${inner}` };
    }
    return primary();
  };
  const primary = (): Node => {
    const t = toks[i++];
    if (!t) return fail('ends too early');
    if (t.kind === 'lparen') {
      deeper();
      const inner = or();
      if (toks[i++]?.kind !== 'rparen') fail('has an unclosed parenthesis');
      depth--;
      return 'digest' in inner ? inner : { sql: Prisma.sql`(${inner.sql})` };
    }
    if (t.kind !== 'term') return fail(`unexpected "${t.kind.toUpperCase()}"`);
    if (t.field === 'data') return { digest: ctx.digest(t.value) };
    return { sql: term(t.field, t.value, t.range) };
  };
  const term = (field: string, value: string, range?: [string, string]): Prisma.Sql => {
    if (field === 'id') return Prisma.sql`id = ${value}`;
    if (field === 'type') return Prisma.sql`type = ${value}`;
    if (field === 'fingerprint') return Prisma.sql`fingerprint = ${value}`;
    if (field === 'container') {
      const v = value.toLowerCase();
      return v.endsWith('*') ? Prisma.sql`starts_with(container, ${v.slice(0, -1)})` : Prisma.sql`container = ${v}`;
    }
    if (field.startsWith('metadata.') && field.length > 9)
      return Prisma.sql`metadata_search @> ${JSON.stringify({ [field.slice(9).toLowerCase()]: value.toLowerCase() })}::jsonb`;
    if (field === 'created_at') {
      const bound = (v: string) => {
        if (v === '*') return null;
        // a date PostgreSQL cannot hold would be an error there: refused here, like any other bad date
        return storableDate(v) ?? fail('created_at takes an ISO 8601 date-time between the years 0001 and 9999, or *');
      };
      if (!range) {
        const d = bound(value);
        return d ? Prisma.sql`created_at = ${d}` : Prisma.sql`true`;
      }
      const [from, to] = [bound(range[0]), bound(range[1])];
      const parts = [Prisma.sql`true`];
      if (from) parts.push(Prisma.sql`created_at >= ${from}`);
      if (to) parts.push(Prisma.sql`created_at <= ${to}`);
      return Prisma.sql`(${Prisma.join(parts, ' AND ')})`;
    }
    return fail(`"${field}" is not a searchable field`);
  };

  const sql = toSql(or());
  if (i < toks.length) fail('has unexpected text after the end');
  return sql;
}
