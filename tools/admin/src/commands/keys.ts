import { keyringOptionsFromEnv } from '@coffer/crypto/keyring';
import { type Command, intOption, tenantIdArgument } from '../cli/command';
import { withKeyring } from '../cli/keyring';
import { ProgressReporter } from '../cli/progress';
import { withKeyJobLock } from '../keys/job-lock';
import { keyStatus } from '../keys/key-status';
import { ROTATION_SETTLE_MARGIN_MS, ReencryptionJob, type ReencryptionSnapshot } from '../keys/reencryption-job';

const COMMON = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, actor: { type: 'string' } } as const;
const TENANT = { tenant: { type: 'string' } } as const;

async function tenantsInScope(ctx: Parameters<Command['run']>[0]): Promise<string[]> {
  const one = ctx.values['tenant'];
  if (one !== undefined) {
    const id = tenantIdArgument(one);
    const t = await ctx.prisma.tenant.findFirst({ where: { id, deletedAt: null }, select: { id: true } });
    if (!t) throw new Error(`no tenant ${id}`);
    return [id];
  }
  return (await ctx.prisma.tenant.findMany({ where: { deletedAt: null }, select: { id: true }, orderBy: { createdAt: 'asc' } })).map((t) => t.id);
}

export const keyCommands: Command[] = [
  {
    name: 'keys rotate',
    usage: 'admin keys rotate [--tenant <id>] [--json]',
    summary: 'a new data key version for one tenant or every tenant; new values are sealed under it, older ones stay readable',
    options: { ...COMMON, ...TENANT },
    async run(ctx) {
      const tenants = await tenantsInScope(ctx);
      const scope = ctx.values['tenant'] ?? null;
      // the keyring writes on its own pool, which never joins a transaction, one tenant after another: no transaction
      // holds the rotation and its record, so the intent commits before the first tenant's and the outcome after the
      // last (docs/keys-rotation.md, "Auditability")
      const rotated = await withKeyring(async (keyring) => {
        await ctx.transaction(() => ctx.audit('keys.rotate', { tenants: tenants.length, tenant_id: scope, state: 'started' }));
        const out: Array<{ tenant_id: string; key_id: string }> = [];
        for (const tenantId of tenants) {
          await keyring.rotateDataKeys(tenantId);
          out.push({ tenant_id: tenantId, key_id: await keyring.activeDataKeyId(tenantId) });
        }
        await ctx.transaction(() => ctx.audit('keys.rotate', { tenants: out.length, tenant_id: scope, state: 'done' }));
        return out;
      });
      ctx.result(
        { tenants: rotated.length, rotated },
        `new data keys for ${rotated.length} tenant(s); services pick them up within DATA_KEY_REFRESH_MS (a minute by default). Then run "keys reencrypt" to move existing data.`,
      );
      return 0;
    },
  },
  {
    name: 'keys reencrypt',
    usage: 'admin keys reencrypt [--tenant <id>] [--rate <rows/s>] [--batch-size <n>] [--json]',
    summary:
      "moves every sealed value (tokens, reactor configurations, job arguments and outcomes, webhook bodies and secrets, idempotency replies) to its tenant's newest data key, online; resumes an interrupted job",
    options: { ...COMMON, ...TENANT, rate: { type: 'string' }, 'batch-size': { type: 'string' } },
    async run(ctx) {
      const tenantId = ctx.values['tenant'] === undefined ? undefined : tenantIdArgument(ctx.values['tenant']);
      const rate = intOption(ctx.values, 'rate', 1000, 0, 1_000_000);
      const batchSize = intOption(ctx.values, 'batch-size', 500, 1, 5000);
      // the services' setting: after a rotation they seal under the previous key for up to this long
      const { refreshMs } = keyringOptionsFromEnv();
      if (tenantId) await tenantsInScope(ctx);
      const progress = ProgressReporter.for(process.stderr, ctx.json);
      const show = (s: ReencryptionSnapshot, force = false) =>
        progress.update(
          { label: 're-encrypting', done: s.rowsDone, total: s.rowsTotal, rate: s.elapsedMs > 0 ? (s.rowsThisRun * 1000) / s.elapsedMs : 0 },
          { job_id: s.jobId, kind: s.kind ?? null },
          force,
        );
      const result = await withKeyJobLock(`reencrypt:${tenantId ?? 'all'}`, () =>
        withKeyring((keyring) =>
          new ReencryptionJob(ctx.prisma, keyring, {
            tenantId,
            rate,
            batchSize,
            settleMs: refreshMs + ROTATION_SETTLE_MARGIN_MS,
            actor: ctx.actor,
            // the intent, in the transaction that creates (or resumes) the job; the outcome right after its last batch
            onStart: (job) => ctx.audit('keys.reencrypt', { job_id: job.id, tenant_id: tenantId ?? null, state: job.resumed ? 'resumed' : 'started' }),
            onProgress: (s) => show(s, s.rowsThisRun === 0),
          }).run(),
        ),
      );
      show(result, true);
      progress.end();
      await ctx.transaction(() =>
        ctx.audit('keys.reencrypt', { job_id: result.jobId, tenant_id: tenantId ?? null, state: result.state, rows: result.rowsThisRun }),
      );
      const json = {
        job_id: result.jobId,
        state: result.state,
        resumed: result.resumed,
        rows_total: result.rowsTotal,
        rows_done: result.rowsDone,
        rows_this_run: result.rowsThisRun,
        conflicts_retried: result.conflicts,
        remaining: result.remaining,
        seconds: Math.round(result.elapsedMs / 100) / 10,
        kinds: result.kinds,
      };
      ctx.result(
        json,
        result.state === 'done'
          ? `re-encrypted ${result.rowsThisRun} value(s) in ${json.seconds} s${result.resumed ? ' (resumed job)' : ''}; every sealed value is under its tenant's newest data key`
          : `stopped with ${result.remaining} value(s) still under older keys (services kept writing under them); run "keys reencrypt" again`,
      );
      return result.state === 'done' ? 0 : 1;
    },
  },
  {
    name: 'keys status',
    usage: 'admin keys status [--tenant <id>] [--json]',
    summary: 'per kind of sealed value, how many rows are under which data key version, and the last re-encryption job',
    options: { ...COMMON, ...TENANT },
    async run(ctx) {
      const tenantId = ctx.values['tenant'] === undefined ? undefined : tenantIdArgument(ctx.values['tenant']);
      const status = await keyStatus(ctx.prisma, tenantId);
      const lines: string[] = [];
      for (const [kind, usages] of Object.entries(status.kinds)) {
        if (!usages.length) lines.push(`${kind.padEnd(24)} (none)`);
        for (const u of usages)
          lines.push(`${kind.padEnd(24)} tenant ${u.tenant_id}  key v${u.key_version ?? '?'} ${u.key_id}${u.active ? ' (active)' : ''}  ${u.rows} row(s)`);
      }
      lines.push(`${status.rows} row(s): ${status.rows_under_active_keys} under active keys, ${status.rows_under_older_keys} under older keys`);
      if (status.job) lines.push(`last re-encryption job ${status.job.id}: ${status.job.state}, ${status.job.rows_done}/${status.job.rows_total} rows`);
      ctx.result(status, lines.join('\n'));
      return 0;
    },
  },
];
