import { Controller, Delete, Get, Patch, Post, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { OPS, RPC_DEADLINE_MS, type ProxyReply } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/bus';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { HeaderNames } from '../http/coffer-headers';
import { ApiProblems } from '../docs/api-problems.decorator';
import { withoutHopByHop } from '@coffer/egress';
import { invocationOf, proxyHeaderPrefixes } from './proxy-request';

const PATHS = ['proxy', 'proxy/*'];

/** Answer headers the gateway sets itself: the framing (the body is framed again). */
const REFRAMED = new Set(['content-length']);

/**
 * What a destination (or a response transform) may not say on Coffer's origin: cookies, its own content security,
 * cross-origin and transport policies, site-data clearing, reporting endpoints and refreshes. Coffer's API origin
 * shares its host name with the console's, so a destination's cookie or policy would be one of Coffer's own.
 */
const NOT_RETURNED = new Set([
  'set-cookie',
  'set-cookie2',
  'content-security-policy',
  'content-security-policy-report-only',
  'cross-origin-resource-policy',
  'cross-origin-opener-policy',
  'cross-origin-embedder-policy',
  'x-content-type-options',
  'x-frame-options',
  'strict-transport-security',
  'clear-site-data',
  'alt-svc',
  'refresh',
  'report-to',
  'reporting-endpoints',
  'nel',
  'timing-allow-origin',
  'x-xss-protection',
]);

/**
 * Every proxied answer is rendered as nothing Coffer wrote could be: a sandboxed document with no script, no plugin,
 * no form and no request of its own (an opaque origin, so it cannot read the host's cookies or call its API), never
 * sniffed into another type, and not loadable by other sites' pages.
 */
export const PROXY_ANSWER_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "sandbox; default-src 'none'",
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
};

const DOCS = {
  description:
    "proxy:invoke or token:use (the mirrored service's older name), and token:use for every token an expression detokenizes. " +
    'The destination is BT-PROXY-URL (or SVC-PROXY-URL): https with a DNS name only; what follows /proxy in the path and the query are appended to it. ' +
    '`{{ token_id | filters }}` expressions in a JSON, form or text body and in header values are replaced with token data, as POST /detokenize does. ' +
    "The destination's status, headers and body come back, with BT-PROXY-DESTINATION-STATUS; redirects are returned, not followed. " +
    "Hop-by-hop headers, cookies, the destination's content-security, CORS and Coffer-prefixed headers are removed, and every answer carries " +
    "Content-Security-Policy: sandbox; default-src 'none', X-Content-Type-Options: nosniff and Cross-Origin-Resource-Policy: same-origin. " +
    'A destination slower than 25 s gets a 408 problem.',
};

/**
 * The ephemeral proxy: any of the five methods on /proxy and /proxy/**. The body arrives here as raw bytes whatever
 * its content type (fastify-setup's parsers leave proxy bodies alone), and proxy-service does the rest. Plain decorators,
 * not `@Route`: the ten routes share one row (OPS.proxy.invoke, no `http` binding) and require its access.
 */
@ApiTags('proxy')
@Controller()
export class ProxyController {
  private readonly names = new HeaderNames();
  private readonly prefixes = proxyHeaderPrefixes(this.names);
  /** `svc-`, `bt-` and the configured aliases: a destination cannot speak in Coffer's name */
  private readonly ownPrefixes = [...new Set(['svc', ...this.prefixes])].map((p) => `${p}-`);

  constructor(private readonly rpc: RpcClient) {}

  @Get(PATHS)
  @RequirePermission('proxy:invoke', 'token:use')
  @ProxyDocs('GET')
  get(@Req() req: GatewayRequest, @Res() reply: FastifyReply) {
    return this.invoke(req, reply);
  }

  @Post(PATHS)
  @RequirePermission('proxy:invoke', 'token:use')
  @ProxyDocs('POST')
  post(@Req() req: GatewayRequest, @Res() reply: FastifyReply) {
    return this.invoke(req, reply);
  }

  @Put(PATHS)
  @RequirePermission('proxy:invoke', 'token:use')
  @ProxyDocs('PUT')
  put(@Req() req: GatewayRequest, @Res() reply: FastifyReply) {
    return this.invoke(req, reply);
  }

  @Patch(PATHS)
  @RequirePermission('proxy:invoke', 'token:use')
  @ProxyDocs('PATCH')
  patch(@Req() req: GatewayRequest, @Res() reply: FastifyReply) {
    return this.invoke(req, reply);
  }

  @Delete(PATHS)
  @RequirePermission('proxy:invoke', 'token:use')
  @ProxyDocs('DELETE')
  delete(@Req() req: GatewayRequest, @Res() reply: FastifyReply) {
    return this.invoke(req, reply);
  }

  /** A destination's header the caller may see: none of Coffer's own names (its prefixes, CORS) nor NOT_RETURNED. */
  private returnable(name: string): boolean {
    return !NOT_RETURNED.has(name) && !name.startsWith('access-control-') && !this.ownPrefixes.some((p) => name.startsWith(p));
  }

  private async invoke(req: GatewayRequest, reply: FastifyReply): Promise<void> {
    const body = Buffer.isBuffer(req.body) ? req.body : undefined;
    const message = invocationOf(req, this.names, this.prefixes, body);
    const answer = await this.rpc.call<ProxyReply>(OPS.proxy.invoke, message, callContext(req), RPC_DEADLINE_MS.proxy);
    const grouped = new Map<string, string[]>();
    for (const [name, value] of withoutHopByHop(answer.headers, REFRAMED)) {
      if (!this.returnable(name)) continue;
      grouped.set(name, [...(grouped.get(name) ?? []), value]);
    }
    for (const [name, values] of grouped) void reply.header(name, values.length === 1 ? values[0] : values);
    for (const [name, value] of Object.entries(PROXY_ANSWER_HEADERS)) void reply.header(name, value);
    for (const p of ['svc', 'bt']) void reply.header(`${p}-proxy-destination-status`, String(answer.status));
    void reply.status(answer.status);
    // bytes as they crossed the bus; base64 text in a replay of a recorded answer (and from an older proxy-service)
    const answered =
      typeof answer.body === 'string' ? Buffer.from(answer.body, 'base64') : Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength);
    await reply.send(answered.length === 0 ? undefined : answered);
  }
}

function ProxyDocs(method: string): MethodDecorator {
  return (target, key, descriptor) => {
    ApiOperation({ summary: `Proxy a ${method} request`, ...DOCS })(target, key, descriptor);
    ApiHeader({ name: 'BT-PROXY-URL', required: true, description: 'the destination base URL (https, DNS name)' })(target, key, descriptor);
    ApiResponse({
      status: 200,
      description: "The destination's answer — its status (200 here, any other as the destination gave it), headers and body as given",
      headers: { 'BT-PROXY-DESTINATION-STATUS': { description: "the destination's status code", schema: { type: 'integer' } } },
      content: { '*/*': { schema: {}, example: { id: 'ch_1', status: 'succeeded' } } },
    })(target, key, descriptor);
    ApiProblems({
      400: 'The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token',
      408: 'The destination did not answer within 25 s',
      502: 'The destination could not be reached, reset the connection, or answered with more than the proxy accepts',
    })(target, key, descriptor);
  };
}
