// Load on loopback that remembers everything: every logical write (a token create with its own
// SVC-IDEMPOTENCY-KEY and the data sent) and every HTTP attempt made for it (status, latency, phase), so the suite
// can check each acknowledged write afterwards and attribute failures to the fault that was active.
import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Statuses a client retries with the same idempotency key: the outcome is unknown or the service said "later". */
const RETRYABLE = new Set([409, 429, 500, 502, 503, 504]);

export class Recorder {
  constructor() {
    /** @type {Array<{ kind: string, key: string, phase: string, status: number, error?: string, ms: number, at: number, retryAfter?: string | null, problem?: boolean }>} */
    this.attempts = [];
    /** @type {Map<string, { kind: string, key: string, data: unknown, id?: string, status?: number, acknowledgedAt?: number, attempts: number, phase: string }>} */
    this.writes = new Map();
    this.phase = 'warm-up';
  }

  attemptsIn(phase) {
    return this.attempts.filter((a) => a.phase === phase);
  }
}

/** One HTTP client for the gateway with a hard client-side cut-off, so a hang shows up as a figure, not a stuck suite. */
export class GatewayClient {
  constructor(baseUrl, { connections = 64, cutoffMs = 30_000 } = {}) {
    this.baseUrl = baseUrl;
    this.cutoffMs = cutoffMs;
    this.agent = new Agent({ connections, headersTimeout: cutoffMs, bodyTimeout: cutoffMs, connectTimeout: 2_000, keepAliveTimeout: 4_000 });
  }

  /** Never throws: network failures come back as status 0 with `error`. */
  async send(method, path, { key, body, idempotencyKey, headers = {} } = {}) {
    const started = performance.now();
    const h = { ...headers };
    if (key) h['svc-api-key'] = key;
    if (idempotencyKey) h['svc-idempotency-key'] = idempotencyKey;
    if (body !== undefined) h['content-type'] = 'application/json';
    try {
      const res = await request(`${this.baseUrl}${path}`, {
        method,
        headers: h,
        body: body === undefined ? undefined : JSON.stringify(body),
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.cutoffMs),
      });
      const text = await res.body.text();
      let json;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return {
        status: res.statusCode,
        body: json,
        ms: performance.now() - started,
        retryAfter: res.headers['retry-after'] ?? null,
        contentType: String(res.headers['content-type'] ?? ''),
      };
    } catch (err) {
      // undici's codes are strings (ECONNREFUSED, UND_ERR_SOCKET); the client cut-off is a DOMException (numeric code)
      return { status: 0, error: typeof err.code === 'string' ? err.code : (err.name ?? 'error'), ms: performance.now() - started };
    }
  }

  close() {
    return this.agent.close();
  }
}

/**
 * Closed-loop writers: `clients` loops, each creating one token at a time and retrying it with the same key until
 * it is acknowledged (or `giveUpMs` passed), as a careful client would. Also a slow stream of asynchronous reactor
 * invocations when `reactorId` is given.
 */
export class LoadGenerator {
  constructor({ client, recorder, key, runId, clients = 8, giveUpMs = 60_000, reactorId, callbackUrl, asyncEveryMs = 250 }) {
    Object.assign(this, { client, recorder, key, runId, clients, giveUpMs, reactorId, callbackUrl, asyncEveryMs });
    this.running = false;
  }

  start() {
    this.running = true;
    this.loops = Array.from({ length: this.clients }, () => this.writerLoop());
    if (this.reactorId) this.loops.push(this.asyncLoop());
  }

  /** Stops issuing new writes; writes under way still finish their retries. */
  async stop() {
    this.running = false;
    await Promise.all(this.loops ?? []);
  }

  /**
   * Every other create goes without an idempotency key, once (never retried: a retry without a key may rightly write
   * twice). Those are the creates token-service group-commits; that none acknowledged is lost and none is written twice
   * under kill -9 is checked by their unique metadata key, as for the others.
   */
  async writerLoop() {
    for (let n = 0; this.running; n++) await (n % 2 ? this.createPlainToken() : this.createToken());
  }

  async asyncLoop() {
    while (this.running) {
      const started = Date.now();
      await this.react();
      await sleep(Math.max(0, this.asyncEveryMs - (Date.now() - started)));
    }
  }

  /** A token whose metadata names the run and its idempotency key, so duplicates can be counted per key later. */
  tokenBody(idempotencyKey) {
    return {
      type: 'token',
      data: { value: randomBytes(12).toString('hex'), n: this.recorder.writes.size },
      metadata: { fault_run: this.runId, fault_key: idempotencyKey },
    };
  }

  createToken(idempotencyKey = randomUUID()) {
    return this.write('token', idempotencyKey, '/tokens', this.tokenBody(idempotencyKey), 201);
  }

  async createPlainToken(key = randomUUID()) {
    const body = this.tokenBody(key);
    const w = { kind: 'token-plain', key, data: body, attempts: 1, phase: this.recorder.phase };
    this.recorder.writes.set(key, w);
    const res = await this.attempt('token-plain', undefined, '/tokens', body, key);
    w.status = res.status;
    w.error = res.error;
    if (res.status === 201) {
      w.id = res.body?.id;
      w.acknowledgedAt = Date.now();
    }
    return w;
  }

  react(idempotencyKey = randomUUID()) {
    const body = { args: { key: idempotencyKey }, callback_url: this.callbackUrl };
    return this.write('react', idempotencyKey, `/reactors/${this.reactorId}/react`, body, 202);
  }

  /** One logical write: attempts with the same key until acknowledged, refused for good, or out of time. */
  async write(kind, idempotencyKey, path, body, expected) {
    const w = { kind, key: idempotencyKey, data: body, attempts: 0, phase: this.recorder.phase };
    this.recorder.writes.set(idempotencyKey, w);
    const started = Date.now();
    let backoff = 100;
    for (;;) {
      const res = await this.attempt(kind, idempotencyKey, path, body);
      w.attempts++;
      w.status = res.status;
      w.error = res.error;
      if (res.status === expected) {
        w.id = res.body?.id;
        w.acknowledgedAt = Date.now();
        return w;
      }
      if ((res.status !== 0 && !RETRYABLE.has(res.status)) || Date.now() - started > this.giveUpMs) return w;
      const hinted = Number(res.retryAfter) * 1000;
      await sleep(Math.min(2_000, Number.isFinite(hinted) && hinted > 0 ? hinted : backoff));
      backoff = Math.min(1_000, backoff * 2);
    }
  }

  async attempt(kind, idempotencyKey, path, body, writeKey = idempotencyKey) {
    const res = await this.client.send('POST', path, { key: this.key, body, idempotencyKey });
    this.recorder.attempts.push({
      kind,
      key: writeKey,
      phase: this.recorder.phase,
      status: res.status,
      error: res.error,
      ms: res.ms,
      at: Date.now(),
      retryAfter: res.retryAfter,
      problem: res.contentType?.includes('application/problem+json'),
    });
    return res;
  }
}
