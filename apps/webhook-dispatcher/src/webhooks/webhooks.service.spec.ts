import { runAsCaller } from '@coffer/testing/integration';
import type { Principal } from '@coffer/contracts';
import type { EventOutbox, PrismaService, SqlPool } from '@coffer/db';
import { RecordedWrites, withActingContext, type AuditTrail } from '@coffer/operations';
import type { DeliveryRepository } from '../deliveries/delivery.repository';
import type { DispatcherService } from '../deliveries/dispatcher.service';
import type { EndpointSecrets } from './endpoint-secrets';
import type { WebhookRepository, WebhookRow } from './webhook.repository';
import { WebhooksService } from './webhooks.service';

const TENANT = '11111111-1111-4111-8111-111111111111';
const OTHER_TENANT = '33333333-3333-4333-8333-333333333333';
const WEBHOOK_ID = '22222222-2222-4222-8222-222222222222';
const DELIVERY_ID = '44444444-4444-4444-8444-444444444444';
const CALLER: Principal = { tenantId: TENANT, applicationId: '55555555-5555-4555-8555-555555555555', applicationType: 'management', permissions: [] };

const row = {
  id: WEBHOOK_ID,
  tenantId: TENANT,
  name: 'w',
  url: 'https://receiver.example/hook',
  notifyEmail: null,
  events: ['token.created'],
  status: 'enabled',
  createdBy: CALLER.applicationId,
  createdAt: new Date(0),
  modifiedBy: null,
  modifiedAt: null,
} as unknown as WebhookRow;

/**
 * WebhooksService with its repositories stood in for: what is asserted is which tenant each use case reads and
 * writes (the operation's caller's, never one it is handed) and that none runs outside an operation.
 */
function service() {
  const asked: Array<[string, string]> = [];
  const webhooks = {
    find: async (tenantId: string, id: string) => (asked.push(['find', tenantId]), tenantId === TENANT && id === WEBHOOK_ID ? row : null),
    page: async (tenantId: string) => (asked.push(['page', tenantId]), { rows: tenantId === TENANT ? [row] : [], total: tenantId === TENANT ? 1 : 0 }),
    delete: async (tenantId: string, id: string) => (asked.push(['delete', tenantId]), tenantId === TENANT && id === WEBHOOK_ID),
  } as unknown as WebhookRepository;
  const deliveries = {
    pageOf: async (tenantId: string) => (asked.push(['pageOf', tenantId]), { rows: [], total: 0 }),
    requeue: async (tenantId: string) => (asked.push(['requeue', tenantId]), { id: DELIVERY_ID, status: 'pending' }),
  } as unknown as DeliveryRepository;
  const audited: unknown[] = [];
  const audit = { record: async (...acts: unknown[]) => void audited.push(...acts) } as unknown as AuditTrail;
  let wakes = 0;
  const dispatcher = { wake: () => void wakes++ } as unknown as DispatcherService;
  // the one way a write records itself, over a unit of work that only runs its work (no database here)
  const writes = new RecordedWrites(
    { transactional: (work: () => Promise<unknown>) => work() } as PrismaService,
    { record: async () => undefined } as unknown as EventOutbox,
    audit,
    {} as SqlPool,
  );
  const svc = new WebhooksService(webhooks, deliveries, writes, dispatcher, {} as EndpointSecrets);
  return { svc, asked, audited, wakes: () => wakes };
}

describe('WebhooksService', () => {
  it("reads, lists and deletes the operation's caller's tenant's webhooks", async () => {
    const { svc, asked, audited } = service();
    await expect(runAsCaller(CALLER, () => svc.get(WEBHOOK_ID))).resolves.toMatchObject({ id: WEBHOOK_ID });
    await expect(runAsCaller(CALLER, () => svc.list({}))).resolves.toMatchObject({ data: [{ id: WEBHOOK_ID }] });
    await runAsCaller(CALLER, () => svc.deliveriesOf(WEBHOOK_ID, {}));
    await runAsCaller(CALLER, () => svc.resend(WEBHOOK_ID, DELIVERY_ID));
    await runAsCaller(CALLER, () => svc.delete(WEBHOOK_ID));
    expect(asked.every(([, tenantId]) => tenantId === TENANT)).toBe(true);
    expect(asked.map(([what]) => what)).toEqual(['find', 'page', 'find', 'pageOf', 'find', 'requeue', 'delete']);
    expect(audited).toEqual([
      { operation: 'resend', entityType: 'webhook_delivery', entityId: DELIVERY_ID },
      { operation: 'delete', entityType: 'webhook', entityId: WEBHOOK_ID },
    ]);
  });

  it('a caller of another tenant finds none of them: 404, nothing re-sent or deleted', async () => {
    const { svc, asked, audited, wakes } = service();
    const other: Principal = { ...CALLER, tenantId: OTHER_TENANT };
    const uses: Array<() => Promise<unknown>> = [
      () => svc.get(WEBHOOK_ID),
      () => svc.deliveriesOf(WEBHOOK_ID, {}),
      () => svc.resend(WEBHOOK_ID, DELIVERY_ID),
      () => svc.delete(WEBHOOK_ID),
      () => svc.update(WEBHOOK_ID, {}),
    ];
    for (const use of uses) await expect(runAsCaller(other, use)).rejects.toMatchObject({ status: 404 });
    await expect(runAsCaller(other, () => svc.list({}))).resolves.toMatchObject({ data: [] });
    expect(asked.every(([, tenantId]) => tenantId === OTHER_TENANT)).toBe(true);
    expect(audited).toEqual([]);
    expect(wakes()).toBe(0);
  });

  it('refuses to run outside an operation (no caller), before reading anything', async () => {
    const { svc, asked } = service();
    await expect(svc.get(WEBHOOK_ID)).rejects.toThrow(/no authenticated caller/);
    expect(() => svc.list({})).toThrow(/no authenticated caller/);
    await expect(svc.delete(WEBHOOK_ID)).rejects.toThrow(/no authenticated caller/);
    await expect(withActingContext({ traceId: 't' }, () => svc.resend(WEBHOOK_ID, DELIVERY_ID))).rejects.toThrow(/no authenticated caller/);
    expect(asked).toEqual([]);
  });
});
