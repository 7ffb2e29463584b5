import { Injectable } from '@nestjs/common';
import { ProblemError } from '@coffer/contracts';
import { InFlightShares } from '@coffer/bus';
import { proxyServiceConfig } from '../config';

export interface ShareBudgetConfig {
  maxInFlight: number;
  maxInFlightBytes: number;
  tenantSharePercent: number;
  /** PROXY_MAX_BYTES_PER_SECOND (0 or absent: no rate bound) */
  maxBytesPerSecond?: number;
  /** PROXY_MAX_RESPONSE_BYTES: with a rate bound, what a tenant's first calls are expected to relay (below) */
  maxResponseBytes?: number;
}

/** How far ahead of its rate a tenant may run: a second of its bytes (a burst of 4 MiB answers by default). */
const RATE_BURST_MS = 1000;

/** One admitted call: `hold` counts bytes it keeps in memory (its answer) against its tenant until `release`. */
export interface Admission {
  hold(bytes: number): void;
  release(): void;
}

/**
 * proxy-service's capacity shared between tenants: its calls in flight (PROXY_MAX_IN_FLIGHT, the gateway's
 * InFlightShares: a per-tenant cap and a reserve for tenants below their fair share), the bytes those calls hold
 * (PROXY_MAX_IN_FLIGHT_BYTES: request bodies, then destination answers until they are sent on), and the bytes relayed
 * per second (PROXY_MAX_BYTES_PER_SECOND). An answer's size is only known once the destination sent it, and by then
 * the call has been made, so bytes are never a reason to drop an answer: each call reserves the size of its tenant's
 * last answer when it is admitted, and a tenant whose calls would then hold more than its share of the bytes (or any
 * bytes, when the whole budget is held) is refused until its answers are gone — a tenant of 4 MiB answers gets eight
 * calls at once by default, one of small answers its share.
 *
 * Bytes held bound memory, not work: every relayed answer is received, framed and written again by proxy-service and
 * the gateway, whose event loops every tenant shares, so a tenant of large answers that finish quickly could still
 * take both of them with few calls in flight. Its rate is bounded too, as a bucket of bytes (GCRA): each call is
 * charged its bytes against its tenant's clock, which runs at the tenant's share of PROXY_MAX_BYTES_PER_SECOND, and a
 * tenant more than a second of bytes ahead of its clock is refused until the clock catches up.
 * Refusals are 503 at once, never queued; the gateway adds Retry-After.
 */
export class TenantShareBudget {
  private readonly calls: InFlightShares;
  private readonly bytesCap: number;
  private readonly bytes = new Map<string, number>();
  /** each tenant's last answer size: what its next call is expected to hold (reserved when it is admitted) */
  private readonly expected = new Map<string, number>();
  private totalBytes = 0;

  /** bytes a second one tenant may relay (0: no rate bound) */
  private readonly tenantRate: number;
  /** what a call of a tenant none of whose answers was seen yet is expected to relay */
  private readonly firstAnswerGuess: number;
  /** each tenant's clock (ms): when the bytes charged to it so far are paid for at its rate */
  private readonly paidAt = new Map<string, number>();

  constructor(
    private readonly config: ShareBudgetConfig,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.calls = new InFlightShares(config.maxInFlight, config.tenantSharePercent);
    this.bytesCap = Math.max(1, Math.ceil((config.maxInFlightBytes * config.tenantSharePercent) / 100));
    this.tenantRate = Math.ceil(((config.maxBytesPerSecond ?? 0) * config.tenantSharePercent) / 100);
    this.firstAnswerGuess = this.tenantRate > 0 ? (config.maxResponseBytes ?? 0) : 0;
  }

  admit(tenant: string, requestBytes: number): Admission {
    const held = this.bytes.get(tenant) ?? 0;
    // before any of a tenant's answers is seen, each call is expected to bring the largest answer: otherwise a first
    // burst of calls is charged nothing and brings a second's worth of large answers at once. The difference is given
    // back when the answer comes, so a tenant of small answers loses nothing but its first burst's size.
    const expected = this.expected.get(tenant) ?? this.firstAnswerGuess;
    // a tenant holding nothing is always admitted (one call); one whose answers are large gets fewer calls at once
    const overBytes =
      this.config.maxInFlightBytes > 0 && held > 0 && (held + requestBytes + expected > this.bytesCap || this.totalBytes >= this.config.maxInFlightBytes);
    if (this.aheadMs(tenant) > RATE_BURST_MS)
      throw new ProblemError(503, "This tenant's proxied bytes are over its share of proxy-service's throughput; retry after the time given in Retry-After");
    const releaseCall = overBytes ? null : this.calls.tryAcquire(tenant);
    if (!releaseCall) throw new ProblemError(503, "proxy-service is busy with this tenant's calls; retry after the time given in Retry-After");
    this.charge(tenant, requestBytes + expected);
    let answered = false;
    let mine = 0;
    const hold = (n: number) => {
      mine += n;
      this.totalBytes += n;
      this.bytes.set(tenant, (this.bytes.get(tenant) ?? 0) + n);
    };
    hold(requestBytes + expected);
    let released = false;
    return {
      hold: (n) => {
        if (released) return;
        // the answer replaces what was reserved for it, and is what the tenant's next call expects
        hold(n - expected);
        this.charge(tenant, n - expected);
        answered = true;
        this.expected.set(tenant, n);
      },
      release: () => {
        if (released) return;
        released = true;
        // a call that ended without an answer (refused, timed out, too large) relayed none of the bytes reserved for it
        if (!answered) this.charge(tenant, -expected);
        releaseCall();
        this.totalBytes -= mine;
        const left = (this.bytes.get(tenant) ?? 0) - mine;
        if (left > 0) this.bytes.set(tenant, left);
        else this.bytes.delete(tenant);
      },
    };
  }

  /** How far (ms) a tenant's clock is ahead of now: the time its relayed bytes still need at its rate. */
  private aheadMs(tenant: string): number {
    const paid = this.paidAt.get(tenant);
    if (paid === undefined) return 0;
    const ahead = paid - this.now();
    // a tenant whose clock has caught up is forgotten: the map holds only tenants with bytes still being paid for
    if (ahead <= 0) this.paidAt.delete(tenant);
    return ahead;
  }

  /** Moves a tenant's clock by the time its bytes take at its rate; a refund never takes it back past now. */
  private charge(tenant: string, bytes: number): void {
    if (this.tenantRate === 0 || bytes === 0) return;
    const now = this.now();
    const paid = this.paidAt.get(tenant);
    const moved = (bytes > 0 ? Math.max(paid ?? now, now) : (paid ?? now)) + (bytes * 1000) / this.tenantRate;
    if (moved > now) this.paidAt.set(tenant, moved);
    else this.paidAt.delete(tenant);
  }

  /** bytes held by a tenant's calls now (tests, metrics) */
  heldBytes(tenant: string): number {
    return this.bytes.get(tenant) ?? 0;
  }
}

/** proxy-service's shares, sized by its configuration. */
@Injectable()
export class TenantShares extends TenantShareBudget {
  constructor() {
    super(proxyServiceConfig());
  }
}
