import { randomBytes } from 'node:crypto';
import type { TenantKeyring } from './tenant-keyring';

/**
 * Standard Webhooks signing secrets at rest (the tenant's, kept by session-service, and each webhook's own, kept by
 * webhook-dispatcher; both in webhook_secrets). A row stores [data key id (16 bytes)][ciphertext] so the secret stays
 * readable after a key rotation, sealed with the associated data `webhook-secret:<row id>` — the format
 * `admin keys reencrypt` moves (tools/admin sealed-kinds, kind webhook_secrets).
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export async function sealWebhookSecret(keyring: TenantKeyring, tenantId: string, rowId: string, secret: string): Promise<Buffer> {
  const { keyId, ciphertext } = await keyring.encryptJson(tenantId, `webhook-secret:${rowId}`, secret);
  return Buffer.concat([Buffer.from(keyId.replace(/-/g, ''), 'hex'), ciphertext]);
}

export function openWebhookSecret(keyring: TenantKeyring, tenantId: string, rowId: string, stored: Uint8Array): Promise<string> {
  const buf = Buffer.from(stored);
  const h = buf.subarray(0, 16).toString('hex');
  const keyId = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return keyring.decryptJson<string>(tenantId, keyId, buf.subarray(16), `webhook-secret:${rowId}`);
}
