import { randomUUID } from 'node:crypto';
import { ReactorFormulaRequest, validateContract, type Principal } from '@coffer/contracts';
import { RpcClient, TenantSettingsClient } from '@coffer/bus';
import { AuditTrail, RecordedWrites } from '@coffer/operations';
import { fakeTenantSettings, insertTenant, principalOf, problemOf, startIntegration, type IntegrationContext, runAsCaller } from '@coffer/testing/integration';
import { FormulaRepository } from '../formulas/formula.repository';
import { FormulasService } from '../formulas/formulas.service';
import { ReactorRunner } from './reactor-runner';
import { ReactorSandbox } from './reactor-sandbox';
import { TenantEgressDefault } from './tenant-egress-default';
import { TokenServiceClient } from './token-service.client';
import { ApplicationDirectory } from '../reactors/application-directory';
import { ReactorRepository } from '../reactors/reactor.repository';
import { ReactorVault } from '../reactors/reactor-vault';
import { ReactorsService } from '../reactors/reactors.service';

/**
 * The react path against PostgreSQL and the real sandbox (isolated-vm workers). Without NATS, the calls a react makes
 * to other services are in-process fakes: token-service's detokenize (returns the args as given) and tokenize (ids),
 * session-service's application lookup and tenant settings. The invocation's audit record is real: the statement that
 * finds the reactor writes it. What reaches token-service over the bus is covered end to end (apps/api-e2e/src/reactors).
 */
describe('ReactorRunner: react (PostgreSQL, real sandbox)', () => {
  let ctx: IntegrationContext;
  let formulas: FormulasService;
  let reactors: ReactorsService;
  const tokenService = {
    detokenize: async (_ctx: unknown, payload: unknown) => payload,
    tokenize: async (_ctx: unknown, payload: unknown) => payload,
  };
  let tenant: string;
  let p: Principal;

  beforeAll(async () => {
    ctx = await startIntegration(
      {
        providers: [
          FormulaRepository,
          FormulasService,
          ReactorRepository,
          ReactorVault,
          ReactorsService,
          ApplicationDirectory,
          TokenServiceClient,
          AuditTrail,
          RecordedWrites,
          RpcClient,
          TenantSettingsClient,
          TenantEgressDefault,
          ReactorSandbox,
          ReactorRunner,
        ],
      },
      [
        { provide: TokenServiceClient, useValue: tokenService },
        { provide: ApplicationDirectory, useValue: { principalOf: async () => Promise.reject(new Error('no application in these tests')) } },
        // the runner's `svc` bridge: these formulas make no service calls
        { provide: RpcClient, useValue: {} },
        { provide: TenantSettingsClient, useValue: fakeTenantSettings() },
      ],
    );
    formulas = ctx.get(FormulasService);
    reactors = ctx.get(ReactorsService);
    tenant = await insertTenant(ctx.sql);
    p = principalOf(tenant, { permissions: ['reactor:create', 'reactor:read', 'reactor:update', 'reactor:delete', 'reactor:invoke'] });
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

  it('reacts: the formula runs in the sandbox with the decrypted configuration and the checked args; the invocation is audited', async () => {
    const f = await runAsCaller(p, () => formulas.create(formulaBody()));
    const r = await runAsCaller(p, () => reactors.create({ name: 'run', formula: { id: f.id }, configuration: { api_key: 'cfg-value' } }));
    const runner = ctx.get(ReactorRunner);
    const prepared = await runAsCaller(p, () => runner.prepare(r.id, { amount: 12 }));
    expect(prepared.configuration).toEqual({ api_key: 'cfg-value' });
    const { response } = await runAsCaller(p, () => runner.runRecorded(prepared, 10_000));
    expect(response).toEqual({ raw: { got: { amount: 12 }, key: 'cfg-value' } });
    const audited = await ctx.sql.query("SELECT tenant_id, actor_application_id, entity_type FROM audit_events WHERE operation = 'invoke' AND entity_id = $1", [
      r.id,
    ]);
    expect(audited.rows).toEqual([{ tenant_id: tenant, actor_application_id: p.applicationId, entity_type: 'reactor' }]);
    // args that break the formula's request parameters are a 400 before any code runs
    expect((await problemOf(runAsCaller(p, () => runner.prepare(r.id, { amount: 'twelve' })))).status).toBe(400);
    const stranger = principalOf(await insertTenant(ctx.sql), { permissions: ['reactor:invoke'] });
    expect((await problemOf(runAsCaller(stranger, () => runner.prepare(r.id, {})))).status).toBe(404);
  });

  it('prepares a code reactor (no formula: its own code, any args) and an official formula seen from any tenant', async () => {
    const runner = ctx.get(ReactorRunner);
    const code = 'module.exports = async function (req) { return { raw: { got: req.args } }; };';
    const own = await runAsCaller(p, () => reactors.create({ name: 'own code', code, configuration: { k: 'v' } }));
    const prepared = await runAsCaller(p, () => runner.prepare(own.id, { anything: [1, 2] }));
    expect(prepared).toMatchObject({ code, args: { anything: [1, 2] }, configuration: { k: 'v' } });
    // an official formula (no tenant): visible to every tenant's reactors
    const official = randomUUID();
    await ctx.sql.query(
      "INSERT INTO reactor_formulas (id, tenant_id, name, type, status, code) VALUES ($1, NULL, 'official echo', 'official', 'verified', $2)",
      [official, code],
    );
    const r = await runAsCaller(p, () => reactors.create({ name: 'of official', formula: { id: official }, configuration: {} }));
    expect((await runAsCaller(p, () => runner.prepare(r.id, {}))).code).toBe(code);
    // another tenant's reactor is not found, whatever its formula
    const stranger = principalOf(await insertTenant(ctx.sql), { permissions: ['reactor:invoke'] });
    expect((await problemOf(runAsCaller(stranger, () => runner.prepare(own.id, {})))).status).toBe(404);
    // one audit record per invocation prepared by its tenant; none for the stranger, none for a job's run (audited when accepted)
    await runAsCaller(p, () => runner.prepare(own.id, {}, { detokenized: true }));
    const audited = await ctx.sql.query("SELECT count(*)::int AS n FROM audit_events WHERE operation = 'invoke' AND entity_id = $1", [own.id]);
    expect(audited.rows[0].n).toBe(1);
  });
});
