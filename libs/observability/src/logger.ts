import { isMainThread } from 'node:worker_threads';
import pino, { type Logger, type LoggerOptions } from 'pino';
import { envOneOf } from './config';
import { activeTraceFields } from './tracing/trace-context';

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

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL (default info); a service's config reads it at start-up so a bad value stops it with exit 78. */
export function logLevel(): LogLevel {
  return envOneOf('LOG_LEVEL', LOG_LEVELS, 'info');
}

export function createLogger(service: string): Logger {
  const options: LoggerOptions = {
    name: service,
    level: logLevel(),
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // the request's span when tracing is on, so a log line leads to its trace and back
    mixin: activeTraceFields,
  };
  // A service in a thread of the service host (`npm start`) writes to its thread's stdout, which the host reads line
  // by line: pino's own file-descriptor writer would share the process's stdout with five other threads (their
  // lines cut into each other beyond 4 KiB) and, in a thread, drop what it still buffers when the thread exits.
  return isMainThread ? pino(options) : pino(options, process.stdout);
}

export type { Logger };
