import type { ProxyTransformResult, ProxyTransformSubject } from '@coffer/contracts';

/**
 * A proxied request or answer while its transforms run. The body is read once by its content type: JSON (parsed),
 * text (JSON that does not parse, text/*, XML, forms, no content type) or bytes (anything else, which body
 * transforms leave alone), and written back once at the end.
 */
export interface ProxyMessage {
  headers: [string, string][];
  body: { kind: 'json'; value: unknown } | { kind: 'text'; value: string } | { kind: 'bytes'; value: Buffer };
}

const TEXT_TYPES = /^(text\/|application\/(x-www-form-urlencoded|xml|[\w.+-]*\+xml))/;

export function contentTypeOf(headers: [string, string][]): string | undefined {
  return headers.find(([k]) => k === 'content-type')?.[1].toLowerCase();
}

export function readMessage(subject: ProxyTransformSubject): ProxyMessage {
  return readBytes(subject.headers, Buffer.from(subject.body, 'base64'));
}

export function readBytes(given: [string, string][], bytes: Buffer): ProxyMessage {
  const type = contentTypeOf(given);
  const headers = given.map(([k, v]) => [k, v] as [string, string]);
  if (type === undefined || TEXT_TYPES.test(type) || /[/+]json\b/.test(type)) {
    const text = bytes.toString('utf8');
    if (type !== undefined && /[/+]json\b/.test(type) && text.trim() !== '') {
      try {
        return { headers, body: { kind: 'json', value: JSON.parse(text) } };
      } catch {
        /* not JSON after all: text */
      }
    }
    return { headers, body: { kind: 'text', value: text } };
  }
  return { headers, body: { kind: 'bytes', value: bytes } };
}

export function writeMessage(m: ProxyMessage): ProxyTransformResult {
  return { headers: m.headers, body: writeBytes(m).toString('base64') };
}

export function writeBytes(m: ProxyMessage): Buffer {
  const b = m.body;
  return b.kind === 'bytes' ? b.value : Buffer.from(b.kind === 'json' ? JSON.stringify(b.value) : b.value, 'utf8');
}

/** The body as text (JSON serialized), for transforms that work on text. */
export function bodyText(m: ProxyMessage): string | null {
  if (m.body.kind === 'bytes') return null;
  return m.body.kind === 'json' ? JSON.stringify(m.body.value) : m.body.value;
}

/** Headers as transform code sees them: one object, names in lower case, repeated headers joined with ", ". */
export function headerObject(headers: [string, string][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of headers) out[k] = k in out ? `${out[k]}, ${v}` : v;
  return out;
}

/** Sets a header, replacing every value it had. */
export function setHeader(headers: [string, string][], name: string, value: string): [string, string][] {
  const lower = name.toLowerCase();
  return [...headers.filter(([k]) => k !== lower), [lower, value]];
}

/** `{{ configuration.NAME }}` in a transform's value: the proxy's configuration entry (an unknown name: empty). */
export function withConfiguration(value: string, configuration: Record<string, string | null>): string {
  return value.replace(/\{\{\s*configuration\.([A-Za-z0-9_-]+)\s*\}\}/g, (_, name: string) =>
    Object.prototype.hasOwnProperty.call(configuration, name) ? (configuration[name] ?? '') : '',
  );
}
