import { node, tracing } from '@opentelemetry/sdk-node';
import { activeTraceFields, currentTraceparent, injectTraceContext, inSpan, markTracingStarted, tracingEnabled, type TraceCarrier } from './trace-context';

/** The helpers against the real SDK (in memory), as a service runs them once startTracing has registered it. */
describe('trace context', () => {
  const exporter = new tracing.InMemorySpanExporter();

  it('does nothing at all while tracing is off', async () => {
    expect(tracingEnabled()).toBe(false);
    const carrier: TraceCarrier = {};
    injectTraceContext(carrier);
    expect(carrier).toEqual({});
    expect(currentTraceparent()).toBeUndefined();
    expect(await inSpan('x', { kind: 'internal' }, async (span) => span)).toBeUndefined();
    expect(activeTraceFields()).toEqual({});
    // pino's mixin merge assigns each log line's fields into the returned object: a shared one would collect them
    expect(activeTraceFields()).not.toBe(activeTraceFields());
  });

  describe('on', () => {
    beforeAll(() => {
      new node.NodeTracerProvider({ spanProcessors: [new tracing.SimpleSpanProcessor(exporter)] }).register();
      markTracingStarted();
    });
    beforeEach(() => exporter.reset());

    it('carries a span across a process boundary: the receiver continues the sender', async () => {
      const envelope: TraceCarrier = {};
      await inSpan('token.create.v1 request', { kind: 'client' }, async () => injectTraceContext(envelope));
      expect(envelope.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      await inSpan('token.create.v1 process', { kind: 'server', parent: envelope }, async () => {
        expect(activeTraceFields().trace_id).toBe(envelope.traceparent?.split('-')[1]);
      });
      const [client, server] = exporter.getFinishedSpans();
      expect(server.spanContext().traceId).toBe(client.spanContext().traceId);
      expect(server.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
    });

    it("marks a failure by its status or class, never its message, and leaves a server's 4xx alone", async () => {
      const problem = Object.assign(new Error('card 4242424242424242 refused'), { status: 502 });
      await expect(inSpan('a', { kind: 'client' }, () => Promise.reject(problem))).rejects.toBe(problem);
      const notFound = { status: 404 };
      const serverFault = (err: unknown) => ((err as { status: number }).status ?? 500) >= 500;
      await expect(inSpan('b', { kind: 'server', isFailure: serverFault }, () => Promise.reject(notFound))).rejects.toBe(notFound);
      const [a, b] = exporter.getFinishedSpans();
      expect(a.status).toEqual({ code: 2, message: '502' });
      expect(b.status.code).toBe(0);
      expect(JSON.stringify({ status: a.status, attributes: a.attributes, events: a.events })).not.toContain('4242');
    });

    it('gives the current span to work stored for later (an outbox row)', async () => {
      let stored: string | undefined;
      await inSpan('write', { kind: 'internal' }, async (span) => {
        stored = currentTraceparent();
        expect(stored).toContain(span?.spanContext().spanId);
      });
      expect(currentTraceparent()).toBeUndefined();
    });
  });
});
