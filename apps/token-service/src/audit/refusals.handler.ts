import { Controller, Logger } from '@nestjs/common';
import { OPS, ProblemError, RefusalWindowMessage, validateContract, type RefusalsMessage } from '@coffer/contracts';
import { AuditLog, type RefusalWindow } from '@coffer/db';
import { Operation, type Command } from '@coffer/operations';
import { auditRefusalsDropped } from '@coffer/observability';

/** The window as stored, or the names of the fields that keep it from being stored (never their values). */
function windowOf(plain: unknown): RefusalWindow | string[] {
  let w: RefusalWindowMessage;
  try {
    w = validateContract(RefusalWindowMessage, plain);
  } catch (err) {
    return err instanceof ProblemError ? Object.keys(err.problem.errors ?? { window: [] }) : ['window'];
  }
  const start = new Date(w.windowStart);
  // a window is a whole minute: whatever the sender says, the row's key is its minute
  start.setUTCSeconds(0, 0);
  if (Number.isNaN(start.getTime())) return ['windowStart'];
  return { tenantId: w.tenantId ?? null, reason: w.reason, source: w.source, windowStart: start, count: w.count, traceId: w.traceId };
}

/**
 * token.audit.refusals: the gateway's counts of refused authentications (401, 403), added to their windows (one row
 * per tenant or the global bucket, reason, source and minute), so a flood of bad keys grows counts, not the table.
 * Each window is validated on its own: one that cannot be stored is dropped, logged and counted
 * (coffer_audit_refusals_dropped_total), and the rest of the batch is stored, so no window can block the others.
 */
@Controller()
export class RefusalsHandler {
  private readonly logger = new Logger('RefusalsHandler');

  constructor(private readonly log: AuditLog) {}

  @Operation(OPS.token.audit.refusals)
  async onRefusals(cmd: Command<RefusalsMessage>) {
    const windows: RefusalWindow[] = [];
    const badFields = new Set<string>();
    let dropped = 0;
    for (const plain of cmd.body.windows) {
      const w = windowOf(plain);
      if (Array.isArray(w)) {
        dropped++;
        w.forEach((f) => badFields.add(f));
      } else windows.push(w);
    }
    if (dropped) {
      auditRefusalsDropped.inc({ reason: 'invalid' }, dropped);
      this.logger.warn(`refusal windows dropped: ${dropped} of ${cmd.body.windows.length} could not be stored (fields: ${[...badFields].sort().join(', ')})`);
    }
    // one statement may not update a row twice: windows with the same key are added up first
    const merged = new Map<string, RefusalWindow>();
    for (const w of windows) {
      const key = `${w.tenantId}|${w.reason}|${w.source}|${w.windowStart.toISOString()}`;
      const seen = merged.get(key);
      if (seen) seen.count += w.count;
      else merged.set(key, w);
    }
    await this.log.addRefusals([...merged.values()]);
    return { windows: merged.size };
  }
}
