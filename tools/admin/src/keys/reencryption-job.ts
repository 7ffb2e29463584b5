import { setTimeout as sleep } from 'node:timers/promises';
import type { PrismaService } from '@coffer/db';
import type { TenantKeyring } from '@coffer/crypto/keyring';
import { RowPace } from './row-pace';
import { KeyJobRepository, type KeyJob, type KindProgress } from './key-job.repository';
import { SEALED_KINDS, packWebhookSecret, sealedKind, type SealedKind } from './sealed-kinds';
import { SealedRowsRepository, type Resealed, type SealedRow } from './sealed-rows.repository';

/**
 * How long a service may keep sealing new values under the previous data key after a rotation: DATA_KEY_REFRESH_MS
 * (how long the keyring uses the active key before looking again; 60 s by default) plus this margin. The job's last
 * pass starts only when the target key is that old.
 */
export const ROTATION_SETTLE_MARGIN_MS = 5_000;
/** Passes over a tenant's kind before the job gives up on rows that keep reappearing under an old key. */
const MAX_PASSES = 5;
/** Attempts at a row that a service rewrote between the job's read and its write. */
const MAX_CONFLICT_RETRIES = 3;

export interface ReencryptionOptions {
  /** one tenant, or every tenant (not deleted) when absent */
  tenantId?: string;
  batchSize: number;
  /** rows per second across kinds; 0: as fast as the database takes it */
  rate: number;
  actor: string;
  /**
   * Runs in the transaction that creates the job, or finds the interrupted one it resumes, before any row moves: where
   * the command records its intent, so a job never starts without it.
   */
  onStart?: (job: { id: string; resumed: boolean }) => Promise<void>;
  /** how long a young target key must wait before the final pass: the services' DATA_KEY_REFRESH_MS and ROTATION_SETTLE_MARGIN_MS */
  settleMs: number;
  onProgress?: (p: ReencryptionSnapshot) => void;
}

export interface ReencryptionSnapshot {
  jobId: string;
  resumed: boolean;
  rowsTotal: number;
  rowsDone: number;
  /** rows written by this process (the ETA's rate) */
  rowsThisRun: number;
  conflicts: number;
  elapsedMs: number;
  kind?: string;
  tenantId?: string;
}

export interface ReencryptionResult extends ReencryptionSnapshot {
  state: 'done' | 'incomplete';
  /** rows still not under their tenant's target key when the job stopped (0 when done) */
  remaining: number;
  kinds: Record<string, { rows_total: number; rows_done: number }>;
}

/**
 * `keys reencrypt`: moves every sealed value of a tenant (or of all) to the tenant's newest data key while the
 * services keep serving. Rows are read in keyset order and rewritten in batches, each batch one compare-and-set
 * UPDATE that also advances the persisted progress; a value a service changed meanwhile is read again and retried.
 * A killed job resumes from its last committed batch the next time the same command runs.
 */
export class ReencryptionJob {
  private readonly rows: SealedRowsRepository;
  private readonly jobs: KeyJobRepository;
  private readonly started = Date.now();
  private readonly pace: RowPace;
  private rowsThisRun = 0;
  private conflicts = 0;
  private snapshot!: ReencryptionSnapshot;

  constructor(
    private readonly prisma: PrismaService,
    private readonly keyring: TenantKeyring,
    private readonly options: ReencryptionOptions,
  ) {
    this.rows = new SealedRowsRepository(prisma);
    this.jobs = new KeyJobRepository(prisma);
    this.pace = new RowPace(options.rate);
  }

  async run(): Promise<ReencryptionResult> {
    const scope = this.options.tenantId ?? null;
    const { job, resumed } = await this.prisma.transactional(async () => {
      const existing = await this.jobs.findRunning(scope);
      const job = existing ?? (await this.jobs.create(scope, this.options.actor));
      await this.options.onStart?.({ id: job.id, resumed: !!existing });
      return { job, resumed: !!existing };
    });
    await this.register(job);
    let progress = await this.jobs.progress(job.id);
    this.snapshot = {
      jobId: job.id,
      resumed,
      rowsTotal: sum(progress, 'rowsTotal'),
      rowsDone: sum(progress, 'rowsDone'),
      rowsThisRun: 0,
      conflicts: 0,
      elapsedMs: 0,
    };
    this.report();
    for (const p of progress) if (!p.done) await this.moveKind(job, p);
    progress = await this.jobs.progress(job.id);
    // tenants deleted meanwhile have no keys left (crypto-shredded): nothing of theirs remains to move
    const deleted = new Set(
      (await this.prisma.tenant.findMany({ where: { id: { in: progress.map((p) => p.tenantId) }, deletedAt: { not: null } }, select: { id: true } })).map(
        (t) => t.id,
      ),
    );
    const live = progress.filter((p) => !deleted.has(p.tenantId));
    const remaining = (await Promise.all(live.map((p) => this.rows.countNotUnder(sealedKind(p.kind), p.tenantId, p.targetKeyId)))).reduce((a, b) => a + b, 0);
    const complete = live.every((p) => p.done) && remaining === 0;
    if (complete) await this.jobs.finish(job.id);
    const kinds: ReencryptionResult['kinds'] = {};
    for (const p of progress) {
      const k = (kinds[p.kind] ??= { rows_total: 0, rows_done: 0 });
      k.rows_total += p.rowsTotal;
      k.rows_done += p.rowsDone;
    }
    return {
      ...this.current(),
      rowsTotal: sum(progress, 'rowsTotal'),
      rowsDone: sum(progress, 'rowsDone'),
      state: complete ? 'done' : 'incomplete',
      remaining,
      kinds,
    };
  }

  /** Every tenant of the scope and kind, with its target key and the rows to move (once per job: a resumed job keeps its own). */
  private async register(job: KeyJob): Promise<void> {
    const tenants = job.tenantId
      ? [job.tenantId]
      : (await this.prisma.tenant.findMany({ where: { deletedAt: null }, select: { id: true }, orderBy: { createdAt: 'asc' } })).map((t) => t.id);
    const known = new Set((await this.jobs.progress(job.id)).map((p) => `${p.tenantId}:${p.kind}`));
    for (const tenantId of tenants) {
      if (SEALED_KINDS.every((k) => known.has(`${tenantId}:${k.kind}`))) continue;
      // also moves the tenant's keys to the primary key-encryption key, as this command always has
      await this.keyring.rewrapKeys(tenantId);
      const targetKeyId = await this.keyring.activeDataKeyId(tenantId);
      for (const kind of SEALED_KINDS) {
        if (known.has(`${tenantId}:${kind.kind}`)) continue;
        await this.jobs.register(job.id, { tenantId, kind: kind.kind, targetKeyId, rowsTotal: await this.rows.countNotUnder(kind, tenantId, targetKeyId) });
      }
    }
  }

  private async moveKind(job: KeyJob, p: KindProgress): Promise<void> {
    const kind = sealedKind(p.kind);
    const live = await this.prisma.tenant.findFirst({ where: { id: p.tenantId, deletedAt: null }, select: { id: true } });
    if (!live) return this.jobs.markDone(job.id, p);
    let cursor = p.cursor;
    let pass = p.pass;
    for (;;) {
      const batch = await this.rows.nextBatch(kind, p.tenantId, p.targetKeyId, cursor, this.batchSize());
      if (!batch.length) {
        // services keep sealing under the previous key until their cache of the active key expires: the count that
        // ends the job waits that out (at once when the rotation is older), or a row written just after would stay
        await this.settle(p);
        const remaining = await this.rows.countNotUnder(kind, p.tenantId, p.targetKeyId);
        if (remaining === 0) return this.jobs.markDone(job.id, p);
        if (pass >= MAX_PASSES) return;
        // rows sealed under an older key behind the cursor: services that had not yet seen the rotation wrote them
        await this.jobs.startPass(job.id, p, remaining);
        this.snapshot.rowsTotal = sum(await this.jobs.progress(job.id), 'rowsTotal');
        cursor = null;
        pass++;
        continue;
      }
      cursor = batch[batch.length - 1].keys;
      const written = await this.writeBatch(job, kind, p, batch, cursor);
      this.rowsThisRun += written;
      this.snapshot.rowsDone += written;
      this.report(kind.kind, p.tenantId);
      await this.pace.wrote(written);
    }
  }

  /** Re-seals a batch and writes it; rows a service changed meanwhile are read again and retried. Returns rows written. */
  private async writeBatch(job: KeyJob, kind: SealedKind, p: KindProgress, batch: SealedRow[], cursor: string[]): Promise<number> {
    let pending = batch;
    let written = 0;
    for (let attempt = 0; pending.length; attempt++) {
      const resealed = await Promise.all(pending.map((row) => this.reseal(kind, p.tenantId, row)));
      const done = await this.rows.replace(kind, p.tenantId, resealed, this.jobs.advance(job.id, p, cursor));
      written += done.length;
      if (done.length === pending.length || attempt >= MAX_CONFLICT_RETRIES) break;
      const wrote = new Set(done.map((k) => JSON.stringify(k)));
      const changed = pending.filter((r) => !wrote.has(JSON.stringify(r.keys)));
      this.conflicts += changed.length;
      // a changed row that a service already sealed under the target key (or deleted) drops out here
      pending = await this.rows.find(
        kind,
        p.tenantId,
        p.targetKeyId,
        changed.map((r) => r.keys),
      );
    }
    return written;
  }

  private async reseal(kind: SealedKind, tenantId: string, row: SealedRow): Promise<Resealed> {
    const named = Object.fromEntries(kind.keyset.map((c, i) => [c.name, row.keys[i]]));
    const aad = kind.aad(named);
    const ciphertext = kind.keyIdColumn ? row.stored : row.stored.subarray(16);
    const value = await this.keyring.decryptJson(tenantId, row.keyId, ciphertext, aad);
    const sealed = await this.keyring.encryptJson(tenantId, aad, value);
    const stored = kind.keyIdColumn ? sealed.ciphertext : packWebhookSecret(sealed.keyId, sealed.ciphertext);
    return { keys: row.keys, previous: row.stored, stored, keyId: sealed.keyId };
  }

  private batchSize(): number {
    const { batchSize, rate } = this.options;
    return rate > 0 ? Math.max(1, Math.min(batchSize, rate)) : batchSize;
  }

  private async settle(p: KindProgress): Promise<void> {
    const key = await this.prisma.$queryRaw<Array<{ created_at: Date }>>`SELECT created_at FROM tenant_keys WHERE id = ${p.targetKeyId}::uuid`;
    const age = key[0] ? Date.now() - key[0].created_at.getTime() : Infinity;
    const wait = this.options.settleMs - age;
    if (wait > 0) await sleep(wait);
  }

  private current(): ReencryptionSnapshot {
    return { ...this.snapshot, rowsThisRun: this.rowsThisRun, conflicts: this.conflicts, elapsedMs: Date.now() - this.started };
  }

  private report(kind?: string, tenantId?: string): void {
    this.options.onProgress?.({ ...this.current(), kind, tenantId });
  }
}

function sum(progress: KindProgress[], field: 'rowsTotal' | 'rowsDone'): number {
  return progress.reduce((a, p) => a + p[field], 0);
}
