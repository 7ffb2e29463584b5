import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OPS, type RefusalWindowMessage } from '@coffer/contracts';
import { RpcClient } from '@coffer/messaging';
import { HeaderNames } from './api-key-headers';
import { PrincipalResolver } from './principal-resolver';
import type { GatewayRequest } from '../http/gateway-request';

/** How often the counts go to token-service (which adds them to their minute's row). */
const FLUSH_MS = 5_000;
/** Distinct (tenant, reason, source, minute) keys held between flushes: beyond, refusals count under source `*`. */
const MAX_KEYS = 5_000;

type Reason = RefusalWindowMessage['reason'];

/**
 * Refused authentications for the audit trail (docs/audit.md): every 401 and 403 the gateway answers is counted per
 * (tenant if known, reason, client address, minute) and sent to token-service every few seconds, so a flood of bad
 * keys costs one row per window and a counter, never a row per request, and never a database write on the hot path.
 * The tenant is the caller's (403), or the tenant a refused key belonged to while it was still cached (a key just
 * revoked); unknown keys count in the global bucket.
 */
@Injectable()
export class RefusalTally implements OnModuleInit, OnModuleDestroy {
  private readonly headers = new HeaderNames();
  private counts = new Map<string, RefusalWindowMessage>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly rpc: RpcClient,
    private readonly resolver: PrincipalResolver,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /**
   * The last counts go out while the bus is still open: Nest destroys this module before the messaging module it
   * imports (whose connection drains there), whereas every shutdown hook runs after all of that.
   */
  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  /** The hook: counts the reply when it refused the caller. */
  register(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', async (request, reply) => this.observe(request, reply));
  }

  observe(request: FastifyRequest, reply: FastifyReply): void {
    const status = reply.statusCode;
    if (status !== 401 && status !== 403) return;
    const req = request as GatewayRequest;
    const hasKey = HeaderNames.first(request.headers, this.headers.apiKey) !== undefined;
    const reason: Reason = status === 403 ? 'forbidden' : hasKey ? 'invalid_key' : 'missing_key';
    let tenantId = req.principal?.tenantId;
    if (!tenantId && hasKey) {
      try {
        tenantId = this.resolver.recentTenant(request);
      } catch {
        tenantId = undefined;
      }
    }
    this.count(tenantId, reason, request.ip || 'unknown', new Date(), req.traceId);
  }

  count(tenantId: string | undefined, reason: Reason, source: string, at: Date, traceId?: string): void {
    const minute = new Date(at);
    minute.setUTCSeconds(0, 0);
    let key = `${tenantId ?? ''}|${reason}|${source}|${minute.toISOString()}`;
    if (!this.counts.has(key) && this.counts.size >= MAX_KEYS) {
      source = '*';
      key = `${tenantId ?? ''}|${reason}|*|${minute.toISOString()}`;
    }
    const w = this.counts.get(key);
    if (w) w.count++;
    else {
      const fresh: RefusalWindowMessage = { reason, source, windowStart: minute.toISOString(), count: 1 };
      if (tenantId) fresh.tenantId = tenantId;
      // the first refused request of the window: its trace id finds it in the gateway's request log
      if (traceId) fresh.traceId = traceId;
      this.counts.set(key, fresh);
    }
  }

  /** Sends what was counted; on failure the counts are kept for the next flush (bounded by MAX_KEYS). */
  async flush(): Promise<void> {
    if (!this.counts.size) return;
    const batch = this.counts;
    this.counts = new Map();
    try {
      await this.rpc.call(OPS.token.audit.refusals, { windows: [...batch.values()] }, { traceId: 'audit-refusals' });
    } catch {
      for (const [k, w] of batch) {
        const now = this.counts.get(k);
        if (now) now.count += w.count;
        else if (this.counts.size < MAX_KEYS) this.counts.set(k, w);
      }
    }
  }
}
