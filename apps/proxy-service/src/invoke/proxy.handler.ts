import { Controller } from '@nestjs/common';
import {
  OPS,
  ProblemError,
  RPC_DEADLINE_MS,
  badRequest,
  idempotentReplay,
  type IdempotentReplay,
  type ProxyIdempotencyReply,
  type ProxyInvocationMessage,
  type ProxyReply,
  type ProxyTransformResult,
  type ProxyTransformSubject,
  type ResolvedProxy,
} from '@coffer/contracts';
import { RpcClient } from '@coffer/bus';
import { Operation, asCaller, type CallerContext, type Command } from '@coffer/operations';
import { createLogger } from '@coffer/observability';
import { destinationUrl } from './destination';
import { Detokenizer } from './detokenizer';
import { Forwarder } from './forwarder';
import { AuditBatches } from './audit-batches';
import { ProxyDirectory } from './proxy-directory';
import { proxyDuration, proxyRequests } from './proxy-metrics';
import { TenantShares, type Admission } from './tenant-shares';
import { ownExpressions } from './own-expressions';
import { checkHeaders } from './header-check';
import { answerOf, recheckReplay } from './replay-check';

const contentTypeOf = (headers: [string, string][]) => headers.find(([k]) => k === 'content-type')?.[1];

/** The destination's answer, with the tokens the request detokenized (what an idempotent replay re-checks). */
type SentReply = ProxyReply & { usedTokenIds: string[] };

/**
 * proxy.invoke: one request through the ephemeral proxy — destination checked, expressions replaced as the caller,
 * sent, and the destination's answer returned as it came (hop-by-hop headers aside). Each call is counted, logged and
 * audited with its host, method, status and duration only: never its path, query, headers or body.
 *
 * Every step acts as the operation's caller, read once where the call starts (`asCaller()`): its tenant's share, the
 * idempotency ledger and the replay's re-check, the proxy lookup, the transforms, the detokenization and the audit
 * record. For an inbound proxy that does not require auth, that caller is the gateway's anonymous principal of that
 * one proxy (`anonymousProxyId`), which may call only it and never detokenizes.
 */
@Controller()
export class ProxyHandler {
  private readonly logger = createLogger('proxy-service');

  constructor(
    private readonly detokenizer: Detokenizer,
    private readonly forwarder: Forwarder,
    private readonly rpc: RpcClient,
    private readonly audits: AuditBatches,
    private readonly directory: ProxyDirectory,
    private readonly shares: TenantShares,
  ) {}

  /**
   * With SVC-IDEMPOTENCY-KEY (POST, PUT, PATCH) the key is claimed before anything is sent: a repeat gets the first
   * answer as it was (409 while the first is still running), a failure before an answer releases the key.
   */
  @Operation(OPS.proxy.invoke)
  async invoke(cmd: Command<ProxyInvocationMessage>): Promise<ProxyReply | IdempotentReplay<ProxyReply>> {
    const ctx = asCaller();
    // one tenant never holds all of proxy-service's calls or memory: over its share, a 503 before anything is done
    const admission = this.shares.admit(ctx.principal.tenantId, Math.floor(((cmd.body.body?.length ?? 0) * 3) / 4));
    try {
      return await this.admitted(ctx, cmd, admission);
    } finally {
      admission.release();
    }
  }

  private async admitted(ctx: CallerContext, cmd: Command<ProxyInvocationMessage>, admission: Admission): Promise<ProxyReply | IdempotentReplay<ProxyReply>> {
    const key = cmd.idempotencyKey;
    if (key === undefined) return answerOf(await this.send(ctx, cmd, admission));
    // the ledger records the answer as it always has, its body as base64 text, with the tokens it detokenized
    const ledger = (action: 'begin' | 'complete' | 'release', reply?: SentReply) =>
      this.rpc.call<ProxyIdempotencyReply>(
        OPS.reactor.proxies.idempotency,
        { action, key, request: cmd.body, ...(reply ? { reply: { ...reply, body: base64(reply.body) } } : {}) },
        ctx,
      );
    const begun = await ledger('begin');
    if ('replay' in begun) {
      await recheckReplay(this.rpc, begun.replay);
      return idempotentReplay(answerOf(begun.replay));
    }
    let answer: SentReply;
    try {
      answer = await this.send(ctx, cmd, admission);
    } catch (err) {
      await ledger('release').catch(() => undefined);
      throw err;
    }
    await ledger('complete', answer).catch((err: Error) =>
      this.logger.error({ traceId: ctx.traceId, err: { message: err.message } }, 'recording a proxy request under its idempotency key failed'),
    );
    return answerOf(answer);
  }

  private async send(ctx: CallerContext, cmd: Command<ProxyInvocationMessage>, admission: Admission): Promise<SentReply> {
    const msg = cmd.body;
    const proxy = await this.preConfigured(ctx, cmd);
    // a pre-configured proxy's destination is its own: BT-PROXY-URL is ignored, as the mirrored service does
    const url = destinationUrl(proxy ? proxy.destinationUrl : msg.destination, msg.path, msg.query);
    const host = url.hostname;
    const started = performance.now();
    let status = 500;
    try {
      let request = { headers: msg.headers, body: bytes(msg.body ?? '') };
      // an anonymous caller has no access to any token: what it sends is never read as expressions
      const detokenize = !proxy?.disableDetokenization && !ctx.principal.anonymousProxyId;
      // what the transforms leave is detokenized only as far as the caller wrote it (own-expressions.ts)
      const own = detokenize && proxy?.requestTransforms ? ownExpressions(msg.headers, request.body, contentTypeOf(msg.headers)) : undefined;
      if (proxy?.requestTransforms) {
        const transformed = await this.transform(ctx, proxy, 'request', {
          method: msg.method,
          path: msg.path,
          query: msg.query,
          headers: msg.headers,
          body: base64(msg.body ?? ''),
        });
        request = { headers: transformed.headers, body: bytes(transformed.body) };
        checkHeaders(request.headers, 'request transforms', host);
      }
      const given = { headers: request.headers, body: request.body, contentType: contentTypeOf(request.headers) };
      const out = detokenize ? await this.detokenizer.detokenize(given, own) : { ...given, usedTokenIds: [] };
      if (out.usedTokenIds.length) checkHeaders(out.headers, 'caller', host);
      const headers = out.headers.some(([k]) => k === 'user-agent') ? out.headers : [...out.headers, ['user-agent', 'coffer-proxy/1.0'] as [string, string]];
      const deadline = cmd.deadline === undefined ? undefined : Date.now() + (cmd.deadline - performance.now());
      const sentAt = performance.now();
      const answer = await this.forwarder.send(url, msg.method, headers, out.body, deadline);
      admission.hold(answer.body.length);
      proxyDuration.observe((performance.now() - sentAt) / 1000);
      status = answer.status;
      checkHeaders(answer.headers, 'destination', host);
      // the answer's bytes go back as they are (a binary reply frame); only response transforms need them as base64
      if (!proxy?.responseTransforms) return { status: answer.status, headers: answer.headers, body: answer.body, usedTokenIds: out.usedTokenIds };
      const reply = await this.transform(ctx, proxy, 'response', {
        method: msg.method,
        path: msg.path,
        query: msg.query,
        status: answer.status,
        headers: answer.headers,
        body: answer.body.toString('base64'),
      });
      checkHeaders(reply.headers, 'response transforms', host);
      return { status: answer.status, headers: reply.headers, body: bytes(reply.body), usedTokenIds: out.usedTokenIds };
    } catch (err) {
      if (err instanceof ProblemError) status = err.status;
      throw err;
    } finally {
      const ms = Math.round(performance.now() - started);
      proxyRequests.labels(String(status)).inc();
      this.logger.info(
        { traceId: ctx.traceId, tenantId: ctx.principal.tenantId, applicationId: ctx.principal.applicationId, host, status, ms },
        'proxy request',
      );
      this.audit(ctx, host, msg.method, status, ms);
    }
  }

  /**
   * The pre-configured proxy named by the call's key, of the caller's tenant; none for an ephemeral call. An
   * anonymous principal (require_auth false) stands for exactly one proxy, checked against the proxy on every call
   * (ProxyDirectory drops a proxy's entry when it changes) so that a deleted proxy, or one that now requires auth,
   * refuses at once.
   */
  private async preConfigured(ctx: CallerContext, cmd: Command<ProxyInvocationMessage>): Promise<ResolvedProxy | null> {
    const anonymous = ctx.principal.anonymousProxyId;
    const key = cmd.body.proxyKey;
    if (key === undefined) {
      if (anonymous) throw new ProblemError(401, 'The SVC-API-KEY header is required');
      return null;
    }
    // looked up as the caller: only a proxy of its tenant is found (ProxyDirectory checks cached ones too)
    const proxy = await this.directory.resolve(key);
    if (anonymous && (!proxy || proxy.id !== anonymous || proxy.requireAuth)) throw new ProblemError(401, 'The SVC-API-KEY header is required');
    if (!proxy) throw badRequest('The proxy key is invalid', { 'BT-PROXY-KEY': ['is not the key of a proxy of this tenant'] });
    return proxy;
  }

  /** One direction's transforms, run by reactor-service (it holds the proxy's secrets and the sandbox). */
  private transform(
    ctx: CallerContext,
    proxy: ResolvedProxy,
    direction: 'request' | 'response',
    message: ProxyTransformSubject,
  ): Promise<ProxyTransformResult> {
    return this.rpc.call<ProxyTransformResult>(OPS.reactor.proxies.transform, { proxyId: proxy.id, direction, message }, ctx, RPC_DEADLINE_MS.react);
  }

  /**
   * The call's audit record (AuditBatches sends it, batched per caller, later and outside this call): host, method,
   * status and duration only. Its principal and trace id travel with it as data, taken here.
   */
  private audit(ctx: CallerContext, host: string, method: string, status: number, ms: number): void {
    this.audits.add(ctx.principal, {
      operation: 'proxy',
      entityType: 'proxy',
      entityId: host,
      ...(ctx.traceId ? { traceId: ctx.traceId } : {}),
      changes: { method: { new: method }, status: { new: status }, duration_ms: { new: ms } },
    });
  }
}

/** A body off the bus: bytes as they came, or base64 text (replies of an older release). */
function bytes(body: Uint8Array | string): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'base64') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function base64(body: Uint8Array | string): string {
  return typeof body === 'string' ? body : bytes(body).toString('base64');
}
