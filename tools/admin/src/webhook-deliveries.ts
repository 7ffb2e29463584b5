/**
 * Operator commands for event deliveries (docs/events.md): list a webhook's deliveries and send finished ones again,
 * the CLI side of GET /webhooks/{id}/deliveries and POST …/deliveries/{id}/resend.
 *
 *   webhooks deliveries --tenant <id> --webhook <id> [--status failed] [--json]
 *   webhooks resend --tenant <id> --webhook <id> (--delivery <id> | --all-failed) [--json]
 */
import type { ParseArgsConfig } from 'node:util';
import { CHANNELS, deferUntilCommitted, deliveryQueuedAgain, type PrismaService } from '@coffer/db';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STATUSES = ['pending', 'delivered', 'failed'];
const COMMON = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, actor: { type: 'string' } } as const;

export const WEBHOOK_COMMANDS: Record<string, { usage: string; summary: string; options: NonNullable<ParseArgsConfig['options']>; positionals: number }> = {
  'webhooks deliveries': {
    usage: 'admin webhooks deliveries --tenant <id> --webhook <id> [--status pending|delivered|failed] [--json]',
    summary: "lists a webhook's event deliveries, newest first (at most 100)",
    options: { ...COMMON, tenant: { type: 'string' }, webhook: { type: 'string' }, status: { type: 'string' } },
    positionals: 0,
  },
  'webhooks resend': {
    usage: 'admin webhooks resend --tenant <id> --webhook <id> (--delivery <id> | --all-failed) [--json]',
    summary: 'queues finished deliveries of a webhook again, with a fresh retry schedule',
    options: { ...COMMON, tenant: { type: 'string' }, webhook: { type: 'string' }, delivery: { type: 'string' }, 'all-failed': { type: 'boolean' } },
    positionals: 0,
  },
};

type Values = Record<string, string | boolean | undefined>;
type Out = { exit: number; out?: string; err?: string };

export async function runWebhookCommand(prisma: PrismaService, command: string, values: Values): Promise<Out> {
  const tenant = values['tenant'];
  const webhook = values['webhook'];
  if (typeof tenant !== 'string' || !UUID.test(tenant) || typeof webhook !== 'string' || !UUID.test(webhook))
    return { exit: 2, err: `webhooks ${command} needs --tenant <uuid> and --webhook <uuid>` };
  const json = values['json'] === true;
  if (command === 'deliveries') {
    const status = values['status'];
    if (status !== undefined && (typeof status !== 'string' || !STATUSES.includes(status)))
      return { exit: 2, err: '--status must be pending, delivered or failed' };
    const rows = await prisma.webhookDelivery.findMany({
      where: { tenantId: tenant, webhookId: webhook, ...(typeof status === 'string' ? { status } : {}) },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: 100,
    });
    const data = rows.map((d) => ({
      id: d.id,
      event_id: d.eventId,
      event_type: d.eventType,
      status: d.status,
      attempts: d.attempts,
      last_status_code: d.lastStatusCode ?? undefined,
      last_duration_ms: d.lastDurationMs ?? undefined,
      last_error: d.lastError ?? undefined,
      created_at: d.createdAt.toISOString(),
    }));
    if (json) return { exit: 0, out: JSON.stringify({ data }) };
    return {
      exit: 0,
      out: data
        .map(
          (d) =>
            `${d.id}  ${d.event_type}  ${d.status}  attempts=${d.attempts}  ${d.created_at}` +
            `${d.last_status_code !== undefined ? `  last=${d.last_status_code}` : ''}${d.last_error ? `  ${d.last_error}` : ''}`,
        )
        .join('\n'),
    };
  }
  const delivery = values['delivery'];
  const allFailed = values['all-failed'] === true;
  if ((typeof delivery === 'string') === allFailed || (typeof delivery === 'string' && !UUID.test(delivery)))
    return { exit: 2, err: 'webhooks resend needs exactly one of --delivery <uuid> or --all-failed' };
  const { count } = await prisma.webhookDelivery.updateMany({
    where: {
      tenantId: tenant,
      webhookId: webhook,
      ...(typeof delivery === 'string' ? { id: delivery, status: { in: ['failed', 'delivered'] } } : { status: 'failed' }),
    },
    data: deliveryQueuedAgain(),
  });
  if (typeof delivery === 'string' && count === 0) return { exit: 1, err: 'no finished delivery with that id for this webhook and tenant' };
  // due now: the dispatchers' claims take them at once rather than at their safety sweep (docs/operations.md); once
  // the command's transaction committed, when it runs in one (a NOTIFY inside it would serialize commits). A lost
  // notification only waits for the sweep: it never fails a resend that committed.
  const notify = () => prisma.$executeRaw`SELECT pg_notify(${CHANNELS.webhookDeliveries}, '')`.catch(() => undefined);
  if (count > 0 && !deferUntilCommitted(notify)) await notify();
  return { exit: 0, out: json ? JSON.stringify({ requeued: count }) : `${count} deliver${count === 1 ? 'y' : 'ies'} queued again` };
}
