import { Injectable } from '@nestjs/common';
import { TenantKeyring } from '@coffer/crypto/keyring';

/** Reactor configuration is a secret: AES-256-GCM under the tenant's data key, AAD bound to the reactor id. */
@Injectable()
export class ReactorVault {
  constructor(private readonly keyring: TenantKeyring) {}

  async seal(tenantId: string, reactorId: string, configuration: Record<string, unknown>): Promise<{ keyId: string; ciphertext: Uint8Array<ArrayBuffer> }> {
    const { keyId, ciphertext } = await this.keyring.encryptJson(tenantId, `reactor:${reactorId}`, configuration);
    return { keyId, ciphertext: new Uint8Array(ciphertext) };
  }

  open(tenantId: string, reactorId: string, keyId: string, ciphertext: Uint8Array): Promise<Record<string, unknown>> {
    return this.keyring.decryptJson<Record<string, unknown>>(tenantId, keyId, ciphertext, `reactor:${reactorId}`);
  }
}
