import { Prisma } from '@coffer/db';
import { JSON_LIMIT_MESSAGES, badRequest } from '@coffer/contracts';

/**
 * The search language of conventions §5: `field:value` terms joined by AND, OR, NOT, parentheses, quoted phrases;
 * adjacent terms mean AND. A small recursive-descent grammar compiled to parameterised SQL over indexed columns.
 * `data:` terms compare blind-index digests only; nothing is decrypted to search.
 */
type Tok = { kind: 'lparen' | 'rparen' | 'and' | 'or' | 'not' } | { kind: 'term'; field: string; value: string; range?: [string, string] };

const TERM = /^([A-Za-z_][\w.-]*):("(?:[^"\\]|\\.)*"|\[[^\]]*\]|[^\s()]+)/;

export const MAX_QUERY_LENGTH = 4096;

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
  /** blind-index digest of a `data:` value */
  digest(value: string): string;
}

export function compileSearch(query: string, ctx: CompileContext): Prisma.Sql {
  if (typeof query !== 'string' || !query.trim()) throw badRequest('The search query is invalid', { query: ['is required'] });
  if (query.length > MAX_QUERY_LENGTH) throw badRequest('The search query is invalid', { query: [`must be at most ${MAX_QUERY_LENGTH} characters`] });
  // PostgreSQL refuses text holding U+0000 (ids, metadata, fingerprints compared below): a 400, never a 500
  if (query.includes('\u0000')) throw badRequest('The search query is invalid', { query: [JSON_LIMIT_MESSAGES.nul] });
  const toks = lex(query);
  let i = 0;
  let depth = 0;
  const peek = () => toks[i];
  const fail = (msg: string): never => {
    throw badRequest('The search query is invalid', { query: [msg] });
  };

  const or = (): Prisma.Sql => {
    const parts = [and()];
    while (peek()?.kind === 'or') {
      i++;
      parts.push(and());
    }
    return parts.length === 1 ? parts[0] : Prisma.sql`(${Prisma.join(parts, ' OR ')})`;
  };
  const and = (): Prisma.Sql => {
    const parts = [not()];
    for (;;) {
      const t = peek();
      if (t?.kind === 'and') {
        i++;
        parts.push(not());
      } else if (t && (t.kind === 'term' || t.kind === 'not' || t.kind === 'lparen')) parts.push(not());
      else break;
    }
    return parts.length === 1 ? parts[0] : Prisma.sql`(${Prisma.join(parts, ' AND ')})`;
  };
  const not = (): Prisma.Sql => {
    if (peek()?.kind === 'not') {
      i++;
      return Prisma.sql`NOT ${not()}`;
    }
    return primary();
  };
  const primary = (): Prisma.Sql => {
    const t = toks[i++];
    if (!t) return fail('ends too early');
    if (t.kind === 'lparen') {
      if (++depth > 32) fail('is nested too deeply');
      const inner = or();
      if (toks[i++]?.kind !== 'rparen') fail('has an unclosed parenthesis');
      depth--;
      return Prisma.sql`(${inner})`;
    }
    if (t.kind !== 'term') return fail(`unexpected "${t.kind.toUpperCase()}"`);
    return term(t.field, t.value, t.range);
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
    if (field === 'data')
      return Prisma.sql`EXISTS (SELECT 1 FROM token_search_indexes s WHERE s.tenant_id = tokens.tenant_id AND s.token_id = tokens.id AND s.digest = ${ctx.digest(value)})`;
    if (field === 'created_at') {
      const bound = (v: string) => {
        if (v === '*') return null;
        const t = Date.parse(v);
        if (Number.isNaN(t)) fail('created_at takes a date (ISO 8601) or *');
        return new Date(t);
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

  const sql = or();
  if (i < toks.length) fail('has unexpected text after the end');
  return sql;
}
