import type { Principal } from '@coffer/contracts';
import { actedBy, actingAs, asCaller, caller, callerIfAny, currentTraceId, withActingContext } from './acting-context';

const principal = { tenantId: 't-1', applicationId: 'app-1', applicationType: 'MANAGEMENT', permissions: [] } as unknown as Principal;
const person = { ...principal, user: { id: 'user-1', email: 'jane@example.com' } } as unknown as Principal;

describe('who an audit record says acted', () => {
  it('names the tenant and the actor, and the trace id only when there is one', () => {
    expect(actedBy(principal, 'trace-1')).toEqual({ tenantId: 't-1', actor: { id: 'app-1', type: 'application' }, traceId: 'trace-1' });
    expect(actedBy(person)).toEqual({ tenantId: 't-1', actor: { id: 'user-1', type: 'user', name: 'jane@example.com' } });
  });

  it("inside an operation is the operation's principal and trace id; outside one, nobody", () => {
    expect(withActingContext({ principal: person, traceId: 'trace-2' }, () => actingAs())).toEqual(actedBy(person, 'trace-2'));
    expect(withActingContext({}, () => actingAs())).toBeUndefined();
    expect(actingAs()).toBeUndefined();
  });
});

describe('the caller of the current operation', () => {
  it('is the principal the context was entered with, through awaits and timers', async () => {
    const seen = await withActingContext({ principal: person, traceId: 'trace-3' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return [caller(), currentTraceId(), asCaller()];
    });
    expect(seen).toEqual([person, 'trace-3', { principal: person, traceId: 'trace-3' }]);
  });

  it('is never guessed: outside an operation, or in one open to anyone, asking for it throws', () => {
    expect(() => caller()).toThrow(/no authenticated caller/);
    expect(() => withActingContext({ traceId: 't' }, () => caller())).toThrow(/no authenticated caller/);
    expect(() => withActingContext({ traceId: 't' }, () => asCaller())).toThrow(/no authenticated caller/);
    expect(currentTraceId()).toBeUndefined();
  });

  it("asCaller: the trace id is '' where the operation has none (a call context always carries one)", () => {
    expect(withActingContext({ principal }, () => asCaller())).toEqual({ principal, traceId: '' });
  });

  it('callerIfAny: the caller when the operation has one, undefined in one open to anyone or outside', () => {
    expect(withActingContext({ principal, traceId: 't' }, () => callerIfAny())).toBe(principal);
    expect(withActingContext({ traceId: 't' }, () => callerIfAny())).toBeUndefined();
    expect(callerIfAny()).toBeUndefined();
  });

  it('two operations interleaved each keep their own caller', async () => {
    const run = (p: Principal, ms: number) =>
      withActingContext({ principal: p }, async () => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return caller();
      });
    expect(await Promise.all([run(principal, 5), run(person, 1)])).toEqual([principal, person]);
  });
});
