import { IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

/** The methods a proxy request may use (the mirrored service's five). */
export const PROXY_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ProxyMethod = (typeof PROXY_METHODS)[number];

/** How long a destination may take before the proxy answers 408 (the mirrored service's 25 s). */
export const PROXY_DESTINATION_TIMEOUT_MS = 25_000;

/**
 * proxy.invoke: one request through the proxy, as the gateway received it. The edge has already taken out what is
 * for Coffer (the API key, the trace and idempotency headers, the destination header): `headers` are the ones meant
 * for the destination, in arrival order. The body crosses the bus as base64, byte for byte.
 */
export class ProxyInvocationMessage {
  @IsIn(PROXY_METHODS)
  method!: ProxyMethod;

  /** BT-PROXY-URL (or its SVC-/alias spelling): the destination's base URL */
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  destination?: string;

  /** BT-PROXY-KEY (or the `bt-proxy-key` query parameter): a pre-configured proxy, whose destination is used */
  @IsOptional()
  @IsString()
  @MaxLength(512)
  proxyKey?: string;

  /** what followed /proxy in the request path, as sent (percent-encoded), '' or starting with '/' */
  @IsString()
  @MaxLength(8192)
  path!: string;

  /** the raw query string without `?` ('' when none) */
  @IsString()
  @MaxLength(8192)
  query!: string;

  /** [name (lower case), value] pairs for the destination */
  @IsArray()
  headers!: [string, string][];

  /** the request body as base64; absent without a body */
  @IsOptional()
  @IsString()
  body?: string;
}

/**
 * What the destination answered: status, headers (hop-by-hop removed) and body, unchanged. The body crosses the bus
 * as raw bytes (a binary reply frame, libs/bus wire-format.ts); it is base64 text in a replay of an answer
 * recorded under an idempotency key, and from a proxy-service of an older release.
 */
export interface ProxyReply {
  status: number;
  headers: [string, string][];
  body: Uint8Array | string;
}
