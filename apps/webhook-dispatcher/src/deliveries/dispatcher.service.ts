import type { KeyObject } from 'node:crypto';
import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { OPS, SUBJECTS, type Principal } from '@coffer/contracts';
import { EgressPolicy, egressFetch } from '@coffer/egress';
import { EventBus, RpcClient, WorkLoop } from '@coffer/messaging';
import { createLogger } from '@coffer/observability';
import { DeliveryRepository, type ClaimedDelivery } from './delivery.repository';
import { webhookDispatcherConfig } from '../config';
import { RetrySchedule, parseRetryAfter } from './retry-schedule';
import { signatureHeader, signingKeys } from './signer';
import { attemptsPerDelivery, deliveryLatency, queueDepth } from './webhook-metrics';
import { FailingWebhooks } from '../notify/failing-webhooks';

/** deliveries per round: one claim and one secrets lookup per tenant serve them all */
const BATCH = 64;
const ATTEMPT_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 4096;
const NIL = '00000000-0000-0000-0000-000000000000';
/** the relay hands deliveries off (first attempts, no row yet) while fewer than this wait or run */
const HANDOFF_LIMIT = 256;
/** handed-off deliveries attempted at once */
const HANDOFF_CONCURRENCY = 64;
/**
 * Hand-offs (one per relay batch, every EVENT_RELAY_INTERVAL_MS) share a tenant's signing keys for this long: a
 * lookup costs session-service a few milliseconds. After a rotation the previous secret signs for another 24 hours,
 * so a delivery signed with keys up to this old still verifies; the new secret's signature joins within it.
 */
const HANDOFF_KEYS_MS = 1000;

/** A batch's signing keys per tenant */
type KeysOf = (tenantId: string) => Promise<KeyObject[]>;

interface HandedOff {
  d: ClaimedDelivery;
  keysOf: KeysOf;
}

/**
 * Delivers events and asynchronous reactor results: attempts the deliveries the outbox relay hands off (first
 * attempts, recorded when they end) and claims due ones from PostgreSQL (retries, reactor results; NATS only wakes it early),
 * POSTs them signed per Standard Webhooks, records every attempt (attempts that end together in one statement) and
 * schedules retries. Safe with several replicas.
 */
@Injectable()
export class DispatcherService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = createLogger('webhook-dispatcher');
  private readonly config = webhookDispatcherConfig();
  private readonly schedule = new RetrySchedule(this.config.webhookRetryScheduleMs);
  /** checked again at every delivery: the receiver's address may have changed since the job was accepted */
  private readonly policy = EgressPolicy.callbacks(this.config.allowPrivateCallbacks);
  private readonly loop = new WorkLoop(
    async () => {
      const claimed = await this.deliveries.claim(BATCH);
      const keysOf = this.batchKeys();
      await Promise.all(claimed.map((d) => this.deliver(d, keysOf)));
      return claimed.length === BATCH;
    },
    this.config.webhookPollIntervalMs,
    (err) => this.logger.error({ err: { message: (err as Error).message } }, 'delivery loop error'),
  );
  private gauge?: NodeJS.Timeout;
  private readonly handedOff: HandedOff[] = [];
  private handOffsRunning = 0;
  private accepting = false;
  private drained?: () => void;
  private handOffKeys?: { keysOf: KeysOf; until: number };
  private draining?: Promise<void>;

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly rpc: RpcClient,
    private readonly events: EventBus,
    private readonly failing: FailingWebhooks,
  ) {}

  /** Runs a delivery round now (the outbox relay queued new deliveries). */
  wake(): void {
    this.loop.wake();
  }

  async onModuleInit(): Promise<void> {
    await this.events.subscribe(SUBJECTS.webhook.wake, () => this.loop.wake());
    this.accepting = true;
    this.loop.start();
    this.gauge = setInterval(
      () =>
        void this.deliveries.pendingCount().then(
          (n) => queueDepth.set(n),
          () => undefined,
        ),
      5000,
    );
    this.gauge.unref();
  }

  /**
   * Stops taking work: what waits is recorded for the claims (due now, unattempted), what runs ends and is recorded.
   * Run on SIGTERM while the database pools are open (OutboxRelay.drain); again, as a no-op, at shutdown.
   */
  drain(): Promise<void> {
    this.draining ??= (async () => {
      if (this.gauge) clearInterval(this.gauge);
      this.accepting = false;
      const waiting = this.handedOff.splice(0).map((h) => h.d);
      await this.deliveries.recordUnattempted(waiting).catch(() => undefined);
      if (this.handOffsRunning) await new Promise<void>((r) => (this.drained = r));
      await this.loop.stop();
    })();
    return this.draining;
  }

  onApplicationShutdown(): Promise<void> {
    return this.drain();
  }

  /**
   * Whether the relay may hand deliveries off: it then writes no row for them and hands them over once its
   * transaction committed ({@link OutboxRelay}). Not while this many wait or run (slow receivers): the relay then
   * queues them for the claims.
   */
  acceptsHandOffs(): boolean {
    return this.accepting && this.handedOff.length + this.handOffsRunning < HANDOFF_LIMIT;
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
      void this.deliveries.recordUnattempted(deliveries).catch(() => undefined);
      return;
    }
    const now = Date.now();
    if (!this.handOffKeys || this.handOffKeys.until <= now) this.handOffKeys = { keysOf: this.batchKeys(), until: now + HANDOFF_KEYS_MS };
    const { keysOf } = this.handOffKeys;
    for (const d of deliveries) this.handedOff.push({ d, keysOf });
    this.pumpHandOffs();
  }

  private pumpHandOffs(): void {
    while (this.handOffsRunning < HANDOFF_CONCURRENCY && this.handedOff.length) {
      const h = this.handedOff.shift() as HandedOff;
      this.handOffsRunning++;
      void this.deliver(h.d, h.keysOf)
        .catch((err: unknown) => this.logger.error({ err: { message: (err as Error).message }, deliveryId: h.d.id }, 'delivery error'))
        .finally(() => {
          this.handOffsRunning--;
          if (this.accepting) this.pumpHandOffs();
          else if (!this.handOffsRunning) this.drained?.();
        });
    }
  }

  /**
   * The signing keys of a batch of deliveries (a round; the hand-offs of a second): one secrets lookup and one key
   * import per tenant for the whole batch, not one per delivery (a busy tenant's events come in batches).
   */
  private batchKeys(): KeysOf {
    const keys = new Map<string, Promise<KeyObject[]>>();
    return (tenantId) => {
      let found = keys.get(tenantId);
      if (!found) {
        keys.set(tenantId, (found = this.secrets(tenantId).then(signingKeys)));
        // a failed lookup is not kept: the next delivery asks again
        found.catch(() => keys.delete(tenantId));
      }
      return found;
    };
  }

  async deliver(d: ClaimedDelivery, keysOf: KeysOf = this.batchKeys()): Promise<void> {
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
      const keys = await keysOf(d.tenant_id);
      const timestamp = Math.floor(Date.now() / 1000);
      const res = await egressFetch(
        this.policy,
        {
          url: d.url,
          method: 'POST',
          headers: [
            ['content-type', 'application/json'],
            ['user-agent', 'Coffer-Webhooks/1'],
            ['webhook-id', d.id],
            ['webhook-timestamp', String(timestamp)],
            ['webhook-signature', signatureHeader(keys, d.id, timestamp, body)],
          ],
          body: Buffer.from(body, 'utf8'),
          redirect: 'manual',
        },
        { deadline: Date.now() + ATTEMPT_TIMEOUT_MS, maxResponseBytes: MAX_RESPONSE_BYTES },
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
    if (!error) {
      await this.deliveries.settle(d, attempt, { status: 'delivered' });
      deliveryLatency.observe((Date.now() - d.created_at.getTime()) / 1000);
      attemptsPerDelivery.labels('delivered').observe(d.attempts);
      this.logger.info({ deliveryId: d.id, attempt: d.attempts, statusCode, ms: Math.round(attempt.durationMs) }, 'webhook delivered');
      return;
    }
    const delay = this.schedule.nextDelay(d.attempts, retryAfter);
    if (delay === null) {
      await this.deliveries.settle(d, attempt, { status: 'failed', error });
      attemptsPerDelivery.labels('failed').observe(d.attempts);
      this.logger.warn({ deliveryId: d.id, attempt: d.attempts, statusCode }, 'webhook delivery failed for good');
      if (d.webhook_id !== null) await this.failing.disable(d.tenant_id, d.webhook_id, error);
    } else {
      await this.deliveries.settle(d, attempt, { status: 'pending', retryInMs: delay, error });
      this.logger.info({ deliveryId: d.id, attempt: d.attempts, statusCode, retryInMs: delay }, 'webhook delivery will be retried');
    }
  }

  /** The tenant's signing secrets (session-service holds them). */
  private secrets(tenantId: string): Promise<string[]> {
    const principal: Principal = { tenantId, applicationId: NIL, applicationType: 'management', permissions: [] };
    return this.rpc.call<string[]>(OPS.session.tenants.webhookSecret, { signing: true }, { principal, traceId: `webhook-${tenantId}` });
  }
}
