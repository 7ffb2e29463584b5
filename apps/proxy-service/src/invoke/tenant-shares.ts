import { Injectable } from '@nestjs/common';
import { ProblemError } from '@coffer/contracts';
import { InFlightShares } from '@coffer/messaging';
import { proxyServiceConfig } from '../config';

/** One admitted call: `hold` counts bytes it keeps in memory (its answer) against its tenant until `release`. */
export interface Admission {
  hold(bytes: number): void;
  release(): void;
}

/**
 * proxy-service's capacity shared between tenants: its calls in flight (PROXY_MAX_IN_FLIGHT, the gateway's
 * InFlightShares: a per-tenant cap and a reserve for tenants below their fair share) and the bytes those calls hold
 * (PROXY_MAX_IN_FLIGHT_BYTES: request bodies, then destination answers until they are sent on). An answer's size is
 * only known once the destination sent it, and by then the call has been made, so bytes are never a reason to drop an
 * answer: each call reserves the size of its tenant's last answer when it is admitted, and a tenant whose calls would
 * then hold more than its share of the bytes (or any bytes, when the whole budget is held) is refused until its
 * answers are gone — a tenant of 4 MiB answers gets eight calls at once by default, one of small answers its share. Refusals are 503 at once, never queued; the gateway adds Retry-After.
 */
export class TenantShareBudget {
  private readonly calls: InFlightShares;
  private readonly bytesCap: number;
  private readonly bytes = new Map<string, number>();
  /** each tenant's last answer size: what its next call is expected to hold (reserved when it is admitted) */
  private readonly expected = new Map<string, number>();
  private totalBytes = 0;

  constructor(private readonly config: { maxInFlight: number; maxInFlightBytes: number; tenantSharePercent: number }) {
    this.calls = new InFlightShares(config.maxInFlight, config.tenantSharePercent);
    this.bytesCap = Math.max(1, Math.ceil((config.maxInFlightBytes * config.tenantSharePercent) / 100));
  }

  admit(tenant: string, requestBytes: number): Admission {
    const held = this.bytes.get(tenant) ?? 0;
    const expected = this.expected.get(tenant) ?? 0;
    // a tenant holding nothing is always admitted (one call); one whose answers are large gets fewer calls at once
    const overBytes =
      this.config.maxInFlightBytes > 0 && held > 0 && (held + requestBytes + expected > this.bytesCap || this.totalBytes >= this.config.maxInFlightBytes);
    const releaseCall = overBytes ? null : this.calls.tryAcquire(tenant);
    if (!releaseCall) throw new ProblemError(503, "proxy-service is busy with this tenant's calls; retry after the time given in Retry-After");
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
        this.expected.set(tenant, n);
      },
      release: () => {
        if (released) return;
        released = true;
        releaseCall();
        this.totalBytes -= mine;
        const left = (this.bytes.get(tenant) ?? 0) - mine;
        if (left > 0) this.bytes.set(tenant, left);
        else this.bytes.delete(tenant);
      },
    };
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
