/**
 * Admission to a budget of in-flight requests shared by tenants, so one tenant's slow requests cannot take every slot.
 *
 * Two rules on top of the budget itself (`limit`):
 * - a hard cap: one tenant never holds more than `tenantCap` slots, however idle the others are;
 * - a reserve: the last `reserve` free slots go only to tenants below their fair share, `limit / (active + 1)`
 *   (the tenants holding slots now, plus room for one that has none yet). A tenant that arrives while others fill
 *   the budget therefore still finds slots, without the gateway having to preempt anyone.
 * Slots are never queued for: a refused request is answered 503 at once (Retry-After), like the budget itself.
 */
export class InFlightShares {
  private readonly held = new Map<string, number>();
  private total = 0;
  readonly tenantCap: number;
  readonly reserve: number;

  /** `tenantSharePercent`: the cap as a percentage of `limit` (rounded up, at least 1). `limit` 0 admits everything. */
  constructor(
    readonly limit: number,
    tenantSharePercent: number,
  ) {
    this.tenantCap = limit > 0 ? Math.max(1, Math.ceil((limit * tenantSharePercent) / 100)) : 0;
    // an eighth of the budget: 8 of the default 64 (none when there is a single slot)
    this.reserve = limit > 1 ? Math.max(1, Math.ceil(limit / 8)) : 0;
  }

  get inFlight(): number {
    return this.total;
  }

  heldBy(tenant: string): number {
    return this.held.get(tenant) ?? 0;
  }

  /** Takes a slot for `tenant` and returns its release (call once), or null when the tenant is over its share. */
  tryAcquire(tenant: string): (() => void) | null {
    if (this.limit <= 0) return () => undefined;
    const mine = this.heldBy(tenant);
    if (this.total >= this.limit || mine >= this.tenantCap) return null;
    const active = this.held.size + (mine === 0 ? 1 : 0);
    const fair = Math.max(1, Math.floor(this.limit / (active + 1)));
    if (mine >= fair && this.limit - this.total <= this.reserve) return null;
    this.held.set(tenant, mine + 1);
    this.total++;
    return releaseOnce(() => {
      this.total--;
      const left = this.heldBy(tenant) - 1;
      if (left > 0) this.held.set(tenant, left);
      else this.held.delete(tenant);
    });
  }
}

/** A plain budget (requests not yet authenticated): `limit` 0 admits everything. */
export class InFlightBudget {
  private count = 0;
  constructor(readonly limit: number) {}

  get inFlight(): number {
    return this.count;
  }

  tryAcquire(): (() => void) | null {
    if (this.limit <= 0) return () => undefined;
    if (this.count >= this.limit) return null;
    this.count++;
    return releaseOnce(() => this.count--);
  }
}

/** A slot's release: a second call (an error path after the normal one) gives nothing back twice. */
function releaseOnce(release: () => void): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
  };
}
