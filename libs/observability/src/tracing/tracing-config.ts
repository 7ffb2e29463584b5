import { ConfigError, envBool, envOneOf, envString } from '../config';

/**
 * Tracing is configured by the standard OpenTelemetry variables, read by the SDK itself; this parser checks the ones
 * that decide whether it runs and what it sends, so a typo stops the process at start-up (exit 78) instead of
 * silently exporting nothing. Off unless an exporter is named or an OTLP endpoint is given.
 */
export interface TracingConfig {
  readonly enabled: boolean;
  /** OTEL_SERVICE_NAME, default `coffer-<service>` */
  readonly serviceName: string;
}

const EXPORTERS = ['otlp', 'console', 'zipkin', 'none'] as const;
const PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;
const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

function endpoint(name: string): string | undefined {
  const v = envString(name, '');
  if (v === '') return undefined;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!['http:', 'https:'].includes(url.protocol)) throw new ConfigError(`${name} must use http:// or https://`);
  return v;
}

export function tracingConfig(service: string): TracingConfig {
  const serviceName = envString('OTEL_SERVICE_NAME', `coffer-${service}`);
  if (envBool('OTEL_SDK_DISABLED', false)) return { enabled: false, serviceName };
  const exporters = envString('OTEL_TRACES_EXPORTER', '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const e of exporters)
    if (!(EXPORTERS as readonly string[]).includes(e)) throw new ConfigError(`OTEL_TRACES_EXPORTER must list ${EXPORTERS.join(', ')}, got "${e}"`);
  envOneOf('OTEL_EXPORTER_OTLP_PROTOCOL', PROTOCOLS, 'http/protobuf');
  envOneOf('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', PROTOCOLS, 'http/protobuf');
  envOneOf('OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_always_on');
  const ratio = envString('OTEL_TRACES_SAMPLER_ARG', '');
  if (ratio !== '' && !(Number(ratio) >= 0 && Number(ratio) <= 1))
    throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${ratio}"`);
  const endpoints = [endpoint('OTEL_EXPORTER_OTLP_ENDPOINT'), endpoint('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')].filter(Boolean);
  const named = exporters.filter((e) => e !== 'none');
  if (exporters.includes('none') && !named.length) return { enabled: false, serviceName };
  return { enabled: named.length > 0 || endpoints.length > 0, serviceName };
}
