import { AuditTrail, RecordedWrites } from '@coffer/operations';
import { ReactorFormulaRequest, validateContract, type Principal } from '@coffer/contracts';
import { insertTenant, principalOf, problemOf, startIntegration, type IntegrationContext, runAsCaller } from '@coffer/testing/integration';
import { FormulaRepository } from '../formulas/formula.repository';
import { FormulasService } from '../formulas/formulas.service';
import { ApplicationDirectory } from './application-directory';
import { ReactorRepository } from './reactor.repository';
import { ReactorVault } from './reactor-vault';
import { ReactorsService } from './reactors.service';

/**
 * Reactors against PostgreSQL and the real keyring: the configuration is a secret, sealed under the tenant's data key.
 * These reactors act as no application, so session-service's application lookup (over NATS in production) is never
 * made; a fake that refuses stands in for it.
 */
describe('ReactorsService (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let formulas: FormulasService;
  let reactors: ReactorsService;
  let tenant: string;
  let p: Principal;

  beforeAll(async () => {
    ctx = await startIntegration(
      { providers: [FormulaRepository, FormulasService, ReactorRepository, ReactorVault, ReactorsService, ApplicationDirectory, AuditTrail, RecordedWrites] },
      [{ provide: ApplicationDirectory, useValue: { principalOf: async () => Promise.reject(new Error('no application in these tests')) } }],
    );
    formulas = ctx.get(FormulasService);
    reactors = ctx.get(ReactorsService);
    tenant = await insertTenant(ctx.sql);
    p = principalOf(tenant, { permissions: ['reactor:create', 'reactor:read', 'reactor:update', 'reactor:delete'] });
  });
  afterAll(() => ctx?.close());

  /** a use case as the operation dispatcher runs it: as its caller, in the operation's acting context */

  const formulaBody = (code = 'module.exports = async function (req) { return { raw: { got: req.args, key: req.configuration.api_key } }; };') =>
    validateContract(ReactorFormulaRequest, {
      name: 'echo',
      type: 'private',
      code,
      configuration: [{ name: 'api_key', type: 'string' }],
      request_parameters: [{ name: 'amount', type: 'number' }],
    });

  it('encrypts a reactor’s configuration at rest: the row holds no plaintext, reads decrypt it, a foreign tenant sees 404', async () => {
    const f = await runAsCaller(p, () => formulas.create(formulaBody()));
    const secret = 'sk_live_top_secret_value';
    const r = await runAsCaller(p, () => reactors.create({ name: 'charge', formula: { id: f.id }, configuration: { api_key: secret } }));
    expect(r.configuration).toEqual({ api_key: secret });
    const row = (await ctx.sql.query('SELECT * FROM reactors WHERE id = $1', [r.id])).rows[0];
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(Buffer.from(row.configuration_ciphertext).toString('latin1')).not.toContain(secret);
    expect((await runAsCaller(p, () => reactors.get(r.id))).configuration).toEqual({ api_key: secret });
    const stranger = principalOf(await insertTenant(ctx.sql), { permissions: ['reactor:read', 'reactor:delete'] });
    expect((await problemOf(runAsCaller(stranger, () => reactors.get(r.id)))).status).toBe(404);
    expect((await problemOf(runAsCaller(stranger, () => reactors.delete(r.id)))).status).toBe(404);

    // a configuration that does not fit the formula is a 400 and stores nothing
    const before = (await ctx.sql.query('SELECT count(*)::int AS n FROM reactors')).rows[0].n;
    expect((await problemOf(runAsCaller(p, () => reactors.create({ name: 'bad', formula: { id: f.id }, configuration: { api_key: 42 } })))).status).toBe(400);
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM reactors')).rows[0].n).toBe(before);

    // a patch re-encrypts: still no plaintext, the new value reads back
    await runAsCaller(p, () => reactors.patch(r.id, { configuration: { api_key: 'rotated-secret-2' } }));
    const after = (await ctx.sql.query('SELECT configuration_ciphertext FROM reactors WHERE id = $1', [r.id])).rows[0];
    expect(Buffer.from(after.configuration_ciphertext).toString('latin1')).not.toContain('rotated-secret-2');
    expect((await runAsCaller(p, () => reactors.get(r.id))).configuration).toEqual({ api_key: 'rotated-secret-2' });
  });

  it('refuses to delete a formula a reactor uses (409), then deletes it once the reactor is gone', async () => {
    const f = await runAsCaller(p, () => formulas.create(formulaBody()));
    const r = await runAsCaller(p, () => reactors.create({ name: 'user', formula: { id: f.id }, configuration: { api_key: 'k' } }));
    expect((await problemOf(runAsCaller(p, () => formulas.delete(f.id)))).status).toBe(409);
    await runAsCaller(p, () => reactors.delete(r.id));
    await runAsCaller(p, () => formulas.delete(f.id));
    expect((await problemOf(runAsCaller(p, () => formulas.get(f.id)))).status).toBe(404);
  });

  it('a formula deleted while reactors are being created from it: each create is a 201 or a 404, never a 500', async () => {
    // the create reads the formula, then inserts: a delete between the two made the insert's foreign key fail (a 500)
    const repository = ctx.get(ReactorRepository);
    const missing = '00000000-0000-4000-8000-00000000f0f0';
    const id = '00000000-0000-4000-8000-0000000000a1';
    const sealed = await ctx.get(ReactorVault).seal(tenant, id, {});
    const orphan = { id, name: 'orphan', formulaId: missing, configurationCiphertext: sealed.ciphertext, configurationKeyId: sealed.keyId };
    expect(await problemOf(repository.create(tenant, orphan))).toMatchObject({
      status: 404,
      detail: 'The reactor formula was not found',
    });
    const f = await runAsCaller(p, () => formulas.create(formulaBody()));
    const outcomes = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) =>
        runAsCaller(p, () => reactors.create({ name: `racing ${i}`, formula: { id: f.id }, configuration: { api_key: 'k' } })).then(
          () => 201,
          async (err) => (await problemOf(Promise.reject(err))).status,
        ),
      ),
      runAsCaller(p, () => formulas.delete(f.id)).then(
        () => 204,
        async (err) => (await problemOf(Promise.reject(err))).status,
      ),
    ]);
    for (const status of outcomes.slice(0, 8)) expect([201, 404]).toContain(status);
    // the delete either won (204, every create after it a 404) or lost to a reactor (409)
    expect([204, 409]).toContain(outcomes[8]);
  });
});
