import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

/**
 * What the rest of Coffer uses of tracing. Every helper is a plain call when tracing is off (the default): no span,
 * no context object, nothing allocated per request, so an installation that does not trace pays nothing for it.
 */
let enabled = false;

/** Set once by startTracing when the SDK runs. */
export function markTracingStarted(): void {
  enabled = true;
}

export function tracingEnabled(): boolean {
  return enabled;
}

const tracer = () => trace.getTracer('coffer');

/** W3C trace context as it travels in Coffer's own carriers (the RPC envelope, an outbox row). */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

const carrierSetter = {
  set(carrier: TraceCarrier, key: string, value: string) {
    if (key === 'traceparent' || key === 'tracestate') carrier[key] = value;
  },
};

const carrierGetter = {
  keys: (carrier: TraceCarrier) => Object.keys(carrier).filter((k) => k === 'traceparent' || k === 'tracestate'),
  get: (carrier: TraceCarrier, key: string) => (key === 'traceparent' || key === 'tracestate' ? carrier[key] : undefined),
};

/** Writes the current span's context into `carrier` (nothing when tracing is off or no span is active). */
export function injectTraceContext(carrier: TraceCarrier, ctx: Context = context.active()): void {
  if (!enabled) return;
  propagation.inject(ctx, carrier, carrierSetter);
}

/** The current span's `traceparent`, to be stored with work that outlives the request (an outbox row). */
export function currentTraceparent(): string | undefined {
  if (!enabled) return undefined;
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier, carrierSetter);
  return carrier.traceparent;
}

export interface SpanOptions {
  kind: 'client' | 'server' | 'producer' | 'consumer' | 'internal';
  attributes?: Attributes;
  /** the remote parent: a carrier that came with the work */
  parent?: TraceCarrier;
  /** which errors mark the span failed (all, by default; a server's span leaves the caller's 4xx out) */
  isFailure?: (err: unknown) => boolean;
}

const KINDS = {
  client: SpanKind.CLIENT,
  server: SpanKind.SERVER,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
  internal: SpanKind.INTERNAL,
} as const;

/**
 * Runs `fn` inside a new span (the current one's child, or the child of `parent` when the work came from another
 * process). The span ends when `fn` settles; a thrown error marks it failed with its status or class only (see
 * describeFailure). `fn` may set the outcome itself through the span it gets (`failSpan`).
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!enabled) return fn(undefined);
  const parentContext = options.parent ? propagation.extract(ROOT_CONTEXT, options.parent, carrierGetter) : context.active();
  return tracer().startActiveSpan(name, { kind: KINDS[options.kind], attributes: options.attributes }, parentContext, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      if (options.isFailure?.(err) ?? true) failSpan(span, describeFailure(err));
      throw err;
    } finally {
      span.end();
    }
  });
}

/** A problem's status, else the error's class: never its message, which may quote what a caller sent. */
function describeFailure(err: unknown): string {
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === 'number') return String(status);
  return err instanceof Error ? err.constructor.name : 'error';
}

/** Marks the span failed with a short, data-free description (a status code, an error class). */
export function failSpan(span: Span | undefined, description: string): void {
  span?.setStatus({ code: SpanStatusCode.ERROR, message: description });
}

/** trace_id and span_id of the active span, for log lines (empty when tracing is off or nothing is active). */
export function activeTraceFields(): { trace_id?: string; span_id?: string } {
  // a new object each time: pino's mixin merge assigns the line's fields into what this returns
  if (!enabled) return {};
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
