import { AuditTrail, RecordedWrites } from '@coffer/operations';
import { randomUUID } from 'node:crypto';
import { ReactorFormulaRequest, validateContract, type Principal } from '@coffer/contracts';
import { insertTenant, principalOf, problemOf, startIntegration, type IntegrationContext, runAsCaller } from '@coffer/testing/integration';
import { FormulaRepository } from './formula.repository';
import { FormulasService } from './formulas.service';

/** reactor_formulas against PostgreSQL: private formulas per tenant, official ones visible to all and read-only. */
describe('FormulasService (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let formulas: FormulasService;
  let p: Principal;

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [FormulaRepository, FormulasService, AuditTrail, RecordedWrites] });
    formulas = ctx.get(FormulasService);
    p = principalOf(await insertTenant(ctx.sql), { permissions: ['reactor:create', 'reactor:read', 'reactor:update', 'reactor:delete'] });
  });
  afterAll(() => ctx?.close());

  /** a use case as the operation dispatcher runs it: as its caller, in the operation's acting context */

  // the gateway validates a create body against the contract before it reaches the service
  const body = (name = 'echo') =>
    validateContract(ReactorFormulaRequest, {
      name,
      type: 'private',
      code: 'module.exports = async (req) => ({ raw: req.args });',
      configuration: [{ name: 'api_key', type: 'string' }],
      request_parameters: [{ name: 'amount', type: 'number', optional: true }],
    });

  it('stores a private formula for its tenant only: another tenant cannot read, list, change or delete it', async () => {
    const f = await runAsCaller(p, () => formulas.create(body()));
    expect(f).toMatchObject({ name: 'echo', type: 'private', status: 'verified', request_parameters: [{ name: 'amount', type: 'number', optional: true }] });
    const row = (await ctx.sql.query('SELECT tenant_id, created_by FROM reactor_formulas WHERE id = $1', [f.id])).rows[0];
    expect(row).toEqual({ tenant_id: p.tenantId, created_by: p.applicationId });
    const stranger = principalOf(await insertTenant(ctx.sql), { permissions: ['reactor:read', 'reactor:update', 'reactor:delete'] });
    expect((await problemOf(runAsCaller(stranger, () => formulas.get(f.id)))).status).toBe(404);
    expect((await problemOf(runAsCaller(stranger, () => formulas.update(f.id, body('hijacked'))))).status).toBe(404);
    expect((await problemOf(runAsCaller(stranger, () => formulas.delete(f.id)))).status).toBe(404);
    expect((await runAsCaller(stranger, () => formulas.list({}))).data.map((x) => x.id)).not.toContain(f.id);
    expect((await runAsCaller(p, () => formulas.get(f.id))).name).toBe('echo');
  });

  it('updates (validated like a create) and deletes a private formula', async () => {
    const f = await runAsCaller(p, () => formulas.create(body('before')));
    expect((await problemOf(runAsCaller(p, () => formulas.update(f.id, { name: 'x', type: 'private' })))).status).toBe(400);
    const updated = await runAsCaller(p, () => formulas.update(f.id, { ...body('after') }));
    expect(updated).toMatchObject({ name: 'after', modified_by: p.applicationId });
    await runAsCaller(p, () => formulas.delete(f.id));
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM reactor_formulas WHERE id = $1', [f.id])).rows[0].n).toBe(0);
  });

  it('shows official formulas (no tenant) to every tenant, and refuses to change or delete them (403)', async () => {
    const id = randomUUID();
    await ctx.sql.query(
      `INSERT INTO reactor_formulas (id, name, type, status, code) VALUES ($1, 'official one', 'official', 'verified', 'module.exports = async () => ({})')`,
      [id],
    );
    const other = principalOf(await insertTenant(ctx.sql), { permissions: ['reactor:read', 'reactor:update', 'reactor:delete'] });
    expect((await runAsCaller(other, () => formulas.get(id))).name).toBe('official one');
    expect((await runAsCaller(p, () => formulas.list({ name: 'official*' }))).data.map((x) => x.id)).toContain(id);
    expect((await problemOf(runAsCaller(other, () => formulas.update(id, body())))).status).toBe(403);
    expect((await problemOf(runAsCaller(other, () => formulas.delete(id)))).status).toBe(403);
  });
});
