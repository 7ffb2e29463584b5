import { Injectable } from '@nestjs/common';
import { TenantKeyring } from '@coffer/crypto/keyring';

/** What a proxy keeps secret: the key that invokes it and the configuration its transforms read. */
export interface ProxySecrets {
  key: string;
  configuration: Record<string, string | null>;
}

/** AES-256-GCM under the tenant's data key, AAD bound to the proxy id (re-encrypted by `keys reencrypt`). */
@Injectable()
export class ProxyVault {
  constructor(private readonly keyring: TenantKeyring) {}

  async seal(tenantId: string, proxyId: string, secrets: ProxySecrets): Promise<{ keyId: string; ciphertext: Uint8Array<ArrayBuffer> }> {
    const { keyId, ciphertext } = await this.keyring.encryptJson(tenantId, `proxy:${proxyId}`, secrets);
    return { keyId, ciphertext: new Uint8Array(ciphertext) };
  }

  open(tenantId: string, proxyId: string, keyId: string, ciphertext: Uint8Array): Promise<ProxySecrets> {
    return this.keyring.decryptJson<ProxySecrets>(tenantId, keyId, ciphertext, `proxy:${proxyId}`);
  }
}
