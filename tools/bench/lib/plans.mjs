// Query plans at the scale points (issue 35, goal 5): EXPLAIN (ANALYZE, BUFFERS) of the statements token-service
// runs for the list and search first pages, so a figure that grows with the tenant can be read against its plan.
// PostgreSQL here has no pg_stat_statements preloaded (and it would not keep parameters), so the harness runs the
// same SQL itself: the statements below are written out as apps/token-service/src/tokens/token.repository.ts forms
// them (where(), page(): the rows with their total in one statement, keyset(): the v2 pages) with the scale scenarios' parameters —
// metadata customer c-7, the bench's application has no access rules, so its access predicate is `true`. The v1 list
// with a metadata filter and the v1 search `metadata.customer:c-7` compile to the same statements, as do the v2 list
// and search. When the repository's statements change, change these with them. Unnamed statements with their
// parameters, as SqlPool.withinDeadline runs them: custom plans.

const COLUMNS = `tenant_id, id, type, data_ciphertext, data_key_id, mask, fingerprint, fingerprint_expression,
  container, metadata, search_indexes, dedup_key, expires_at, created_by, created_at, modified_by, modified_at`;
const WHERE = `tenant_id = $1::uuid AND (expires_at IS NULL OR expires_at > now()) AND true AND metadata_search @> $2::jsonb`;
const CUSTOMER = JSON.stringify({ customer: 'c-7' });

export const PLAN_STATEMENTS = [
  {
    name: 'v1 list / v1 search: the page with its total (offset 0, size 20)',
    used_by: ['GET /tokens metadata filter', 'POST /tokens/search (v1)'],
    sql: `SELECT page.*, counted.total FROM (SELECT count(*) AS total FROM tokens WHERE ${WHERE}) counted
      LEFT JOIN LATERAL (
        SELECT ${COLUMNS} FROM tokens WHERE ${WHERE.replace('$1', '$3').replace('$2', '$4')}
        ORDER BY created_at DESC, id DESC LIMIT $5 OFFSET $6
      ) page ON true
      ORDER BY page.created_at DESC, page.id DESC`,
    params: (tenantId) => [tenantId, CUSTOMER, tenantId, CUSTOMER, 20, 0],
  },
  {
    name: 'v2 list / v2 search: the first page (keyset, size 4 + 1)',
    used_by: ['GET /v2/tokens metadata, page 1', 'POST /v2/tokens/search, page 1'],
    sql: `SELECT ${COLUMNS}, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_at
      FROM tokens WHERE ${WHERE} ORDER BY created_at DESC, id DESC LIMIT $3`,
    params: (tenantId) => [tenantId, CUSTOMER, 5],
  },
];

/** Planning and execution time and the top node's buffers from EXPLAIN (ANALYZE, BUFFERS)'s text lines. */
export function planSummary(lines) {
  const num = (re) => {
    const line = lines.find((l) => re.test(l));
    return line ? Number(re.exec(line)[1]) : null;
  };
  // the first Buffers line belongs to the top node: what the whole statement touched
  const buffers = lines.find((l) => /^\s*Buffers:/.test(l));
  const count = (kind) => (buffers ? Number(new RegExp(`${kind}=(\\d+)`).exec(buffers)?.[1] ?? 0) : null);
  return {
    planning_ms: num(/Planning Time: ([\d.]+) ms/),
    execution_ms: num(/Execution Time: ([\d.]+) ms/),
    shared_hit: count('hit'),
    shared_read: count('read'),
    top_node: lines[0]?.trim().replace(/\s+\(cost=.*$/, '') ?? null,
  };
}

/** Runs EXPLAIN (ANALYZE, BUFFERS) of each statement for the tenant: [{name, used_by, summary, plan: [lines]}]. */
export async function explainStatements(pool, tenantId) {
  const out = [];
  for (const s of PLAN_STATEMENTS) {
    try {
      const res = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, s.params(tenantId));
      const plan = res.rows.map((r) => r['QUERY PLAN']);
      out.push({ name: s.name, used_by: s.used_by, ...planSummary(plan), plan });
    } catch (err) {
      out.push({ name: s.name, used_by: s.used_by, error: String(err.message ?? err) });
    }
  }
  return out;
}

/** The plans of one scale point, indented under the table. */
export function plansText(point) {
  const lines = [`   query plans @ ${point.tokens} tokens (EXPLAIN (ANALYZE, BUFFERS) of the list and search statements, lib/plans.mjs):`];
  for (const p of point.plans) {
    if (p.error) {
      lines.push(`   -- ${p.name}: EXPLAIN failed: ${p.error}`);
      continue;
    }
    lines.push(`   -- ${p.name}: execution ${p.execution_ms} ms, planning ${p.planning_ms} ms, shared buffers hit ${p.shared_hit} read ${p.shared_read}`);
    for (const l of p.plan) lines.push(`      ${l}`);
  }
  return lines.join('\n');
}

/** The same for the .md result file. */
export function plansMarkdown(points) {
  const lines = ['## Query plans at the scale points', '', 'EXPLAIN (ANALYZE, BUFFERS) of the list and search statements (tools/bench/lib/plans.mjs).'];
  for (const point of points) {
    lines.push('', `### ${point.tokens} tokens`);
    for (const p of point.plans) {
      lines.push('', `${p.name} (${p.used_by.join(', ')})${p.error ? `: EXPLAIN failed: ${p.error}` : `: execution ${p.execution_ms} ms`}`);
      if (!p.error) lines.push('', '```', ...p.plan, '```');
    }
  }
  return lines.join('\n');
}
