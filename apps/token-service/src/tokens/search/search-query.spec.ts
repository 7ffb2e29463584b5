import { ProblemError } from '@coffer/contracts';
import { MAX_SEARCH_DEPTH, MAX_SEARCH_TERMS, compileSearch } from './search-query';

const ctx = { tenantId: '00000000-0000-4000-8000-000000000001', digest: (v: string) => `d(${v})` };

function refused(query: string): Record<string, string[]> {
  try {
    compileSearch(query, ctx);
  } catch (err) {
    expect(err).toBeInstanceOf(ProblemError);
    expect((err as ProblemError).problem.status).toBe(400);
    return (err as ProblemError).problem.errors ?? {};
  }
  throw new Error(`"${query}" was accepted`);
}

describe('compileSearch: size limits', () => {
  it(`refuses more than ${MAX_SEARCH_TERMS} terms, naming query`, () => {
    const terms = (n: number) => Array.from({ length: n }, (_, i) => `data:v${i}`).join(' AND ');
    expect(() => compileSearch(terms(MAX_SEARCH_TERMS), ctx)).not.toThrow();
    expect(refused(terms(MAX_SEARCH_TERMS + 1))).toHaveProperty('query');
  });

  it(`refuses nesting deeper than ${MAX_SEARCH_DEPTH}, by parentheses or NOT`, () => {
    const d = MAX_SEARCH_DEPTH;
    expect(() => compileSearch(`${'('.repeat(d)}id:a${')'.repeat(d)}`, ctx)).not.toThrow();
    expect(refused(`${'('.repeat(d + 1)}id:a${')'.repeat(d + 1)}`)).toHaveProperty('query');
    expect(refused(`${'NOT '.repeat(d + 1)}id:a`)).toHaveProperty('query');
  });

  it('refuses dates PostgreSQL cannot hold, and any outside the years 0001–9999', () => {
    for (const q of [
      'created_at:-271821-04-20T00:00:00.000Z',
      'created_at:+275760-09-14T00:00:01Z',
      'created_at:[* TO -271821-04-20T00:00:00Z]',
      'created_at:[+010000-01-01T00:00:00Z TO *]',
    ])
      expect(refused(q)).toHaveProperty('query');
    expect(() => compileSearch('created_at:[0001-01-01T00:00:00Z TO 9999-12-31T23:59:59Z]', ctx)).not.toThrow();
  });
});

describe('compileSearch: data terms', () => {
  it('looks up AND-ed data terms together: one index lookup, every (distinct) digest present', () => {
    const sql = compileSearch('data:a AND data:b data:a', ctx);
    expect(sql.text.match(/token_search_indexes/g)).toHaveLength(1);
    expect(sql.text).not.toMatch(/EXISTS/);
    expect(sql.text).toMatch(/GROUP BY token_id HAVING count\(\*\) = \$\d/);
    expect(sql.values).toEqual([ctx.tenantId, ['d(a)', 'd(b)'], 2]);
  });

  it('looks up OR-ed data terms together (any digest), and keeps other terms and NOT apart', () => {
    const or = compileSearch('data:a OR data:b OR id:x', ctx);
    expect(or.text.match(/token_search_indexes/g)).toHaveLength(1);
    expect(or.text).not.toMatch(/HAVING/);
    expect(or.text).toMatch(/ OR id = /);
    const not = compileSearch('data:a AND NOT data:b', ctx);
    expect(not.text.match(/token_search_indexes/g)).toHaveLength(2);
    expect(not.text).toMatch(/NOT tokens\.id IN/);
  });
});
