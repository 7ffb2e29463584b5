import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/**
 * The HMAC keys of `whsec_…` secrets (their decoded bytes). Imported once per batch of deliveries rather than at each
 * signature: an HMAC keyed with raw bytes imports them every time, about five times the cost of the HMAC itself.
 */
export function signingKeys(secrets: readonly string[]): KeyObject[] {
  return secrets.map((secret) => createSecretKey(Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64')));
}

/**
 * Standard Webhooks signature: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the decoded
 * bytes of each `whsec_…` secret (or its key from {@link signingKeys}); several secrets (during a rotation) give
 * space-separated signatures.
 */
export function signatureHeader(secrets: readonly (string | KeyObject)[], id: string, timestamp: number, body: string): string {
  const keys = secrets.map((s) => (typeof s === 'string' ? signingKeys([s])[0] : s));
  const content = `${id}.${timestamp}.${body}`;
  return keys.map((key) => `v1,${createHmac('sha256', key).update(content).digest('base64')}`).join(' ');
}
