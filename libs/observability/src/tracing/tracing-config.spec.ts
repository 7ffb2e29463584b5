import { ConfigError } from '../config';
import { tracingConfig } from './tracing-config';

const VARS = [
  'OTEL_SDK_DISABLED',
  'OTEL_TRACES_EXPORTER',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
  'OTEL_SERVICE_NAME',
];

function withEnv(env: Record<string, string>, fn: () => void) {
  const saved = Object.fromEntries(VARS.map((v) => [v, process.env[v]]));
  for (const v of VARS) delete process.env[v];
  Object.assign(process.env, env);
  try {
    fn();
  } finally {
    for (const v of VARS) if (saved[v] === undefined) delete process.env[v];
    Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)));
  }
}

describe('tracingConfig', () => {
  it('is off by default, named coffer-<service>', () =>
    withEnv({}, () => expect(tracingConfig('gateway')).toEqual({ enabled: false, serviceName: 'coffer-gateway' })));

  it('is on with an OTLP endpoint, or a named exporter', () => {
    withEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, () => expect(tracingConfig('gateway').enabled).toBe(true));
    withEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector/v1/traces' }, () => expect(tracingConfig('gateway').enabled).toBe(true));
    withEnv({ OTEL_TRACES_EXPORTER: 'console' }, () => expect(tracingConfig('gateway').enabled).toBe(true));
  });

  it('stays off when disabled or when the exporter is none', () => {
    withEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }, () => expect(tracingConfig('gateway').enabled).toBe(false));
    withEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }, () => expect(tracingConfig('gateway').enabled).toBe(false));
  });

  it('takes OTEL_SERVICE_NAME as given', () =>
    withEnv({ OTEL_SERVICE_NAME: 'vault-edge' }, () => expect(tracingConfig('gateway').serviceName).toBe('vault-edge')));

  it.each([
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'ftp://collector'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'http/xml'],
    ['OTEL_TRACES_EXPORTER', 'jaeger'],
    ['OTEL_TRACES_SAMPLER', 'sometimes'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5'],
    ['OTEL_SDK_DISABLED', 'maybe'],
  ])('refuses %s=%s at start-up, naming the variable', (name, value) =>
    withEnv({ [name]: value }, () => {
      expect(() => tracingConfig('gateway')).toThrow(ConfigError);
      expect(() => tracingConfig('gateway')).toThrow(name);
    }),
  );
});
