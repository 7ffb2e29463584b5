import { commandsOf, type Command } from '../cli/command';
import { WEBHOOK_COMMANDS, runWebhookCommand } from '../webhook-deliveries';

/** `webhooks deliveries` and `webhooks resend` (a webhook's event deliveries), in the CLI's command shape. */
export const webhookCommands: Command[] = commandsOf(WEBHOOK_COMMANDS, async (name, ctx) => {
  const action = name.split(' ')[1];
  const run = () => runWebhookCommand(ctx.prisma, action, ctx.values);
  // a resend and its audit record commit together (a refused or empty resend changes nothing, and records nothing)
  const result =
    action === 'resend'
      ? await ctx.transaction(async () => {
          const r = await run();
          if (r.exit === 0)
            await ctx.audit('webhooks.resend', {
              tenant_id: ctx.values['tenant'],
              webhook_id: ctx.values['webhook'],
              delivery_id: ctx.values['delivery'] ?? 'all-failed',
            });
          return r;
        })
      : await run();
  if (result.out) ctx.out(result.out);
  if (result.err) ctx.err(result.err);
  return result.exit;
});
