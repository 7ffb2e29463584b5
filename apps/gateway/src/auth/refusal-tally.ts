import { isIP } from 'node:net';
import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OPS, ProblemError, TRACE_ID_PATTERN, type RefusalWindowMessage } from '@coffer/contracts';
import { RpcClient } from '@coffer/bus';
import { auditRefusalsDropped } from '@coffer/observability';
import { HeaderNames } from '../http/coffer-headers';
import { PrincipalResolver } from './principal-resolver';
import type { GatewayRequest } from '../http/gateway-request';

/** How long counts wait before they go to token-service (which adds them to their minute's row). */
const FLUSH_MS = 5_000;

type Reason = RefusalWindowMessage['reason'];
type Held = { window: RefusalWindowMessage; attempts: number };

/**
 * The client address a refusal is recorded under: the address Fastify derived (the socket's, or a trusted proxy's
 * X-Forwarded-For entry, TRUST_PROXY), as a plain address (IPv4-mapped IPv6 as IPv4, no zone); anything else (a
 * misconfigured proxy passing a client's header on) is `unknown`, never the text the client sent.
 */
export function refusalSource(ip: string | undefined): string {
  let address = (ip ?? '').split('%')[0] ?? '';
  if (address.toLowerCase().startsWith('::ffff:') && isIP(address.slice(7)) === 4) address = address.slice(7);
  return isIP(address) ? address : 'unknown';
}

/**
 * Refused authentications for the audit trail (docs/audit.md): every 401 and 403 the gateway answers is counted per
 * (tenant if known, reason, client address, minute) and sent to token-service a few seconds later, so a flood of bad
 * keys costs one row per window and a counter, never a row per request, and never a database write on the hot path.
 * The tenant is the caller's (403), or the tenant a refused key belonged to while it was still cached (a key just
 * revoked); unknown keys count in the global bucket.
 *
 * What is sent always passes token-service's contract (source and trace id normalised here), and nothing is sent for
 * ever: a batch token-service refuses is dropped, and windows it could not take for a transport failure are sent
 * again at most MAX_ATTEMPTS times; both are logged and counted (coffer_audit_refusals_dropped_total).
 */
@Injectable()
export class RefusalTally implements OnModuleDestroy {
  /** Distinct (tenant, reason, source, minute) windows held: beyond, refusals count under source `*`. */
  static readonly MAX_KEYS = 5_000;
  /** Sends of one window before it is given up (a minute or so of bus outage at FLUSH_MS, plus the retries' own waits). */
  static readonly MAX_ATTEMPTS = 12;

  private readonly headers = new HeaderNames();
  private readonly logger = new Logger('RefusalTally');
  private counts = new Map<string, Held>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly rpc: RpcClient,
    private readonly resolver: PrincipalResolver,
  ) {}

  /**
   * The last counts go out while the bus is still open: Nest destroys this module before the messaging module it
   * imports (whose connection drains there), whereas every shutdown hook runs after all of that.
   */
  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
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
    this.count(tenantId, reason, refusalSource(request.ip), new Date(), req.traceId);
  }

  count(tenantId: string | undefined, reason: Reason, source: string, at: Date, traceId?: string): void {
    const minute = new Date(at);
    minute.setUTCSeconds(0, 0);
    const window: RefusalWindowMessage = { reason, source, windowStart: minute.toISOString(), count: 1 };
    if (tenantId) window.tenantId = tenantId;
    // the first refused request of the window: its trace id finds it in the gateway's request log
    if (traceId && TRACE_ID_PATTERN.test(traceId)) window.traceId = traceId;
    this.add(window, 0);
    this.schedule();
  }

  /** Adds a window's count to the one held under its key (or under source `*` when MAX_KEYS are held). */
  private add(window: RefusalWindowMessage, attempts: number): void {
    const keyOf = (source: string) => `${window.tenantId ?? ''}|${window.reason}|${source}|${window.windowStart}`;
    let key = keyOf(window.source);
    if (!this.counts.has(key) && this.counts.size >= RefusalTally.MAX_KEYS) {
      key = keyOf('*');
      window = { ...window, source: '*' };
    }
    const held = this.counts.get(key);
    if (!held) this.counts.set(key, { window, attempts });
    else {
      held.window.count += window.count;
      held.attempts = Math.max(held.attempts, attempts);
    }
  }

  /** One flush FLUSH_MS after the first count it carries (a one-shot timer, set again while counts are held). */
  private schedule(): void {
    if (this.timer || !this.counts.size) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().finally(() => this.schedule());
    }, FLUSH_MS);
    this.timer.unref();
  }

  /** Sends what was counted; see the class comment for what happens when that fails. */
  async flush(): Promise<void> {
    if (!this.counts.size) return;
    const batch = [...this.counts.values()];
    this.counts = new Map();
    try {
      await this.rpc.call(OPS.token.audit.refusals, { windows: batch.map((h) => h.window) }, { traceId: 'audit-refusals' });
    } catch (err) {
      const status = err instanceof ProblemError ? err.status : 502;
      if (status >= 400 && status < 500) return this.drop('rejected', batch.length, status);
      let given = 0;
      for (const h of batch) {
        if (h.attempts + 1 >= RefusalTally.MAX_ATTEMPTS) given++;
        else this.add(h.window, h.attempts + 1);
      }
      if (given) this.drop('undeliverable', given, status);
    }
  }

  private drop(reason: 'rejected' | 'undeliverable', windows: number, status: number): void {
    auditRefusalsDropped.inc({ reason }, windows);
    this.logger.warn(`refusal windows dropped (${reason}): ${windows} not stored (token.audit.refusals answered ${status})`);
  }
}
