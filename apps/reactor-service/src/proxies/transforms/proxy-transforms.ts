import { Injectable } from '@nestjs/common';
import {
  OPS,
  ProblemError,
  REACTOR_LIMITS,
  badRequest,
  effectiveEgressRule,
  type Principal,
  type ProxyTransformMessage,
  type ProxyTransformResult,
  type ProxyTransformView,
} from '@coffer/contracts';
import { RpcClient } from '@coffer/bus';
import { REACTOR_ERRORS } from '@coffer/sandbox';
import { ApplicationDirectory } from '../../reactors/application-directory';
import { ReactorSandbox } from '../../invoke/reactor-sandbox';
import { TokenSvcBridge } from '../../invoke/svc-bridge';
import { TenantEgressDefault } from '../../invoke/tenant-egress-default';
import { sandboxFailure } from '../../invoke/reactor-runner';
import { ProxiesService } from '../proxies.service';
import type { ProxyRow } from '../proxy.repository';
import type { ProxySecrets } from '../proxy-vault';
import { reactorServiceConfig } from '../../config';
import { asCaller, type CallerContext } from '@coffer/operations';
import { CallBudget, jobProblem } from './call-budget';
import { headerObject, readBytes, writeBytes, type ProxyMessage } from './proxy-message';
import { PURE_TRANSFORMS, type JobBudget, type JobResult, type TransformJob, type WireMessage } from './transform-steps';
import { TransformWorkers } from './transform-workers';

/** What each step may use: the proxy, its secrets, and (resolved once, when a step needs it) its application. */
interface StepContext {
  /**
   * The operation's caller (proxy-service forwards the invoker's principal), captured when the run started: the proxy
   * is of its tenant, and the proxy's application and the tenant's egress default are looked up as it. Nothing is
   * created or called as it: tokenize and code's `svc` act as the proxy's application.
   */
  caller: CallerContext;
  proxy: ProxyRow;
  secrets: ProxySecrets;
  direction: 'request' | 'response';
  subject: ProxyTransformMessage['message'];
  application(): Promise<Principal | null>;
}

/**
 * Runs a pre-configured proxy's request or response transforms, in order, on one message. Transforms run here, next
 * to the proxy's secrets and the reactor sandbox: `code` runs in the sandbox with the reactors' limits and egress
 * policy, `tokenize` creates tokens as the proxy's application, the others are plain rewrites.
 */
@Injectable()
export class ProxyTransforms {
  constructor(
    private readonly proxies: ProxiesService,
    private readonly applications: ApplicationDirectory,
    private readonly sandbox: ReactorSandbox,
    private readonly rpc: RpcClient,
    private readonly egressDefaults: TenantEgressDefault,
    private readonly workers: TransformWorkers,
  ) {}

  private readonly config = reactorServiceConfig();

  async run(msg: ProxyTransformMessage): Promise<ProxyTransformResult> {
    const ctx = asCaller();
    const proxy = await this.proxies.find(ctx.principal.tenantId, msg.proxyId);
    const steps = (msg.direction === 'request' ? proxy.requestTransforms : proxy.responseTransforms) as unknown as ProxyTransformView[];
    if (!steps.length) return { headers: msg.message.headers, body: Buffer.from(msg.message.body, 'base64') };
    const secrets = await this.proxies.secretsOf(proxy);
    let app: Promise<Principal | null> | undefined;
    const step: StepContext = {
      caller: ctx,
      proxy,
      secrets,
      direction: msg.direction,
      subject: msg.message,
      application: () => (app ??= proxy.applicationId ? this.applications.principalOf(ctx, proxy.applicationId) : Promise.resolve(null)),
    };
    const budget = new CallBudget(this.config.proxyTransformBudgetMs, this.config.proxyTransformMaxBytes);
    let wire: WireMessage = { headers: msg.message.headers, body: Buffer.from(msg.message.body, 'base64') };
    budget.checkSize(wire.body.length);
    for (let i = 0; i < steps.length; ) {
      const t = steps[i];
      if (PURE_TRANSFORMS.has(t.type)) {
        // a run of rewrites is one job of the transform threads
        let j = i;
        while (j < steps.length && PURE_TRANSFORMS.has(steps[j].type)) j++;
        const run = steps.slice(i, j);
        wire = (
          await this.job(ctx.principal.tenantId, budget, (b) => ({
            op: 'steps',
            message: wire,
            steps: run,
            configuration: secrets.configuration,
            direction: msg.direction,
            budget: b,
          }))
        ).message as WireMessage;
        i = j;
        continue;
      }
      wire = t.type === 'tokenize' ? await this.tokenize(t, wire, step, budget) : await this.codeStep(t, wire, step, budget);
      i++;
    }
    // bytes: the reply crosses the bus as they are (libs/bus wire-format.ts), not as base64 in JSON
    return { headers: wire.headers, body: Buffer.from(wire.body.buffer, wire.body.byteOffset, wire.body.byteLength) };
  }

  /** One job on the transform threads, charged to the call's budget; its failure is the caller's problem. */
  private async job(tenantId: string, budget: CallBudget, make: (b: JobBudget) => TransformJob): Promise<Extract<JobResult, { ok: true }>> {
    const result = await budget.charge(() => this.workers.run(tenantId, make(budget.forJob())));
    if (result.ok) return result;
    throw jobProblem(result);
  }

  /**
   * Each value the JSONPath finds in the JSON body becomes a token (created as the proxy's application) and its id.
   * Finding and replacing are jobs of the transform threads; creating the tokens is token-service's.
   */
  private async tokenize(t: ProxyTransformView, wire: WireMessage, s: StepContext, budget: CallBudget): Promise<WireMessage> {
    const path = t.expression as string;
    const { values } = await this.job(s.caller.principal.tenantId, budget, (b) => ({ op: 'find', message: wire, path, budget: b }));
    if (!values?.length) return wire;
    const application = await s.application();
    if (!application) throw badRequest("The proxy's application no longer exists: update the proxy with another application");
    const template = (t.options?.token ?? {}) as Record<string, unknown>;
    const payload = values.map((data) => ({ type: 'token', ...template, data }));
    // as the proxy's application, never as the caller
    const created = (await this.rpc.call(OPS.token.tokens.tokenize, { payload }, { principal: application, traceId: s.caller.traceId })) as Array<{
      id: string;
    }>;
    const ids = created.map((c) => c.id);
    return (await this.job(s.caller.principal.tenantId, budget, (b) => ({ op: 'replace', message: wire, path, values: ids, budget: b })))
      .message as WireMessage;
  }

  /**
   * A code step: the sandbox has its own time limit (the reactors'), so only the body's size is charged to the
   * call's budget. The body is parsed here (the sandbox takes the argument as a value), at most the byte budget.
   */
  private async codeStep(t: ProxyTransformView, wire: WireMessage, s: StepContext, budget: CallBudget): Promise<WireMessage> {
    const m = readBytes(wire.headers, Buffer.from(wire.body.buffer, wire.body.byteOffset, wire.body.byteLength));
    const out = await this.code(t.code as string, m, s);
    const body = writeBytes(out);
    budget.checkSize(body.length);
    return { headers: out.headers, body };
  }

  /**
   * The step's code in the reactor sandbox, isolated by tenant, with the sync reactors' time limit and the tenant's
   * egress default. It gets `{args: {body, headers, method, path, query | status}, configuration, bt}` and returns
   * `{body, headers}` (either may be left out: unchanged).
   */
  private async code(code: string, m: ProxyMessage, s: StepContext): Promise<ProxyMessage> {
    const application = await s.application();
    const args =
      s.direction === 'request'
        ? {
            body: argBody(m),
            headers: headerObject(m.headers),
            method: s.subject.method,
            path: s.subject.path,
            query: s.subject.query ? `?${s.subject.query}` : '',
          }
        : { body: argBody(m), headers: headerObject(m.headers), status: s.subject.status };
    const outcome = await this.sandbox.run(
      {
        code: asTransformModule(code),
        args,
        configuration: s.secrets.configuration,
        svc: application !== null,
        timeoutMs: REACTOR_LIMITS.syncTimeoutMs,
        tenant: s.caller.principal.tenantId,
        // called by the sandbox pool, maybe later: the values captured at the start of the run, never the context then
        egress: () => this.egressDefaults.get(s.caller.principal, s.caller.traceId).then((d) => effectiveEgressRule(null, d)),
      },
      // `svc` acts as the proxy's application, bound to this run
      application ? new TokenSvcBridge(this.rpc, application, s.caller.traceId) : null,
    );
    if (!outcome.ok) throw sandboxFailure(outcome);
    const result = outcome.result.raw;
    if (result === null || typeof result !== 'object' || Array.isArray(result)) throw transformFailure('must return an object with body and headers');
    const { body, headers } = result as { body?: unknown; headers?: unknown };
    let out = m;
    if (headers !== undefined) {
      if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) throw transformFailure('headers must be an object');
      const pairs = Object.entries(headers as Record<string, unknown>)
        .filter(([, v]) => v !== undefined && v !== null)
        .map(([k, v]) => [k.toLowerCase(), String(v)] as [string, string]);
      if (pairs.some(([k, v]) => !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(k) || /[\0\r\n]/.test(v)))
        throw transformFailure('headers must be valid HTTP header names and values');
      out = { ...out, headers: pairs };
    }
    if (body !== undefined) out = { ...out, body: returnedBody(m, body) };
    return out;
  }
}

/** The body as code sees it: parsed JSON, text, or (bytes) base64 text. */
function argBody(m: ProxyMessage): unknown {
  return m.body.kind === 'bytes' ? m.body.value.toString('base64') : m.body.value;
}

/** What code returned as the body: a string stands for bytes (base64) where the body was bytes, as code was given it. */
function returnedBody(m: ProxyMessage, body: unknown): ProxyMessage['body'] {
  if (typeof body !== 'string') return { kind: 'json', value: body };
  return m.body.kind === 'bytes' ? { kind: 'bytes', value: Buffer.from(body, 'base64') } : { kind: 'text', value: body };
}

function transformFailure(message: string): ProblemError {
  const { status, title } = REACTOR_ERRORS['ReactorRuntimeError'];
  return new ProblemError(status, title, { error: [`Proxy transform: ${message}`] }, title);
}

/**
 * A transform module as a reactor module: the sandbox's result contract is the reactor's (`raw`), so the transform's
 * own module is evaluated inside a function (on the same first line, so line numbers in errors stay the customer's)
 * and its answer returned as `raw`. `req.bt` is the mirrored service's name for the application's client.
 */
function asTransformModule(code: string): string {
  return (
    `const __transform = ((m) => { (function (module, exports) {${code}\n}).call(m.exports, m, m.exports); return m.exports; })({ exports: {} });\n` +
    "module.exports = async function (req) { if (typeof __transform !== 'function') throw new TypeError('The transform module must export a function: module.exports = async function (req) { ... }');" +
    ' return { raw: (await __transform({ args: req.args, configuration: req.configuration, bt: req.svc, svc: req.svc })) ?? null }; };'
  );
}
