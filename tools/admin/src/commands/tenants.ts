import { announceTenantAccessChanged } from '@coffer/db';
import { type Command, type CommandContext, UsageError, intOption, tenantIdArgument } from '../cli/command';
import { ProgressReporter } from '../cli/progress';
import { withKeyJobLock } from '../keys/job-lock';
import { TenantAdmin } from '../tenants/tenant-admin';

const COMMON = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, actor: { type: 'string' } } as const;

/**
 * Removes the rows of deleted tenants (`tenants purge`, and the second phase of `tenants delete`). Many short
 * transactions (TenantAdmin.purge), so no one transaction can hold the act and its record: the intent (`state:
 * "started"`) commits in a transaction of its own before the first batch, the outcome (`state: "done"`, the rows
 * removed) right after the last. A `started` record with no `done` one: the purge was interrupted, and running
 * `tenants purge` again finishes it (docs/keys-rotation.md, "Auditability").
 */
async function auditedPurge(ctx: CommandContext, admin: TenantAdmin, tenantIds: string[], batchSize: number): Promise<number> {
  const progress = ProgressReporter.for(process.stderr, ctx.json);
  const started = Date.now();
  let rows = 0;
  await withKeyJobLock('purge', async () => {
    await ctx.transaction(() => ctx.audit('tenant.purge', { tenants: tenantIds, state: 'started' }));
    for (const id of tenantIds)
      rows += await admin.purge(id, batchSize, (_table, n) => {
        const total = rows + n;
        progress.update({ label: `purging ${id}`, done: total, total, rate: (total * 1000) / Math.max(1, Date.now() - started) }, { tenant_id: id });
      });
    await ctx.transaction(() => ctx.audit('tenant.purge', { tenants: tenantIds, rows, state: 'done' }));
  });
  progress.end();
  return rows;
}

/** `tenants suspend` and `tenants resume`: one command but for the state it sets (and says it set). */
function suspensionCommand(verb: 'suspend' | 'resume', summary: string, state: string): Command {
  return {
    name: `tenants ${verb}`,
    usage: `admin tenants ${verb} <tenant-id> [--json]`,
    summary,
    options: COMMON,
    positionals: { required: 1 },
    async run(ctx) {
      const tenantId = tenantIdArgument(ctx.positionals[0]);
      const tenant = await ctx.transaction(async () => {
        const t = await new TenantAdmin(ctx.prisma).setSuspended(tenantId, verb === 'suspend');
        await ctx.audit(`tenant.${verb}`, { tenant_id: t.id });
        // the gateways drop the tenant's cached keys once this commits (a resumed tenant's keys were never cached)
        if (verb === 'suspend') announceTenantAccessChanged(ctx.prisma, t.id);
        return t;
      });
      ctx.result(tenant, `tenant ${tenant.id} ${state}`);
      return 0;
    },
  };
}

export const tenantCommands: Command[] = [
  {
    name: 'tenants create',
    usage: 'admin tenants create --name <name> [--json]',
    summary: 'creates a tenant and its first management key (the key is shown once)',
    options: { ...COMMON, name: { type: 'string' } },
    async run(ctx) {
      const name = ctx.values['name'];
      if (typeof name !== 'string' || !name.trim() || name.length > 200) throw new UsageError('tenants create needs --name <name> (1 to 200 characters)');
      const created = await ctx.transaction(async () => {
        const c = await new TenantAdmin(ctx.prisma).create(name.trim());
        await ctx.audit('tenant.create', { tenant_id: c.tenant_id });
        await ctx.audit('application.create', { tenant_id: c.tenant_id, entity_id: c.application_id, type: 'management' });
        return c;
      });
      ctx.result(created, `tenant ${created.tenant_id}\nmanagement key (shown once): ${created.management_key}`);
      return 0;
    },
  },
  {
    name: 'tenants list',
    usage: 'admin tenants list [--json]',
    summary: 'lists the tenants, oldest first, with their status (active, suspended, deleting)',
    options: COMMON,
    async run(ctx) {
      const tenants = await new TenantAdmin(ctx.prisma).list();
      ctx.result({ data: tenants }, tenants.map((t) => `${t.id}  ${t.status.padEnd(9)}  ${t.created_at}  ${t.name}`).join('\n'));
      return 0;
    },
  },
  suspensionCommand('suspend', 'refuses every key of the tenant (403) until it is resumed; its data stays as it is', 'suspended'),
  suspensionCommand('resume', "lifts a suspension: the tenant's keys work again", 'active'),
  {
    name: 'tenants reissue-key',
    usage: 'admin tenants reissue-key <tenant-id> [--json]',
    summary: "revokes the keys of the tenant's management application and issues a new one (shown once)",
    options: COMMON,
    positionals: { required: 1 },
    async run(ctx) {
      const tenantId = tenantIdArgument(ctx.positionals[0]);
      const issued = await ctx.transaction(async () => {
        const i = await new TenantAdmin(ctx.prisma).reissueManagementKey(tenantId);
        await ctx.audit('tenant.management_key.reissue', { tenant_id: i.tenant_id, application_id: i.application_id, revoked_keys: i.revoked_keys });
        announceTenantAccessChanged(ctx.prisma, i.tenant_id);
        return i;
      });
      ctx.result(
        issued,
        `revoked ${issued.revoked_keys} key(s) of application ${issued.application_id}\nnew management key (shown once): ${issued.management_key}`,
      );
      return 0;
    },
  },
  {
    name: 'tenants delete',
    usage: 'admin tenants delete <tenant-id> --yes [--no-purge] [--batch-size <n>] [--json]',
    summary: "destroys the tenant's keys at once (its data can no longer be decrypted), then removes its rows in batches",
    options: { ...COMMON, yes: { type: 'boolean' }, 'no-purge': { type: 'boolean' }, 'batch-size': { type: 'string' } },
    positionals: { required: 1 },
    async run(ctx) {
      const tenantId = tenantIdArgument(ctx.positionals[0]);
      const batchSize = intOption(ctx.values, 'batch-size', 1000, 1, 10_000);
      if (ctx.values['yes'] !== true) throw new UsageError('deleting a tenant destroys its data for good: confirm with --yes');
      const admin = new TenantAdmin(ctx.prisma);
      // the shredding is one transaction, with its record; the purge that follows is audited as `tenants purge` is
      const shredded = await ctx.transaction(async () => {
        const s = await admin.shred(tenantId);
        await ctx.audit('tenant.delete', { tenant_id: tenantId, destroyed_keys: s.destroyed_keys });
        announceTenantAccessChanged(ctx.prisma, tenantId);
        return s;
      });
      const purged = ctx.values['no-purge'] === true ? null : await auditedPurge(ctx, admin, [tenantId], batchSize);
      ctx.result(
        { tenant_id: tenantId, ...shredded, purged_rows: purged, state: purged === null ? 'deleting' : 'deleted' },
        `tenant ${tenantId}: ${shredded.destroyed_keys} key(s) destroyed, its data is unreadable; ` +
          (purged === null ? 'run "tenants purge" to remove its rows' : `${purged} row(s) removed`),
      );
      return 0;
    },
  },
  {
    name: 'tenants purge',
    usage: 'admin tenants purge [<tenant-id>] [--batch-size <n>] [--json]',
    summary: 'removes the rows of deleted tenants (all of them, or one), in batches; resumable',
    options: { ...COMMON, 'batch-size': { type: 'string' } },
    positionals: { optional: 1 },
    async run(ctx) {
      const admin = new TenantAdmin(ctx.prisma);
      const batchSize = intOption(ctx.values, 'batch-size', 1000, 1, 10_000);
      const ids = ctx.positionals[0] ? [tenantIdArgument(ctx.positionals[0])] : await admin.deleting();
      const purged = await auditedPurge(ctx, admin, ids, batchSize);
      ctx.result({ tenants: ids, purged_rows: purged }, `${purged} row(s) of ${ids.length} deleted tenant(s) removed`);
      return 0;
    },
  },
];
