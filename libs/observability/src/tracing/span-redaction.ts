import type { Span } from '@opentelemetry/api';

/**
 * The instrumentations record the URL of every request, with its query string, which on Coffer can hold a proxy key
 * (`bt-proxy-key`) or whatever a caller put in a destination's query. These hooks overwrite those attributes with the
 * URL's path before anything is exported; bodies and headers are never recorded (no instrumentation is asked to).
 */
export function withoutQuery(url: string): string {
  const at = url.search(/[?#]/);
  return at === -1 ? url : url.slice(0, at);
}

const URL_ATTRIBUTES = ['http.url', 'url.full'] as const;
const PATH_ATTRIBUTES = ['http.target', 'url.path'] as const;

/** Overwrites the URL attributes of `span` for a request to (or from) `url`, when it carried a query. */
export function redactQuery(span: Span, url: string | undefined, absolute?: string): void {
  if (!url || withoutQuery(url) === url) return;
  for (const name of PATH_ATTRIBUTES) span.setAttribute(name, withoutQuery(url));
  if (absolute) for (const name of URL_ATTRIBUTES) span.setAttribute(name, withoutQuery(absolute));
  span.setAttribute('url.query', '[redacted]');
}

/** Probes and scrapes: every few seconds from the orchestrator and Prometheus, never worth a trace. */
export function isHealthPath(url: string | undefined): boolean {
  return /^\/(healthz|readyz|livez|metrics)(\/|\?|$)/.test(url ?? '');
}
