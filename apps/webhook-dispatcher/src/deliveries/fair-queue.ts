/** How many attempts run at once: in all, per tenant, per receiver of a tenant. */
export interface FairLimits {
  total: number;
  perTenant: number;
  perReceiver: number;
}

interface ReceiverLane<T> {
  running: number;
  /** claimed retries (leased in the database): served before `fresh`, so their lease never runs out in the queue */
  leased: T[];
  fresh: T[];
}

interface TenantLane<T> {
  running: number;
  queued: number;
  receivers: Map<string, ReceiverLane<T>>;
}

/**
 * The dispatcher's attempts, shared out fairly (docs/events.md, "Fair delivery"): each tenant, then each receiver of
 * a tenant, takes its turn round robin, and none runs more than its limit at once, so a tenant whose receivers hang
 * holds at most `perTenant` of the `total` slots and another tenant's delivery starts as soon as it is queued.
 * `admit` is asked before a receiver's attempt starts (its circuit breaker): `defer` hands everything the receiver
 * has queued to `defer` at once, `wait` keeps it queued until one of its attempts ends.
 */
export class FairQueue<T> {
  private readonly tenants = new Map<string, TenantLane<T>>();
  private runningTotal = 0;
  private queuedTotal = 0;
  private stopped = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly limits: FairLimits,
    private readonly admit: (receiver: string, running: number) => 'run' | 'wait' | 'defer',
    private readonly run: (item: T, receiver: string) => Promise<void>,
    private readonly defer: (items: T[], receiver: string) => void,
    /** an attempt ended (a slot is free) */
    private readonly onSlotFree: () => void = () => undefined,
  ) {}

  /** Attempts running and queued, in all. */
  get load(): number {
    return this.runningTotal + this.queuedTotal;
  }

  /** A tenant's attempts running and queued. */
  loadOf(tenant: string): number {
    const lane = this.tenants.get(tenant);
    return lane ? lane.running + lane.queued : 0;
  }

  /** Tenants with at least their share running or queued already (the claims leave their rows for later). */
  saturated(): string[] {
    return [...this.tenants].filter(([, lane]) => lane.running + lane.queued >= this.limits.perTenant).map(([t]) => t);
  }

  push(tenant: string, receiver: string, item: T, leased = false): void {
    let lane = this.tenants.get(tenant);
    if (!lane) this.tenants.set(tenant, (lane = { running: 0, queued: 0, receivers: new Map() }));
    let r = lane.receivers.get(receiver);
    if (!r) lane.receivers.set(receiver, (r = { running: 0, leased: [], fresh: [] }));
    (leased ? r.leased : r.fresh).push(item);
    lane.queued++;
    this.queuedTotal++;
    this.pump();
  }

  /** Stops starting attempts; returns what was queued. Those running go on ({@link idle}). */
  stop(): T[] {
    this.stopped = true;
    const waiting: T[] = [];
    for (const lane of this.tenants.values()) {
      for (const r of lane.receivers.values()) waiting.push(...r.leased.splice(0), ...r.fresh.splice(0));
      lane.queued = 0;
    }
    this.queuedTotal = 0;
    return waiting;
  }

  /** Resolves once no attempt runs. */
  idle(): Promise<void> {
    if (!this.runningTotal) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private pump(): void {
    let started = true;
    while (started && !this.stopped && this.queuedTotal && this.runningTotal < this.limits.total) {
      started = false;
      for (const tenant of [...this.tenants.keys()]) {
        if (this.runningTotal >= this.limits.total) break;
        const lane = this.tenants.get(tenant);
        if (!lane || !lane.queued || lane.running >= this.limits.perTenant) continue;
        if (this.startOne(tenant, lane)) {
          started = true;
          // served: to the back of the round
          this.tenants.delete(tenant);
          this.tenants.set(tenant, lane);
        }
      }
    }
  }

  /** Starts the next attempt of one of the tenant's receivers, round robin; false when none may start now. */
  private startOne(tenant: string, lane: TenantLane<T>): boolean {
    for (const key of [...lane.receivers.keys()]) {
      const r = lane.receivers.get(key) as ReceiverLane<T>;
      const queued = r.leased.length + r.fresh.length;
      if (!queued || r.running >= this.limits.perReceiver) continue;
      const verdict = this.admit(key, r.running);
      if (verdict === 'wait') continue;
      if (verdict === 'defer') {
        const items = [...r.leased.splice(0), ...r.fresh.splice(0)];
        this.dequeued(lane, items.length);
        this.forget(tenant, lane, key, r);
        this.defer(items, key);
        continue;
      }
      const item = (r.leased.length ? r.leased.shift() : r.fresh.shift()) as T;
      this.dequeued(lane, 1);
      r.running++;
      lane.running++;
      this.runningTotal++;
      lane.receivers.delete(key);
      lane.receivers.set(key, r);
      void this.run(item, key)
        .catch(() => undefined)
        .finally(() => this.ended(tenant, key));
      return true;
    }
    return false;
  }

  private ended(tenant: string, receiver: string): void {
    const lane = this.tenants.get(tenant) as TenantLane<T>;
    const r = lane.receivers.get(receiver) as ReceiverLane<T>;
    r.running--;
    lane.running--;
    this.runningTotal--;
    // the tenant whose attempt ended goes to the back of the round: the slot goes to the others first
    this.tenants.delete(tenant);
    this.tenants.set(tenant, lane);
    this.forget(tenant, lane, receiver, r);
    if (!this.runningTotal) for (const w of this.idleWaiters.splice(0)) w();
    this.pump();
    this.onSlotFree();
  }

  private dequeued(lane: TenantLane<T>, n: number): void {
    lane.queued -= n;
    this.queuedTotal -= n;
  }

  /** Lanes with nothing queued or running are dropped (a tenant comes back at the end of the round). */
  private forget(tenant: string, lane: TenantLane<T>, key: string, r: ReceiverLane<T>): void {
    if (r.running || r.leased.length || r.fresh.length) return;
    lane.receivers.delete(key);
    if (!lane.receivers.size) this.tenants.delete(tenant);
  }
}
