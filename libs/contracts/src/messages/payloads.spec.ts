import { ProblemError } from '../problem/problem';
import { validateContract } from '../validation';
import { AuditRecordMessage } from './payloads';

/** The status and field errors validateContract answers `body` with, or the validated message. */
function validated(body: unknown) {
  try {
    return validateContract(AuditRecordMessage, body);
  } catch (err) {
    if (err instanceof ProblemError) return { status: err.problem.status, errors: err.problem.errors };
    throw err;
  }
}

const proxyCall = {
  actorApplicationId: '6b3d4bd6-6c52-4b4e-9f3a-2f4b1f0c2a10',
  operation: 'proxy',
  entityType: 'proxy',
  entityId: 'api.example.com',
  traceId: 'c0ffee',
  changes: { method: { new: 'POST' }, status: { new: 200 } },
};

/**
 * token.audit.record's contract: each event is checked as the columns it is written to require, so a malformed event
 * is a 400 naming it, never a database error (a 500) in the middle of a batch.
 */
describe('AuditRecordMessage', () => {
  it('takes a batch of proxy-call events as they are sent', () => {
    const out = validated({ events: [proxyCall, { operation: 'proxy', entityType: 'proxy', entityId: 'b.example' }] });
    expect(out).toBeInstanceOf(AuditRecordMessage);
    expect((out as AuditRecordMessage).events).toEqual([proxyCall, { operation: 'proxy', entityType: 'proxy', entityId: 'b.example' }]);
  });

  it('refuses an element that is not an event, and names each bad field by its index', () => {
    expect(
      validated({
        events: [
          'not an event',
          { ...proxyCall, operation: 'drop' },
          { ...proxyCall, actorApplicationId: 'not-a-uuid' },
          { ...proxyCall, entityId: 'x'.repeat(2049), traceId: 't'.repeat(129) },
          { ...proxyCall, changes: 'none' },
        ],
      }),
    ).toEqual({
      status: 400,
      errors: expect.objectContaining({
        'events.0': expect.any(Array),
        'events.1.operation': expect.any(Array),
        'events.2.actorApplicationId': expect.any(Array),
        'events.3.entityId': expect.any(Array),
        'events.3.traceId': expect.any(Array),
        'events.4.changes': expect.any(Array),
      }),
    });
  });

  it('refuses more events than one message may carry', () => {
    expect(validated({ events: Array.from({ length: 1001 }, () => proxyCall) })).toEqual({ status: 400, errors: { events: expect.any(Array) } });
  });
});
