import { Injectable } from '@nestjs/common';
import { JSONPath } from 'jsonpath-plus';
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
import { RpcClient, type CallContext } from '@coffer/messaging';
import { REACTOR_ERRORS } from '@coffer/sandbox';
import { ApplicationDirectory } from '../../reactors/application-directory';
import { ReactorSandbox } from '../../invoke/reactor-sandbox';
import { TokenSvcBridge } from '../../invoke/svc-bridge';
import { TenantEgressDefault } from '../../invoke/tenant-egress-default';
import { sandboxFailure } from '../../invoke/reactor-runner';
import { ProxiesService } from '../proxies.service';
import type { ProxyRow } from '../proxy.repository';
import type { ProxySecrets } from '../proxy-vault';
import { setAt } from './json-location';
import { maskText } from './mask';
import { bodyText, headerObject, readMessage, setHeader, withConfiguration, writeMessage, type ProxyMessage } from './proxy-message';

type Ctx = CallContext & { principal: Principal };

/** What each step may use: the proxy, its secrets, and (resolved once, when a step needs it) its application. */
interface StepContext {
  ctx: Ctx;
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
  ) {}

  async run(ctx: Ctx, msg: ProxyTransformMessage): Promise<ProxyTransformResult> {
    const proxy = await this.proxies.find(ctx.principal.tenantId, msg.proxyId);
    const steps = (msg.direction === 'request' ? proxy.requestTransforms : proxy.responseTransforms) as unknown as ProxyTransformView[];
    if (!steps.length) return { headers: msg.message.headers, body: msg.message.body };
    const secrets = await this.proxies.secretsOf(proxy);
    let app: Promise<Principal | null> | undefined;
    const step: StepContext = {
      ctx,
      proxy,
      secrets,
      direction: msg.direction,
      subject: msg.message,
      application: () => (app ??= proxy.applicationId ? this.applications.principalOf(ctx, proxy.applicationId) : Promise.resolve(null)),
    };
    let message = readMessage(msg.message);
    for (const t of steps) message = await this.apply(t, message, step);
    return writeMessage(message);
  }

  private async apply(t: ProxyTransformView, m: ProxyMessage, s: StepContext): Promise<ProxyMessage> {
    switch (t.type) {
      case 'code':
        return this.code(t.code as string, m, s);
      case 'tokenize':
        return this.tokenize(t, m, s);
      case 'mask': {
        const text = bodyText(m);
        if (text === null) return m;
        const masked = maskText(text, t.expression as string, t.replacement as string);
        return { ...m, body: reparsed(m, masked) };
      }
      case 'append_json': {
        const value = substitute(t.options?.value, s.secrets.configuration);
        const doc = m.body.kind === 'json' ? m.body.value : m.body.kind === 'text' && m.body.value.trim() === '' ? {} : undefined;
        if (doc === undefined) throw badRequest('The proxy transform cannot run', { [`${s.direction}_transforms`]: ['append_json needs a JSON body'] });
        return { ...m, body: { kind: 'json', value: setAt(doc, t.options?.location as string, value) } };
      }
      case 'append_text': {
        const text = bodyText(m);
        if (text === null) throw badRequest('The proxy transform cannot run', { [`${s.direction}_transforms`]: ['append_text needs a text body'] });
        return { ...m, body: { kind: 'text', value: text + withConfiguration(String(t.options?.value ?? ''), s.secrets.configuration) } };
      }
      case 'append_header':
        return {
          ...m,
          headers: setHeader(m.headers, t.options?.location as string, withConfiguration(String(t.options?.value ?? ''), s.secrets.configuration)),
        };
    }
  }

  /** Each value the JSONPath finds in the JSON body becomes a token (created as the proxy's application) and its id. */
  private async tokenize(t: ProxyTransformView, m: ProxyMessage, s: StepContext): Promise<ProxyMessage> {
    if (m.body.kind !== 'json' || m.body.value === null || typeof m.body.value !== 'object') return m;
    const doc = m.body.value as object;
    const found = JSONPath({ path: t.expression as string, json: doc, resultType: 'all', wrap: true, eval: false }) as Array<{
      value: unknown;
      parent: Record<string | number, unknown> | null;
      parentProperty: string | number | null;
    }>;
    const targets = found.filter((f) => f.parent !== null && f.parentProperty !== null && f.value !== null && f.value !== undefined);
    if (!targets.length) return m;
    const application = await s.application();
    if (!application) throw badRequest("The proxy's application no longer exists: update the proxy with another application");
    const template = (t.options?.token ?? {}) as Record<string, unknown>;
    const payload = targets.map((f) => ({ type: 'token', ...template, data: f.value }));
    const created = (await this.rpc.call(OPS.token.tokens.tokenize, { payload }, { principal: application, traceId: s.ctx.traceId })) as Array<{ id: string }>;
    targets.forEach((f, i) => ((f.parent as Record<string | number, unknown>)[f.parentProperty as string | number] = created[i].id));
    return { ...m, body: { kind: 'json', value: doc } };
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
        tenant: s.ctx.principal.tenantId,
        egress: () => this.egressDefaults.get(s.ctx.principal, s.ctx.traceId).then((d) => effectiveEgressRule(null, d)),
      },
      application ? new TokenSvcBridge(this.rpc, application, s.ctx.traceId) : null,
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

/** Masked text goes back to JSON when the body was JSON and still parses. */
function reparsed(m: ProxyMessage, text: string): ProxyMessage['body'] {
  if (m.body.kind === 'json') {
    try {
      return { kind: 'json', value: JSON.parse(text) };
    } catch {
      /* the mask broke the JSON: sent as the text it is */
    }
  }
  return { kind: 'text', value: text };
}

function substitute(value: unknown, configuration: Record<string, string | null>): unknown {
  return typeof value === 'string' ? withConfiguration(value, configuration) : value;
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
