import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signature: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the decoded
 * bytes of each `whsec_…` secret; several secrets (during a rotation) give space-separated signatures.
 */
export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}
