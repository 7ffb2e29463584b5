import { Controller } from '@nestjs/common';
import { OPS, type RefusalsMessage } from '@coffer/contracts';
import { AuditLog } from '@coffer/db';
import { Operation, type Command } from '@coffer/messaging';

/**
 * token.audit.refusals: the gateway's counts of refused authentications (401, 403), added to their windows (one row
 * per tenant or the global bucket, reason, source and minute), so a flood of bad keys grows counts, not the table.
 */
@Controller()
export class RefusalsHandler {
  constructor(private readonly log: AuditLog) {}

  @Operation(OPS.token.audit.refusals)
  async onRefusals(cmd: Command<RefusalsMessage>) {
    const windows = cmd.body.windows.map((w) => {
      const start = new Date(w.windowStart);
      // a window is a whole minute: whatever the sender says, the row's key is its minute
      start.setUTCSeconds(0, 0);
      return { tenantId: w.tenantId ?? null, reason: w.reason, source: w.source, windowStart: start, count: w.count, traceId: w.traceId };
    });
    // one statement may not update a row twice: windows with the same key are added up first
    const merged = new Map<string, (typeof windows)[number]>();
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
