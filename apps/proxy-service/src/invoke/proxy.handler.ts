import { Controller } from '@nestjs/common';
import { OPS, ProblemError, type ProxyInvocationMessage, type ProxyReply } from '@coffer/contracts';
import { Operation, RpcClient, type Command } from '@coffer/messaging';
import { createLogger } from '@coffer/observability';
import { destinationUrl } from './destination';
import { Detokenizer } from './detokenizer';
import { Forwarder } from './forwarder';
import { hostLabel, proxyDuration, proxyRequests } from './proxy-metrics';

/**
 * proxy.invoke: one request through the ephemeral proxy — destination checked, expressions replaced as the caller,
 * sent, and the destination's answer returned as it came (hop-by-hop headers aside). Each call is counted, logged and
 * audited with its host, method, status and duration only: never its path, query, headers or body.
 */
@Controller()
export class ProxyHandler {
  private readonly logger = createLogger('proxy-service');

  constructor(
    private readonly detokenizer: Detokenizer,
    private readonly forwarder: Forwarder,
    private readonly rpc: RpcClient,
  ) {}

  @Operation(OPS.proxy.invoke)
  async invoke(cmd: Command<ProxyInvocationMessage>): Promise<ProxyReply> {
    const msg = cmd.body;
    const url = destinationUrl(msg.destination, msg.path, msg.query);
    const host = url.hostname;
    const started = performance.now();
    let status = 500;
    try {
      const contentType = msg.headers.find(([k]) => k === 'content-type')?.[1];
      const ctx = { principal: cmd.principal, traceId: cmd.traceId };
      const given = { headers: msg.headers, body: msg.body ? Buffer.from(msg.body, 'base64') : Buffer.alloc(0), contentType };
      const out = await this.detokenizer.detokenize(ctx, given);
      const headers = out.headers.some(([k]) => k === 'user-agent') ? out.headers : [...out.headers, ['user-agent', 'coffer-proxy/1.0'] as [string, string]];
      const deadline = cmd.deadline === undefined ? undefined : Date.now() + (cmd.deadline - performance.now());
      const sentAt = performance.now();
      const answer = await this.forwarder.send(url, msg.method, headers, out.body, deadline);
      proxyDuration.labels(hostLabel(host)).observe((performance.now() - sentAt) / 1000);
      status = answer.status;
      return { status: answer.status, headers: answer.headers, body: answer.body.toString('base64') };
    } catch (err) {
      if (err instanceof ProblemError) status = err.status;
      throw err;
    } finally {
      const ms = Math.round(performance.now() - started);
      proxyRequests.labels(hostLabel(host), String(status)).inc();
      this.logger.info(
        { traceId: cmd.traceId, tenantId: cmd.principal.tenantId, applicationId: cmd.principal.applicationId, host, status, ms },
        'proxy request',
      );
      this.audit(cmd, host, msg.method, status, ms);
    }
  }

  /**
   * The call's audit record, written by token-service (audit_events is its table). Sent once the answer is known and
   * not waited for: the caller does not pay a round trip for it; a record that cannot be written is logged.
   */
  private audit(cmd: Command<ProxyInvocationMessage>, host: string, method: string, status: number, ms: number): void {
    const event = {
      operation: 'proxy' as const,
      entityType: 'proxy' as const,
      entityId: host,
      traceId: cmd.traceId,
      changes: { method: { new: method }, status: { new: status }, duration_ms: { new: ms } },
    };
    this.rpc
      .call(OPS.token.audit.record, { events: [event] }, { principal: cmd.principal, traceId: cmd.traceId })
      .catch((err: Error) => this.logger.error({ traceId: cmd.traceId, host, err: { message: err.message } }, 'recording the proxy call failed'));
  }
}
