import type { Principal } from '@coffer/contracts';
import { actedBy, actingAs, withActingContext } from './acting-context';

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
