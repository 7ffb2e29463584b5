import type { Span } from '@opentelemetry/api';
import { isHealthPath, redactQuery, withoutQuery } from './span-redaction';

function recordingSpan() {
  const attributes: Record<string, unknown> = {};
  const span = { setAttribute: (k: string, v: unknown) => ((attributes[k] = v), span) } as unknown as Span;
  return { span, attributes };
}

describe('span redaction', () => {
  it('keeps the path of a URL, never its query or fragment', () => {
    expect(withoutQuery('/proxy?bt-proxy-key=k1')).toBe('/proxy');
    expect(withoutQuery('https://api.example.com/v1/charge?card=4242#x')).toBe('https://api.example.com/v1/charge');
    expect(withoutQuery('/tokens')).toBe('/tokens');
  });

  it('overwrites every URL attribute of a request that carried a query', () => {
    const { span, attributes } = recordingSpan();
    redactQuery(span, '/proxy?bt-proxy-key=secret', 'http://gw/proxy?bt-proxy-key=secret');
    expect(attributes).toEqual({
      'http.target': '/proxy',
      'url.path': '/proxy',
      'http.url': 'http://gw/proxy',
      'url.full': 'http://gw/proxy',
      'url.query': '[redacted]',
    });
    expect(JSON.stringify(attributes)).not.toContain('secret');
  });

  it('leaves a request without a query alone', () => {
    const { span, attributes } = recordingSpan();
    redactQuery(span, '/tokens', 'http://gw/tokens');
    expect(attributes).toEqual({});
  });

  it('knows the probe and scrape paths', () => {
    expect(['/healthz', '/readyz', '/livez', '/metrics', '/readyz?x=1'].every(isHealthPath)).toBe(true);
    expect(['/tokens', '/metricsx', undefined].some(isHealthPath)).toBe(false);
  });
});
