/**
 * The host side of formula `fetch` and `req.svc` calls: what a worker forwards (`call` messages) is parsed as
 * untrusted, counted against the invocation's limits, run - `fetch` through the egress policy (`@coffer/egress`),
 * `svc` through the caller's SvcBridge - under the invocation's deadline and abort signal, and answered as JSON
 * (never a host error message). At most `maxConcurrentCalls` calls of one invocation run at once; more wait.
 */
import { egressFetch, EgressFetchError, HostAllowList, normalizeHostName, type EgressPolicy } from '@coffer/egress';
import { parseUntrustedJson } from './outcome';
import { DEFAULTS, type WorkerToHost } from './protocol';
import { SVC_METHODS, type EgressRecord, type EgressRule, type SvcBridge } from './types';

const SVC_METHOD_SET: ReadonlySet<string> = new Set(SVC_METHODS);

/** Per-invocation bookkeeping of its calls. */
export interface CallState {
  calls: Map<number, AbortController>;
  inflight: number;
  waiting: Array<() => void>;
  svcCount: number;
  fetchCount: number;
}

/** What the broker needs to know of an invocation. */
export interface BrokeredInvocation {
  deadline: number;
  /** The invocation has ended: answers are dropped, waiting calls give up. */
  readonly finished: boolean;
  /** The SvcBridge, when the invocation may use `req.svc`. */
  svc: SvcBridge | null;
  calls: CallState;
  /** Which hosts `fetch` may reach (resolved on the first fetch when it is a function). */
  egress?: EgressRule | (() => Promise<EgressRule>);
  /** The tenant, for egress records. */
  tenant?: string;
}

export type CallMessage = Extract<WorkerToHost, { t: 'call' }>;
/** Sends the answer to the worker (dropped by the pool if the invocation is over). */
export type Reply = (ok: boolean, payload: string, body?: Uint8Array) => void;

export function newCallState(): CallState {
  return { calls: new Map(), inflight: 0, waiting: [], svcCount: 0, fetchCount: 0 };
}

/** The host filter of an egress rule, or undefined when every (public) host may be reached. */
function hostFilter(rule: EgressRule): ((host: string) => boolean) | undefined {
  if (rule.unlisted === 'allow' && rule.allow === null) return undefined;
  const list = new HostAllowList(rule.allow ?? []);
  return (host) => list.allows(host);
}

function hostOf(url: string): string {
  try {
    return normalizeHostName(new URL(url).hostname).slice(0, 253);
  } catch {
    return '';
  }
}

const OUTCOME_OF: Partial<Record<EgressFetchError['type'], EgressRecord['outcome']>> = {
  'egress-denied': 'denied',
  'request-timeout': 'timeout',
  aborted: 'aborted',
};

export class CallBroker {
  private readonly filters = new WeakMap<BrokeredInvocation, Promise<((host: string) => boolean) | undefined>>();

  constructor(
    readonly egress: EgressPolicy,
    private readonly maxFetchBytes: number,
    private readonly onEgress?: (record: EgressRecord) => void,
  ) {}

  /** The invocation's host filter, worked out once (a lazy rule is looked up on the first fetch). */
  private filterFor(inv: BrokeredInvocation): Promise<((host: string) => boolean) | undefined> {
    let filter = this.filters.get(inv);
    if (!filter) {
      const rule = inv.egress;
      filter = rule === undefined ? Promise.resolve(undefined) : typeof rule === 'function' ? rule().then(hostFilter) : Promise.resolve(hostFilter(rule));
      this.filters.set(inv, filter);
    }
    return filter;
  }

  async handle(inv: BrokeredInvocation, msg: CallMessage, reply: Reply): Promise<void> {
    const state = inv.calls;
    const limit = msg.kind === 'svc' ? ++state.svcCount > DEFAULTS.maxSvcCalls : ++state.fetchCount > DEFAULTS.maxFetchCalls;
    if (limit) {
      const payload =
        msg.kind === 'svc'
          ? JSON.stringify({ status: 429, body: { status: 429, title: 'Too many svc calls in one invocation' } })
          : JSON.stringify({ message: 'Too many fetch calls in one invocation', type: 'system', code: 'ERR_SANDBOX_CALLS' });
      reply(false, payload);
      return;
    }
    const ac = new AbortController();
    state.calls.set(msg.callId, ac);
    await this.acquire(state);
    try {
      if (inv.finished || ac.signal.aborted) return;
      if (msg.kind === 'fetch') await this.fetch(inv, msg, ac, reply);
      else await this.svc(inv, msg, ac, reply);
    } finally {
      state.calls.delete(msg.callId);
      this.release(state);
    }
  }

  /** The formula gave up on a call (abort), or the worker cancelled it. */
  cancel(inv: BrokeredInvocation, callId: number): void {
    inv.calls.calls.get(callId)?.abort();
  }

  /** The invocation ended: every call is aborted, every waiting one wakes up (and sees `finished`). */
  endAll(inv: BrokeredInvocation): void {
    const state = inv.calls;
    for (const ac of state.calls.values()) ac.abort();
    state.calls.clear();
    const waiting = state.waiting;
    state.waiting = [];
    for (const wake of waiting) wake();
  }

  private async acquire(state: CallState): Promise<void> {
    if (state.inflight < DEFAULTS.maxConcurrentCalls) {
      state.inflight++;
      return;
    }
    await new Promise<void>((resolve) => state.waiting.push(resolve));
    state.inflight++;
  }

  private release(state: CallState): void {
    state.inflight--;
    const next = state.waiting.shift();
    if (next) next();
  }

  private async fetch(inv: BrokeredInvocation, msg: CallMessage, ac: AbortController, reply: Reply): Promise<void> {
    const fail = (message: string, type: string, code?: string) => reply(false, JSON.stringify({ message, type, ...(code ? { code } : {}) }));
    let meta: { url?: unknown; method?: unknown; headers?: unknown; redirect?: unknown; timeout?: unknown; size?: unknown };
    try {
      meta = parseUntrustedJson(msg.payload) as typeof meta;
      if (meta === null || typeof meta !== 'object') throw new Error('bad');
    } catch {
      return fail('Invalid fetch request', 'system');
    }
    if (typeof meta.url !== 'string') return fail('Invalid URL', 'system');
    const headers = Array.isArray(meta.headers)
      ? meta.headers.filter((p): p is [string, string] => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string')
      : [];
    const redirect = meta.redirect === 'manual' || meta.redirect === 'error' ? meta.redirect : 'follow';
    const timeout = typeof meta.timeout === 'number' && meta.timeout > 0 ? meta.timeout : Infinity;
    const size = typeof meta.size === 'number' && meta.size > 0 ? meta.size : Infinity;
    let hostAllowed: ((host: string) => boolean) | undefined;
    try {
      hostAllowed = await this.filterFor(inv);
    } catch {
      // the tenant's default could not be read: nothing leaves rather than everything
      return fail('request failed, reason: the egress policy is unavailable', 'system');
    }
    const started = Date.now();
    const record = (outcome: EgressRecord['outcome'], status: number | undefined, bytes: number) =>
      this.onEgress?.({
        host: hostOf(meta.url as string),
        outcome,
        ...(status !== undefined ? { status } : {}),
        bytes,
        durationMs: Date.now() - started,
        ...(inv.tenant ? { tenant: inv.tenant } : {}),
      });
    try {
      const res = await egressFetch(
        this.egress,
        {
          url: meta.url,
          method: typeof meta.method === 'string' ? meta.method : 'GET',
          headers,
          body: msg.body instanceof Uint8Array ? msg.body : null,
          redirect,
        },
        {
          deadline: Math.min(inv.deadline, Date.now() + timeout),
          maxResponseBytes: Math.min(this.maxFetchBytes, size),
          maxRequestBytes: this.maxFetchBytes,
          signal: ac.signal,
          hostAllowed,
        },
      );
      record('ok', res.status, res.body.byteLength);
      reply(true, JSON.stringify({ status: res.status, statusText: res.statusText, url: res.url, redirected: res.redirected, headers: res.headers }), res.body);
    } catch (e) {
      record(e instanceof EgressFetchError ? (OUTCOME_OF[e.type] ?? 'error') : 'error', undefined, 0);
      if (!(e instanceof EgressFetchError)) return fail('request failed', 'system');
      const denied = e.type === 'egress-denied';
      fail(e.message, denied ? 'system' : e.type, e.code ?? (denied ? 'EGRESS_DENIED' : undefined));
    }
  }

  private async svc(inv: BrokeredInvocation, msg: CallMessage, ac: AbortController, reply: Reply): Promise<void> {
    const fail = (status: number, body: unknown) => {
      let payload: string;
      try {
        payload = JSON.stringify({ status, body });
      } catch {
        payload = JSON.stringify({ status: 500, body: { status: 500, title: 'Internal Server Error' } });
      }
      reply(false, payload);
    };
    if (!inv.svc) return fail(403, { status: 403, title: 'Forbidden', detail: 'The reactor has no application' });
    let call: { method?: unknown; args?: unknown };
    try {
      call = parseUntrustedJson(msg.payload) as typeof call;
      if (call === null || typeof call !== 'object') throw new Error('bad');
    } catch {
      return fail(400, { status: 400, title: 'Bad Request' });
    }
    if (typeof call.method !== 'string' || !SVC_METHOD_SET.has(call.method) || !Array.isArray(call.args) || call.args.length > 2) {
      return fail(400, { status: 400, title: 'Bad Request', detail: 'Unknown svc method' });
    }
    try {
      const value = await inv.svc.call(call.method, call.args, { deadline: inv.deadline, signal: ac.signal });
      let payload: string;
      try {
        payload = value === undefined ? '' : JSON.stringify(value);
      } catch {
        return fail(500, { status: 500, title: 'Internal Server Error' });
      }
      reply(true, payload ?? '');
    } catch (e) {
      const err = e as { status?: unknown; body?: unknown } | null;
      if (err && typeof err === 'object' && typeof err.status === 'number' && Number.isInteger(err.status)) {
        fail(err.status, err.body ?? { status: err.status });
      } else {
        // never reflect host error messages into formula code
        fail(500, { status: 500, title: 'Internal Server Error' });
      }
    }
  }
}
