/**
 * How a proxy request body is read for detokenization expressions, by its content type: JSON (parsed, expressions
 * in any string; an object injected whole where a string is exactly one expression), form-urlencoded (the decoded
 * values), text (the whole body as one string). Anything else — binary, multipart — is passed through untouched.
 */
export type BodyShape = { kind: 'json'; value: unknown } | { kind: 'form'; pairs: [string, string][] } | { kind: 'text'; text: string } | { kind: 'opaque' };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

export function isJsonType(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

function isTextType(type: string): boolean {
  return type === '' || type.startsWith('text/') || type === 'application/xml' || type.endsWith('+xml') || type === 'application/javascript';
}

/** The body as the detokenizer sees it; `opaque` when it holds no text (or no `{{` at all: nothing to replace). */
export function readBody(body: Buffer, contentType: string | undefined): BodyShape {
  if (body.length === 0) return { kind: 'opaque' };
  const type = mediaType(contentType);
  const form = type === 'application/x-www-form-urlencoded';
  if (!isJsonType(type) && !form && !isTextType(type)) return { kind: 'opaque' };
  // form values are percent-encoded: `{{` may arrive as %7B%7B
  if (body.indexOf('{{') === -1 && !(form && /%7b%7b/i.test(body.toString('latin1')))) return { kind: 'opaque' };
  let text: string;
  try {
    text = decoder.decode(body);
  } catch {
    return { kind: 'opaque' };
  }
  if (isJsonType(type)) {
    try {
      return { kind: 'json', value: JSON.parse(text) };
    } catch {
      // not JSON after all: its expressions are replaced as text
      return { kind: 'text', text };
    }
  }
  if (form) return { kind: 'form', pairs: [...new URLSearchParams(text)] };
  return { kind: 'text', text };
}

/** Text for a replaced value: strings as they are, anything else (an injected object, a number) as JSON. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}

/** The body bytes again after replacement. */
export function writeBody(shape: BodyShape, replaced: unknown): Buffer {
  switch (shape.kind) {
    case 'json':
      return Buffer.from(JSON.stringify(replaced), 'utf8');
    case 'form':
      // values only were replaced: names are never expressions
      return Buffer.from(new URLSearchParams(shape.pairs.map(([k], i): [string, string] => [k, asText((replaced as unknown[])[i])])).toString(), 'utf8');
    case 'text':
      return Buffer.from(asText(replaced), 'utf8');
    case 'opaque':
      throw new Error('an opaque body has nothing replaced');
  }
}

/** The member of the detokenize payload a shape travels in (its name is also the field errors are reported under). */
export function payloadOf(shape: Exclude<BodyShape, { kind: 'opaque' }>): unknown {
  return shape.kind === 'json' ? shape.value : shape.kind === 'form' ? shape.pairs.map(([, v]) => v) : shape.text;
}
