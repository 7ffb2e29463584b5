import { commandsOf, type Command } from '../cli/command';
import { WEBHOOK_COMMANDS, runWebhookCommand } from '../webhook-deliveries';

/** `webhooks deliveries` and `webhooks resend` (a webhook's event deliveries), in the CLI's command shape. */
export const webhookCommands: Command[] = commandsOf(WEBHOOK_COMMANDS, async (name, ctx) => {
  const action = name.split(' ')[1];
  const result = await runWebhookCommand(ctx.prisma, action, ctx.values);
  if (result.out) ctx.out(result.out);
  if (result.err) ctx.err(result.err);
  if (action === 'resend' && result.exit === 0)
    await ctx.audit('webhooks.resend', {
      tenant_id: ctx.values['tenant'],
      webhook_id: ctx.values['webhook'],
      delivery_id: ctx.values['delivery'] ?? 'all-failed',
    });
  return result.exit;
});
