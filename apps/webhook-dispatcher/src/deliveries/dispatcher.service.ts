import type { KeyObject } from 'node:crypto';
import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { OPS, SUBJECTS, type Principal } from '@coffer/contracts';
import { EgressPolicy, egressFetch } from '@coffer/egress';
import { CHANNELS, PgListener } from '@coffer/db';
import { EventBus, RpcClient } from '@coffer/bus';
import { WorkLoop, type TickResult } from '@coffer/db';
import { createLogger, inSpan } from '@coffer/observability';
import { DeliveryRepository, type ClaimedDelivery } from './delivery.repository';
import { webhookDispatcherConfig } from '../config';
import { RetrySchedule, parseRetryAfter } from './retry-schedule';
import { signingKeys } from './signer';
import { deliveryHeaders } from './delivery-request';
import { deliverySpan } from './delivery-span';
import { attemptsPerDelivery, deliveryLatency, measureQueueDepth } from './webhook-metrics';
import { FailingWebhooks } from '../notify/failing-webhooks';
import { FairQueue } from './fair-queue';
import { ReceiverBreakers, receiverUnavailable } from './receiver-breaker';
import { EndpointSecrets } from '../webhooks/endpoint-secrets';

/** deliveries claimed per round at most: one claim and one secrets lookup per tenant serve them all */
const BATCH = 64;
const MAX_RESPONSE_BYTES = 4096;
const NIL = '00000000-0000-0000-0000-000000000000';
/**
 * The relay hands deliveries off (first attempts, no row yet) while fewer than this many times the concurrency
 * limits wait or run here, in all and for the event's tenant; beyond, it queues them as rows for the claims.
 */
const HANDOFF_FACTOR = 4;
/**
 * Hand-offs (one per relay batch) share a tenant's signing keys for this long: a
 * lookup costs session-service a few milliseconds. After a rotation the previous secret signs for another 24 hours,
 * so a delivery signed with keys up to this old still verifies; the new secret's signature joins within it.
 */
const HANDOFF_KEYS_MS = 1000;
/** The last error of a delivery deferred by its receiver's open breaker (listed with the delivery). */
const DEFERRED = 'not attempted: the receiver was unavailable for its last attempts and is left alone for a while';

/** A batch's signing keys of a delivery: its webhook's own, or (reactor results, older webhooks) its tenant's */
type KeysOf = (d: ClaimedDelivery) => Promise<KeyObject[]>;
/** The receiver asked for no more deliveries (Standard Webhooks): the delivery fails at once, its webhook is disabled. */
const GONE = 410;

interface Attempt {
  d: ClaimedDelivery;
  keysOf: KeysOf;
}

/** How many more deliveries the relay may hand off, for the whole batch it relays ({@link DispatcherService.handOffBudget}). */
export interface HandOffBudget {
  /** Counts `n` deliveries of the tenant in; false (nothing counted) when there is no room for them. */
  take(tenantId: string, n: number): boolean;
}

/** A delivery's receiver, for the limits and the breaker: the tenant's URL origin (one host of two tenants is two receivers). */
export function receiverOf(d: Pick<ClaimedDelivery, 'tenant_id' | 'url'>): string {
  let origin = d.url ?? '';
  try {
    origin = new URL(origin).origin;
  } catch {
    /* not a URL (a deleted webhook's delivery): its own receiver */
  }
  return `${d.tenant_id} ${origin}`;
}

/**
 * Delivers events and asynchronous reactor results: attempts the deliveries the outbox relay hands off (first
 * attempts, recorded when they end) and claims due ones from PostgreSQL (retries, reactor results). The claims run
 * when woken — by reactor-service's NATS message for a job's result, the relay queuing deliveries, a resend, an attempt
 * ending while the claims had no room, a tenant's resumption (CHANNELS.tenantResumed), another replica giving its
 * deliveries back as it stops or the operator CLI's resend (CHANNELS.webhookDeliveries) — and at the time the next
 * retry comes due; otherwise only every WEBHOOK_POLL_INTERVAL_MS (the safety sweep, a minute by default). It POSTs
 * them signed per Standard Webhooks, records every attempt (attempts that end together in one statement) and
 * schedules retries. Every attempt takes its turn in one {@link FairQueue}: round robin over tenants and their
 * receivers, each within its concurrency limit, a receiver's circuit breaker asked first. Safe with several replicas.
 */
@Injectable()
export class DispatcherService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = createLogger('webhook-dispatcher');
  private readonly config = webhookDispatcherConfig();
  private readonly schedule = new RetrySchedule(this.config.webhookRetryScheduleMs);
  /** checked again at every delivery: the receiver's address may have changed since the job was accepted */
  private readonly policy = EgressPolicy.callbacks(this.config.allowPrivateCallbacks);
  private readonly breakers = new ReceiverBreakers(this.config.webhookBreakerFailures, this.config.webhookBreakerCooldownMs);
  private readonly queue = new FairQueue<Attempt>(
    { total: this.config.webhookConcurrency, perTenant: this.config.webhookTenantConcurrency, perReceiver: this.config.webhookReceiverConcurrency },
    (receiver, running) => this.breakers.admit(receiver, running),
    (a) =>
      this.deliver(a.d, a.keysOf).catch((err: unknown) =>
        this.logger.error({ err: { message: (err as Error).message }, deliveryId: a.d.id }, 'delivery error'),
      ),
    (deferred, receiver) => this.defer(deferred, receiver),
    () => {
      if (this.claimsStarved) this.loop.wake();
    },
  );
  private readonly loop = new WorkLoop(
    () => this.claimRound(),
    this.config.webhookPollIntervalMs,
    (err) => this.logger.error({ err: { message: (err as Error).message } }, 'delivery loop error'),
  );
  /** claimed deliveries waiting or running here (their leases run) */
  private leased = 0;
  /** the last round found no room: an attempt that ends wakes the claims */
  private claimsStarved = false;
  private accepting = false;
  private handOffKeys?: { keysOf: KeysOf; until: number };
  private draining?: Promise<void>;

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly rpc: RpcClient,
    private readonly events: EventBus,
    private readonly failing: FailingWebhooks,
    private readonly listener: PgListener,
    private readonly endpointSecrets: EndpointSecrets,
  ) {}

  /** Runs a delivery round now (the outbox relay queued new deliveries, a delivery was sent again). */
  wake(): void {
    this.loop.wake();
  }

  async onModuleInit(): Promise<void> {
    await this.events.subscribe(SUBJECTS.webhook.wake, () => this.loop.wake());
    await this.listener.on(CHANNELS.tenantResumed, () => this.loop.wake());
    await this.listener.on(CHANNELS.webhookDeliveries, () => this.loop.wake());
    // counted when /metrics is scraped, not on a timer
    measureQueueDepth(() => this.deliveries.pendingCount());
    this.accepting = true;
    this.loop.start();
  }

  /**
   * Stops taking work: what waits is recorded for the claims (due now, unattempted), what runs ends and is recorded.
   * Run on SIGTERM while the database pools are open (OutboxRelay.drain); again, as a no-op, at shutdown.
   */
  drain(): Promise<void> {
    this.draining ??= (async () => {
      this.accepting = false;
      // no claim round runs past this point, so nothing is queued after the queue stops
      await this.loop.stop();
      const waiting = this.queue.stop().map((a) => a.d);
      await this.deliveries.recordUnattempted(waiting).catch(() => undefined);
      // the other replicas' claims take them now rather than at their sweep
      if (waiting.length) await this.deliveries.announceGivenBack().catch(() => undefined);
      await this.queue.idle();
    })();
    return this.draining;
  }

  onApplicationShutdown(): Promise<void> {
    return this.drain();
  }

  /**
   * What the relay may hand off now (it then writes no row for those deliveries and hands them over once it has
   * settled its batch, {@link OutboxRelay}): while fewer than HANDOFF_FACTOR times the limits wait or run here,
   * in all and of the event's tenant. Beyond (slow receivers), the relay queues them for the claims.
   */
  handOffBudget(): HandOffBudget {
    const total = this.config.webhookConcurrency * HANDOFF_FACTOR;
    const perTenant = this.config.webhookTenantConcurrency * HANDOFF_FACTOR;
    let load = this.queue.load;
    const taken = new Map<string, number>();
    return {
      take: (tenantId, n) => {
        const tenantLoad = this.queue.loadOf(tenantId) + (taken.get(tenantId) ?? 0);
        if (!this.accepting || load >= total || tenantLoad >= perTenant) return false;
        load += n;
        taken.set(tenantId, (taken.get(tenantId) ?? 0) + n);
        return true;
      },
    };
  }

  /**
   * Attempts the first attempts of event deliveries the relay found, as a claim would have returned them: no row
   * written before, no claim statement, no wait for the next round. One secrets lookup per tenant for the hand-offs
   * of a second.
   */
  handOff(deliveries: readonly ClaimedDelivery[]): void {
    if (!deliveries.length) return;
    if (!this.accepting) {
      // handed off while this process began to shut down: the claims take them (here or in another replica)
      void this.deliveries
        .recordUnattempted(deliveries)
        .then(() => this.deliveries.announceGivenBack())
        .catch(() => undefined);
      return;
    }
    const now = Date.now();
    if (!this.handOffKeys || this.handOffKeys.until <= now) this.handOffKeys = { keysOf: this.batchKeys(), until: now + HANDOFF_KEYS_MS };
    const { keysOf } = this.handOffKeys;
    for (const d of deliveries) this.queue.push(d.tenant_id, receiverOf(d), { d, keysOf });
  }

  /**
   * One claim round: as many due deliveries as there is room for, none of the tenants that have their share queued
   * or running here already. It does not wait for their attempts (they take their turns in the queue). When it took
   * all there was, it says when the next one comes due.
   */
  private async claimRound(): Promise<TickResult> {
    const room = Math.min(BATCH, this.config.webhookConcurrency - this.leased);
    this.claimsStarved = room <= 0;
    if (this.claimsStarved || !this.accepting) return false;
    const claimed = await this.deliveries.claim(room, this.config.webhookTenantConcurrency, this.queue.saturated());
    const keysOf = this.batchKeys();
    for (const d of claimed) {
      this.leased++;
      this.queue.push(d.tenant_id, receiverOf(d), { d, keysOf }, true);
    }
    if (claimed.length === room) return true;
    return (await this.deliveries.nextDueInMs()) ?? false;
  }

  /** A receiver's breaker is open: its queued deliveries wait for the end of the cool-down, no attempt used. */
  private defer(deferred: Attempt[], receiver: string): void {
    const retryInMs = this.breakers.retryInMs(receiver);
    const ds = deferred.map((a) => a.d);
    this.logger.info({ deliveries: ds.length, retryInMs }, 'receiver unavailable: deliveries deferred');
    void this.deliveries
      .recordUnattempted(ds, retryInMs, DEFERRED)
      .catch((err: unknown) => this.logger.error({ err: { message: (err as Error).message } }, 'deferring deliveries failed'))
      .finally(() => {
        this.released(ds);
        // due again at the end of the cool-down: the claims run then
        this.loop.wakeIn(retryInMs);
      });
  }

  /** Claimed deliveries whose leases this process no longer holds. */
  private released(ds: readonly ClaimedDelivery[]): void {
    for (const d of ds) if (!d.handedOff) this.leased--;
  }

  /**
   * The signing keys of a batch of deliveries (a round; the hand-offs of a second): one secrets lookup and one key
   * import per webhook and per tenant for the whole batch, not one per delivery (a busy tenant's events come in
   * batches). An event delivery is signed with its webhook's own secret; a webhook created before webhooks had one,
   * and an asynchronous reactor result, with the tenant's.
   */
  private batchKeys(): KeysOf {
    const keys = new Map<string, Promise<KeyObject[]>>();
    const once = (id: string, load: () => Promise<KeyObject[]>) => {
      let found = keys.get(id);
      if (!found) {
        keys.set(id, (found = load()));
        // a failed lookup is not kept: the next delivery asks again
        found.catch(() => keys.delete(id));
      }
      return found;
    };
    const tenantKeys = (tenantId: string) => once(`tenant ${tenantId}`, () => this.secrets(tenantId).then(signingKeys));
    return (d) => {
      const webhookId = d.webhook_id;
      if (webhookId === null) return tenantKeys(d.tenant_id);
      return once(`webhook ${webhookId}`, async () => {
        const own = await this.endpointSecrets.signing(d.tenant_id, webhookId);
        return own.length ? signingKeys(own) : tenantKeys(d.tenant_id);
      });
    };
  }

  async deliver(d: ClaimedDelivery, keysOf: KeysOf = this.batchKeys()): Promise<void> {
    try {
      await this.attempt(d, keysOf);
    } finally {
      this.released([d]);
    }
  }

  private async attempt(d: ClaimedDelivery, keysOf: KeysOf): Promise<void> {
    if (d.url === null) {
      await this.deliveries.failed(d, 'the webhook was deleted');
      return;
    }
    const started = performance.now();
    let statusCode: number | undefined;
    let retryAfter: number | undefined;
    let error: string | undefined;
    // an event goes out in its envelope, stamped at each attempt (receivers may refuse stale replays by it)
    const body = d.webhook_id === null ? d.body : `{"event":${d.body},"delivered_at":${JSON.stringify(new Date().toISOString())}}`;
    try {
      const keys = await keysOf(d);
      const headers = deliveryHeaders({ id: d.id, body, keys, timestamp: Math.floor(Date.now() / 1000) });
      const url = d.url;
      // continues the trace of the request that wrote the event (its outbox row's context), else starts one; the
      // receiver gets the attempt's `traceparent` from the HTTP instrumentation
      const res = await inSpan('webhook deliver', deliverySpan(d), () =>
        egressFetch(
          this.policy,
          { url, method: 'POST', headers, body: Buffer.from(body, 'utf8'), redirect: 'manual' },
          { deadline: Date.now() + this.config.webhookAttemptTimeoutMs, maxResponseBytes: MAX_RESPONSE_BYTES },
        ),
      );
      statusCode = res.status;
      if (res.status < 200 || res.status >= 300) {
        error = `receiver answered ${res.status}`;
        retryAfter = parseRetryAfter(res.headers.find(([k]) => k === 'retry-after')?.[1]);
      }
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const attempt = { statusCode, durationMs: performance.now() - started, error };
    this.breakers.record(receiverOf(d), !!error && receiverUnavailable(statusCode));
    if (!error) {
      await this.deliveries.settle(d, attempt, { status: 'delivered' });
      deliveryLatency.observe((Date.now() - d.created_at.getTime()) / 1000);
      attemptsPerDelivery.labels('delivered').observe(d.attempts);
      this.logger.info({ deliveryId: d.id, attempt: d.attempts, statusCode, ms: Math.round(attempt.durationMs) }, 'webhook delivered');
      return;
    }
    // 410 Gone: the receiver wants no more deliveries, so this one is not retried and its webhook is disabled
    const gone = statusCode === GONE;
    const delay = gone ? null : this.schedule.nextDelay(d.attempts, retryAfter);
    if (delay === null) {
      await this.deliveries.settle(d, attempt, { status: 'failed', error });
      attemptsPerDelivery.labels('failed').observe(d.attempts);
      this.logger.warn({ deliveryId: d.id, attempt: d.attempts, statusCode }, 'webhook delivery failed for good');
      if (d.webhook_id !== null) await this.failing.disable(d.tenant_id, d.webhook_id, error, gone ? 'gone' : 'exhausted');
    } else {
      await this.deliveries.settle(d, attempt, { status: 'pending', retryInMs: delay, error });
      // the claims run when the retry comes due (another replica's claims find it by its due time, or their sweep)
      this.loop.wakeIn(delay);
      this.logger.info({ deliveryId: d.id, attempt: d.attempts, statusCode, retryInMs: delay }, 'webhook delivery will be retried');
    }
  }

  /** The tenant's signing secrets (session-service holds them). */
  private secrets(tenantId: string): Promise<string[]> {
    const principal: Principal = { tenantId, applicationId: NIL, applicationType: 'management', permissions: [] };
    return this.rpc.call<string[]>(OPS.session.tenants.webhookSecret, { signing: true }, { principal, traceId: `webhook-${tenantId}` });
  }
}
