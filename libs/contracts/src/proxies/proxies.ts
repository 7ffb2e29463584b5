import { isIP } from 'node:net';
import { IsBoolean, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';
import { RE2JS } from 're2js';
import { FieldErrors } from '../problem/problem';
import { FORMULA_LIMITS } from '../reactors/formulas';
import { ApplicationRefField, ReactorRef } from '../reactors/reactors';
import { PageOf } from '../paging/page-of';
import { ApiResourceStamps, ResourceStamps } from '../resource-stamps';
import { RequiredText } from '../validation/text-fields';

export const PROXY_LIMITS = {
  nameLength: 200,
  urlLength: 2048,
  /** transforms per direction */
  transforms: 20,
  expressionLength: 1000,
  valueLength: 8192,
  configurationEntries: 100,
} as const;

export const PROXY_TRANSFORM_TYPES = ['code', 'tokenize', 'mask', 'append_json', 'append_text', 'append_header'] as const;
export type ProxyTransformType = (typeof PROXY_TRANSFORM_TYPES)[number];

/** One step of a proxy's request or response transforms, as stored and shown (snake_case, the mirrored API's). */
export interface ProxyTransformView {
  type: ProxyTransformType;
  code?: string;
  matcher?: 'regex';
  expression?: string;
  replacement?: string;
  options?: { token?: Record<string, unknown>; value?: unknown; location?: string };
}

/** `$`, then `.name` or `['name']` or `[index]` steps: a location append_json can write to. */
const JSON_LOCATION = /^\$((\.[A-Za-z_$][A-Za-z0-9_$-]*)|(\['([^'\\]|\\.)*'\])|(\[\d+\]))+$/;
/** an HTTP header name (RFC 9110 token) */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Why a destination base URL is refused, or null: only https URLs with a DNS name — IP literals (any spelling the URL
 * parser turns into an address), credentials and other schemes are refused before anything is resolved. The address
 * check itself happens when proxy-service connects.
 */
export function destinationUrlError(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return 'is required';
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return 'must be an absolute https URL';
  }
  if (url.protocol !== 'https:') return 'must use https';
  if (url.username || url.password) return 'must not carry credentials';
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '' || isIP(host) !== 0) return 'must name the host by DNS name, not by IP address';
  return null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The steps of one direction, each checked by its type; errors named by index (`request_transforms[1].expression`).
 * A mask expression is compiled with RE2 (linear time, so no response can make it backtrack for ever) and must have a
 * capture group.
 */
export function checkProxyTransforms(value: unknown, field: string, errors: FieldErrors): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) {
    errors.add(field, 'must be an array of transforms');
    return;
  }
  if (value.length > PROXY_LIMITS.transforms) errors.add(field, `must hold at most ${PROXY_LIMITS.transforms} transforms`);
  value.forEach((t, i) => checkTransform(t, `${field}[${i}]`, errors));
}

function checkTransform(t: unknown, at: string, errors: FieldErrors): void {
  if (!isObject(t)) {
    errors.add(at, 'must be an object');
    return;
  }
  const type = t['type'] ?? 'code';
  if (!PROXY_TRANSFORM_TYPES.includes(type as ProxyTransformType)) {
    errors.add(`${at}.type`, `must be one of ${PROXY_TRANSFORM_TYPES.join(', ')}`);
    return;
  }
  const allowed: Record<ProxyTransformType, string[]> = {
    code: ['type', 'code'],
    tokenize: ['type', 'expression', 'options'],
    mask: ['type', 'matcher', 'expression', 'replacement'],
    append_json: ['type', 'options'],
    append_text: ['type', 'options'],
    append_header: ['type', 'options'],
  };
  for (const k of Object.keys(t))
    if (!allowed[type as ProxyTransformType].includes(k)) errors.add(`${at}.${k}`, `is not a member of a ${String(type)} transform`);
  const options = t['options'];
  if (options !== undefined && !isObject(options)) errors.add(`${at}.options`, 'must be an object');
  const opts = isObject(options) ? options : {};
  const text = (v: unknown, path: string, max: number) => {
    if (typeof v !== 'string' || v.length === 0) errors.add(path, 'is required and must be a non-empty string');
    else if (v.length > max) errors.add(path, `must be at most ${max} characters`);
  };
  switch (type as ProxyTransformType) {
    case 'code':
      text(t['code'], `${at}.code`, FORMULA_LIMITS.codeLength);
      break;
    case 'tokenize':
      text(t['expression'], `${at}.expression`, PROXY_LIMITS.expressionLength);
      if (typeof t['expression'] === 'string' && !t['expression'].startsWith('$')) errors.add(`${at}.expression`, 'must be a JSONPath starting with $');
      if (opts['token'] !== undefined && !isObject(opts['token'])) errors.add(`${at}.options.token`, 'must be an object (the fields of the tokens created)');
      if (isObject(opts['token']) && opts['token']['data'] !== undefined)
        errors.add(`${at}.options.token.data`, 'is the value found at the expression: it cannot be given');
      for (const k of Object.keys(opts)) if (k !== 'token') errors.add(`${at}.options.${k}`, 'is not an option of a tokenize transform');
      break;
    case 'mask': {
      if (t['matcher'] !== 'regex') errors.add(`${at}.matcher`, 'must be regex');
      text(t['expression'], `${at}.expression`, PROXY_LIMITS.expressionLength);
      if (typeof t['replacement'] !== 'string' || [...t['replacement']].length !== 1) errors.add(`${at}.replacement`, 'must be exactly one character');
      if (typeof t['expression'] === 'string' && t['expression'].length) {
        try {
          if (RE2JS.compile(t['expression']).groupCount() < 1) errors.add(`${at}.expression`, 'must have at least one capture group');
        } catch {
          errors.add(`${at}.expression`, 'is not a valid regular expression (RE2 syntax)');
        }
      }
      break;
    }
    case 'append_json':
      if (opts['value'] === undefined) errors.add(`${at}.options.value`, 'is required');
      if (typeof opts['location'] !== 'string' || !JSON_LOCATION.test(opts['location']))
        errors.add(`${at}.options.location`, "must be a JSONPath of names and indexes, such as $.card or $['billing'].zip");
      else if (/__proto__|constructor|prototype/.test(opts['location']))
        errors.add(`${at}.options.location`, 'must not name __proto__, constructor or prototype');
      break;
    case 'append_text':
      text(opts['value'], `${at}.options.value`, PROXY_LIMITS.valueLength);
      break;
    case 'append_header':
      text(opts['value'], `${at}.options.value`, PROXY_LIMITS.valueLength);
      if (typeof opts['value'] === 'string' && /[\0\r\n]/.test(opts['value'])) errors.add(`${at}.options.value`, 'must not hold line breaks');
      if (typeof opts['location'] !== 'string' || !HEADER_NAME.test(opts['location'])) errors.add(`${at}.options.location`, 'must be a header name');
      break;
  }
  if (typeof opts['value'] === 'string' && opts['value'].length > PROXY_LIMITS.valueLength)
    errors.add(`${at}.options.value`, `must be at most ${PROXY_LIMITS.valueLength} characters`);
}

/** The steps as stored: `type` always present (a step without one is `code`, as the mirrored API's legacy transforms). */
export function normalizeProxyTransforms(value: unknown): ProxyTransformView[] {
  if (!Array.isArray(value)) return [];
  return value.map((t: Record<string, unknown>) => ({ ...t, type: (t['type'] ?? 'code') as ProxyTransformType }) as ProxyTransformView);
}

/**
 * POST /proxies and PUT /proxies/{id}. The legacy single `request_transform` / `response_transform` (what older
 * clients send) is folded into the lists; giving both spellings is a 400.
 */
export class CreateProxyRequest {
  /** configuration values are secrets (stored encrypted), transforms are checked by `check` */
  static readonly opaqueFields: readonly string[] = ['configuration', 'request_transforms', 'response_transforms'];

  static normalize(plain: Record<string, unknown>, errors: FieldErrors): Record<string, unknown> {
    const out = { ...plain };
    for (const direction of ['request', 'response']) {
      const single = `${direction}_transform`;
      const list = `${direction}_transforms`;
      if (out[single] === undefined || out[single] === null) {
        delete out[single];
        continue;
      }
      if (out[list] !== undefined && out[list] !== null) errors.add(single, `cannot be given with ${list}`);
      else out[list] = [out[single]];
      delete out[single];
    }
    return out;
  }

  static check(plain: Record<string, unknown>, errors: FieldErrors): void {
    if (typeof plain['destination_url'] === 'string') {
      const wrong = destinationUrlError(plain['destination_url']);
      if (wrong) errors.add('destination_url', wrong);
    }
    checkProxyTransforms(plain['request_transforms'], 'request_transforms', errors);
    checkProxyTransforms(plain['response_transforms'], 'response_transforms', errors);
    const configuration = plain['configuration'];
    if (configuration !== undefined && configuration !== null) {
      if (!isObject(configuration)) errors.add('configuration', 'must be an object of string values');
      else {
        const entries = Object.entries(configuration);
        if (entries.length > PROXY_LIMITS.configurationEntries) errors.add('configuration', `must hold at most ${PROXY_LIMITS.configurationEntries} entries`);
        for (const [k, v] of entries) {
          if (v !== null && typeof v !== 'string') errors.add(`configuration.${k}`, 'must be a string');
          else if (typeof v === 'string' && v.length > PROXY_LIMITS.valueLength)
            errors.add(`configuration.${k}`, `must be at most ${PROXY_LIMITS.valueLength} characters`);
        }
      }
    }
  }

  @ApiProperty({ minLength: 1, maxLength: PROXY_LIMITS.nameLength, example: 'Card processor' })
  @RequiredText(PROXY_LIMITS.nameLength)
  name!: string;

  @ApiProperty({ maxLength: PROXY_LIMITS.urlLength, example: 'https://api.processor.example/v1', description: 'https, a DNS name' })
  @RequiredText(PROXY_LIMITS.urlLength)
  destination_url!: string;

  @ApiPropertyOptional({ type: 'array', items: { type: 'object' }, nullable: true, description: 'run in order on the request (docs/proxy.md)' })
  @IsOptional()
  request_transforms?: ProxyTransformView[] | null;

  @ApiPropertyOptional({ type: 'array', items: { type: 'object' }, nullable: true, description: "run in order on the destination's answer" })
  @IsOptional()
  response_transforms?: ProxyTransformView[] | null;

  @ApplicationRefField({ description: 'a public or private application: code transforms get it as `req.bt`; tokenize transforms create tokens as it' })
  application?: ReactorRef | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', nullable: true },
    nullable: true,
    description: 'secrets for the transforms, stored encrypted',
  })
  @IsOptional()
  configuration?: Record<string, string | null> | null;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    default: true,
    description: 'false: anyone with the proxy key may call it without an API key (inbound)',
  })
  @IsOptional()
  @IsBoolean({ message: 'must be a boolean' })
  require_auth?: boolean | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, default: false, description: 'true: expressions in requests are sent as they are' })
  @IsOptional()
  @IsBoolean({ message: 'must be a boolean' })
  disable_detokenization?: boolean | null;
}

@ApiResourceStamps()
export class ProxyView extends ResourceStamps {
  @ApiProperty({ format: 'uuid' })
  id!: string;
  @ApiProperty({ description: 'invokes the proxy: BT-PROXY-KEY header or bt-proxy-key query parameter' })
  key!: string;
  @ApiProperty({ format: 'uuid' })
  tenant_id!: string;
  @ApiProperty()
  name!: string;
  @ApiProperty()
  destination_url!: string;
  @ApiProperty({ enum: ['active'] })
  state!: 'active';
  @ApiProperty({ type: 'array', items: { type: 'object' } })
  request_transforms!: ProxyTransformView[];
  @ApiProperty({ type: 'array', items: { type: 'object' } })
  response_transforms!: ProxyTransformView[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'the first request transform (older clients read it)' })
  request_transform?: ProxyTransformView;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'the first response transform (older clients read it)' })
  response_transform?: ProxyTransformView;
  @ApiPropertyOptional({ format: 'uuid' })
  application_id?: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string', nullable: true } })
  configuration!: Record<string, string | null>;
  @ApiProperty()
  require_auth!: boolean;
  @ApiProperty()
  disable_detokenization!: boolean;
}

export class ProxyPage extends PageOf(ProxyView) {}

/** reactor.proxies.resolve: a pre-configured proxy by its key's SHA-256 (hex), for an invocation (internal). */
export class ResolveProxyMessage {
  @Matches(/^[0-9a-f]{64}$/)
  keyHash!: string;
}

/** What an invocation needs to know of a proxy; its secrets stay in reactor-service. */
export interface ResolvedProxy {
  id: string;
  tenantId: string;
  destinationUrl: string;
  requireAuth: boolean;
  disableDetokenization: boolean;
  requestTransforms: number;
  responseTransforms: number;
}

/** reactor.proxies.transform: one direction's transforms run on a message (headers, body as base64). */
export class ProxyTransformMessage {
  @IsString()
  proxyId!: string;

  @IsIn(['request', 'response'])
  direction!: 'request' | 'response';

  @IsObject()
  message!: ProxyTransformSubject;
}

export interface ProxyTransformSubject {
  method: string;
  path: string;
  query: string;
  /** [name (lower case), value] */
  headers: [string, string][];
  /** base64; '' when none */
  body: string;
  /** the destination's status, for response transforms */
  status?: number;
}

/** The message as the transforms left it; the body crosses the bus as raw bytes (libs/bus wire-format.ts). */
export interface ProxyTransformResult {
  headers: [string, string][];
  body: Uint8Array | string;
}

/**
 * reactor.proxies.idempotency: a proxy request with SVC-IDEMPOTENCY-KEY, claimed before it is sent (`begin`: the
 * recorded reply of a completed one, a 409 while one runs, a 422 for another request under the key), then
 * `complete`d with the destination's answer (stored sealed) or `release`d when it failed.
 */
export class ProxyIdempotencyMessage {
  @IsIn(['begin', 'complete', 'release'])
  action!: 'begin' | 'complete' | 'release';

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  key!: string;

  /** the invocation as proxy-service received it: what makes a repeat the same request */
  @IsObject()
  request!: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  reply?: RecordedProxyReply;
}

/**
 * A proxy answer as stored under its idempotency key: with the tokens its request detokenized, which a replay checks
 * the caller may still use (absent in records made before they were kept).
 */
export interface RecordedProxyReply {
  status: number;
  headers: [string, string][];
  body: string;
  usedTokenIds?: string[];
}

export type ProxyIdempotencyReply = { claimed: true } | { replay: RecordedProxyReply } | { done: true };

/** events.proxies.changed: a pre-configured proxy was updated or deleted (drop what is cached of it). */
export class ProxyChangedEvent {
  @IsString()
  tenantId!: string;

  @IsString()
  proxyId!: string;
}
