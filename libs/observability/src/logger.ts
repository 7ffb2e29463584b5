import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs. Sensitive fields are redacted by path as a second line of defence: the first is that
 * request bodies, token data, keys and formula configuration are never passed to the logger at all.
 */
export const REDACTED_PATHS = [
  'req.headers["svc-api-key"]',
  'req.headers.authorization',
  '*.headers["svc-api-key"]',
  '*.key',
  '*.session_key',
  '*.nonce',
  '*.data',
  '*.body',
  '*.configuration',
  '*.management_key',
  'key',
  'data',
  'body',
  'configuration',
];

export function createLogger(service: string): Logger {
  return pino({
    name: service,
    level: process.env['LOG_LEVEL'] ?? 'info',
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}

export type { Logger };
