import { randomUUID } from 'node:crypto';
import { AuditLedger, PrismaService, sealUpdate } from '@coffer/db';
import { insertTenant, startIntegration, type IntegrationContext } from '@coffer/testing/integration';

jest.setTimeout(60_000);

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };
const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

/**
 * A seal's cost follows the records it seals, not the size of audit_events (a year of records by default): its UPDATE
 * finds its rows through the partial index of unsealed records. Joined on the primary key alone, PostgreSQL hashed
 * the whole table for every seal (a Seq Scan of audit_events once a second under load).
 */
describe('sealing a grown audit trail (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let ledger: AuditLedger;
  let tenant: string;

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [] });
    ledger = new AuditLedger(ctx.get(PrismaService));
    tenant = await insertTenant(ctx.sql);
    // a table that has grown: 30,000 sealed records of another tenant (their hashes are filler: only size matters)
    const other = await insertTenant(ctx.sql);
    await ctx.sql.query(
      `INSERT INTO audit_events (id, tenant_id, operation, entity_type, entity_id, seq, hash, created_at)
       SELECT gen_random_uuid(), $1::uuid, 'read', 'token', g::text, g, md5(g::text) || md5(g::text), now() - interval '1 day'
       FROM generate_series(1, 30000) g`,
      [other],
    );
    // and 2,000 records waiting to be sealed, as a busy second leaves them
    await ctx.sql.query(
      `INSERT INTO audit_events (id, tenant_id, operation, entity_type, entity_id) SELECT gen_random_uuid(), $1::uuid, 'read', 'token', g::text FROM generate_series(1, 2000) g`,
      [tenant],
    );
    await ctx.sql.query('ANALYZE audit_events');
  });
  afterAll(() => ctx?.close());

  it("writes the seals through the unsealed records' index, never scanning the table", async () => {
    const { rows: unsealed } = await ctx.sql.query<{ id: string }>('SELECT id FROM audit_events WHERE seq IS NULL');
    const statement = sealUpdate(unsealed.map((r, i) => ({ id: r.id, seq: i + 1, hash: randomUUID() })));
    const { rows } = await ctx.sql.query(`EXPLAIN (FORMAT JSON) ${statement.text}`, statement.values as unknown[]);
    const nodes = planNodes(rows[0]['QUERY PLAN'][0].Plan);
    expect(nodes.filter((n) => n['Relation Name'] === 'audit_events').map((n) => n['Node Type'])).not.toContain('Seq Scan');
    expect(nodes.map((n) => n['Index Name'])).toContain('audit_events_unsealed_idx');
  });

  it('seals them all, and the chain verifies', async () => {
    expect(await ledger.sealAll()).toBe(2000);
    const report = await ledger.verify(tenant);
    expect(report).toMatchObject({ ok: true, records: 2000, headSeq: 2000 });
  });
});
