import { OPS, ProblemError, UpdateTenantRequest, type Principal, type RpcEnvelope } from '@coffer/contracts';
import type { IdempotentWrites, IdempotencyPlan } from '@coffer/idempotency';
import { OperationDispatcher } from './operation-dispatcher';
import { caller, currentTraceId } from './acting-context';
import type { Command } from './command';

const app: Principal = { tenantId: 't', applicationId: 'a', applicationType: 'private', permissions: ['token:create', 'token:read'] };
const env = (body: unknown, principal: Principal | null = app, extra: Partial<RpcEnvelope> = {}): RpcEnvelope =>
  ({ principal: principal ?? undefined, traceId: 'trace', body, ...extra }) as RpcEnvelope;

async function problem(p: Promise<unknown>): Promise<{ status: number; detail?: string; errors?: unknown }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ProblemError) return err.problem as never;
    throw err;
  }
  throw new Error('expected a problem');
}

/** A dispatcher whose idempotency wrapper only notes the plan it was given, and runs the work. */
function withWrites() {
  const plans: IdempotencyPlan<unknown, unknown>[] = [];
  const writes = {
    request: jest.fn((route: string, e: RpcEnvelope) => (e.idempotencyKey ? { key: e.idempotencyKey, route } : undefined)),
    perform: jest.fn(async (plan: IdempotencyPlan<unknown, unknown>, work: (w?: unknown) => Promise<unknown>) => {
      plans.push(plan);
      return work(plan.recordsItself ? { request: plan.request, hold: jest.fn(), record: jest.fn() } : undefined);
    }),
  };
  return { dispatcher: new OperationDispatcher(writes as unknown as IdempotentWrites), writes, plans };
}

describe('OperationDispatcher', () => {
  const call = jest.fn(async (cmd: unknown) => cmd);
  beforeEach(() => call.mockClear());

  describe('the caller', () => {
    const { dispatcher } = withWrites();

    it('401 without a principal, 403 without any of the permissions (the messages of requirePrincipal)', async () => {
      expect(await problem(dispatcher.dispatch(OPS.token.tokens.get.subject, env({ id: 'x' }, null), call))).toMatchObject({
        status: 401,
        detail: 'A valid API key is required',
      });
      expect(await problem(dispatcher.dispatch(OPS.token.tokens.delete.subject, env({ id: 'x' }), call))).toMatchObject({
        status: 403,
        detail: 'The API key does not grant access to this operation',
      });
      expect(call).not.toHaveBeenCalled();
    });

    it('any one of the permissions is enough; the handler gets a Command, not the envelope, and runs as the caller', async () => {
      const asSeen = jest.fn(async (cmd: unknown) => ({ cmd, caller: caller(), traceId: currentTraceId() }));
      const seen = (await dispatcher.dispatch(OPS.token.tokens.detokenize.subject, env({ payload: 'tok' }), asSeen)) as {
        cmd: Command;
        caller: Principal;
        traceId: string;
      };
      expect(seen.cmd).toEqual({ body: { payload: 'tok' }, deadline: undefined });
      expect(seen).toMatchObject({ caller: app, traceId: 'trace' });
    });

    it('access decided by the body: a service asking for its tenant (internal) needs no permission, anyone else tenant:read', async () => {
      await expect(dispatcher.dispatch(OPS.session.tenants.get.subject, env({ internal: true }), call)).resolves.toBeDefined();
      expect((await problem(dispatcher.dispatch(OPS.session.tenants.get.subject, env({}), call))).status).toBe(403);
    });

    it('access decided by the principal: a management application reads results with reactor:read', async () => {
      const management = { ...app, applicationType: 'management', permissions: ['reactor:read'] } as Principal;
      await expect(dispatcher.dispatch(OPS.reactor.reactors.result.subject, env({ id: 'r', requestId: 'q' }, management), call)).resolves.toBeDefined();
      expect((await problem(dispatcher.dispatch(OPS.reactor.reactors.result.subject, env({ id: 'r', requestId: 'q' }, app), call))).status).toBe(403);
    });

    it('a ping needs no principal', async () => {
      await expect(dispatcher.dispatch(OPS.ping.token.subject, env({}, null), call)).resolves.toBeDefined();
    });

    it('a subject outside the table (an event) reaches its handler as it arrived', async () => {
      const e = env({ tenantId: 't' }, null);
      expect(await dispatcher.dispatch('events.auth.invalidated.v1', e, call)).toBe(e);
    });
  });

  describe('the body', () => {
    const { dispatcher } = withWrites();

    it('JSON limits of the row: stored fields refuse NUL, the encrypted data may hold it', async () => {
      const bad = await problem(dispatcher.dispatch(OPS.token.tokens.create.subject, env({ type: 'token', data: 'x', metadata: { k: 'a\u0000' } }), call));
      expect(bad.status).toBe(400);
      expect(bad.errors).toHaveProperty(['metadata.k']);
      await expect(dispatcher.dispatch(OPS.token.tokens.create.subject, env({ type: 'token', data: 'a\u0000' }), call)).resolves.toBeDefined();
    });

    it('JSON limits name the field by the row’s root (detokenize args)', async () => {
      let deep: unknown = 1;
      for (let i = 0; i < 100; i++) deep = [deep];
      const bad = await problem(dispatcher.dispatch(OPS.token.tokens.detokenize.subject, env({ payload: { a: deep }, path: 'args' }), call));
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.errors as object)[0]).toMatch(/^args\.a/);
    });

    it('validates with the row’s contract class: a 400 naming every bad field, the handler never runs', async () => {
      const bad = await problem(dispatcher.dispatch(OPS.session.tenants.update.subject, env({ name: 7 }, { ...app, permissions: ['tenant:update'] }), call));
      expect(bad.status).toBe(400);
      expect(bad.errors).toHaveProperty('name');
      expect(call).not.toHaveBeenCalled();
    });

    it('hands the handler the validated instance', async () => {
      const cmd = (await dispatcher.dispatch(
        OPS.session.tenants.update.subject,
        env({ name: 'Acme' }, { ...app, permissions: ['tenant:update'] }),
        call,
      )) as Command;
      expect(cmd.body).toBeInstanceOf(UpdateTenantRequest);
      expect(cmd.body).toEqual(expect.objectContaining({ name: 'Acme' }));
    });

    it('the deadline of the envelope reaches the command', async () => {
      const cmd = (await dispatcher.dispatch(OPS.token.tokens.list.subject, env({ query: {} }, app, { timeoutMs: 1000 }), call)) as Command;
      expect(cmd.deadline).toBeGreaterThan(performance.now());
    });
  });

  describe('idempotency modes', () => {
    it('none: no wrapper', async () => {
      const { dispatcher, writes } = withWrites();
      await dispatcher.dispatch(OPS.token.tokens.get.subject, env({ id: 'x' }, app, { idempotencyKey: 'k' }), call);
      expect(writes.perform).not.toHaveBeenCalled();
    });

    it('transaction: the wrapper records in the write’s transaction, with the codec the handler registered', async () => {
      const { dispatcher, plans } = withWrites();
      const codec = { reply: (o: unknown) => o, record: (o: unknown) => o, replay: async (r: unknown) => r };
      dispatcher.handle(OPS.session.applications.regenerate, { codec: () => codec });
      await dispatcher.dispatch(
        OPS.session.applications.regenerate.subject,
        env({ id: 'x' }, { ...app, permissions: ['application:update'] }, { idempotencyKey: 'k' }),
        call,
      );
      expect(plans[0]).toMatchObject({ mode: 'transaction', request: { key: 'k' }, codec, recordsItself: undefined });
    });

    it('transaction, recorded by the handler: the command carries the record half', async () => {
      const { dispatcher, plans } = withWrites();
      dispatcher.handle(OPS.token.tokens.create, { recordsItself: true });
      const cmd = (await dispatcher.dispatch(
        OPS.token.tokens.create.subject,
        env({ type: 'token', data: 'x' }, app, { idempotencyKey: 'k' }),
        call,
      )) as Command;
      expect(plans[0]).toMatchObject({ mode: 'transaction', recordsItself: true });
      expect(cmd.idempotency?.request).toEqual({ key: 'k', route: OPS.token.tokens.create.subject });
    });

    it('exclusive for a synchronous react (with its lease), transaction for an accepted one', async () => {
      const { dispatcher, plans } = withWrites();
      const user = { ...app, permissions: ['token:use'] };
      await dispatcher.dispatch(OPS.reactor.reactors.react.subject, env({ id: 'r', body: { args: {} } }, user, { idempotencyKey: 'k' }), call);
      await dispatcher.dispatch(
        OPS.reactor.reactors.react.subject,
        env({ id: 'r', body: { callback_url: 'https://x.test/' } }, user, { idempotencyKey: 'k' }),
        call,
      );
      expect(plans.map((p) => [p.mode, p.leaseMs])).toEqual([
        ['exclusive', OPS.reactor.reactors.react.leaseMs],
        ['transaction', OPS.reactor.reactors.react.leaseMs],
      ]);
    });

    it('a writing operation in a service without IdempotentWrites is a configuration error, not a silent non-idempotent write', async () => {
      await expect(new OperationDispatcher().dispatch(OPS.session.sessions.create.subject, env({}, app, { idempotencyKey: 'k' }), call)).rejects.toThrow(
        /IdempotentWrites/,
      );
    });
  });
});
