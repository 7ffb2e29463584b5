export * from './logger';
export * from './nest-logger';
export * from './metrics';
export * from './build-info';
export * from './certificate-expiry';
export * from './health-server';
export * from './config';
export * from './process-config';
export { onStopSignal } from './stop-signal';
export { noteActivity, reclaimMemoryAfterStart, reportMemoryReclaim, memoryReclaimIdleMs } from './memory-reclaim';
export {
  activeTraceFields,
  currentTraceparent,
  failSpan,
  injectTraceContext,
  inSpan,
  tracingEnabled,
  type SpanOptions,
  type TraceCarrier,
} from './tracing/trace-context';
