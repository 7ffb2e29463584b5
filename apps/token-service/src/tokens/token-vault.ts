import { Injectable } from '@nestjs/common';
import { TenantKeyring } from '@coffer/crypto/keyring';
import { ExpressionError, renderToString } from '@coffer/expression';
import { badRequest } from '@coffer/contracts';
import type { TokenFields } from './token-fields';

/**
 * Everything cryptographic about a token: data encrypted under the tenant's data key with AAD = token id,
 * fingerprint and blind search indexes as HMACs under the tenant's index key (DESIGN §3).
 */
@Injectable()
export class TokenVault {
  constructor(readonly keyring: TenantKeyring) {}

  encrypt(tenantId: string, tokenId: string, data: unknown) {
    return this.keyring.encryptJson(tenantId, `token:${tokenId}`, data);
  }

  decrypt(tenantId: string, tokenId: string, keyId: string, ciphertext: Uint8Array): Promise<unknown> {
    return this.keyring.decryptJson(tenantId, keyId, ciphertext, `token:${tokenId}`);
  }

  /** Fingerprint and search digests for the fields; expression errors become 400s naming the field. */
  async digests(tenantId: string, f: TokenFields): Promise<{ fingerprint: string; searchDigests: string[] }> {
    const hmac = await this.keyring.digester(tenantId);
    let rendered: string | null;
    try {
      rendered = renderToString(f.fingerprintExpression, { data: f.data, metadata: f.metadata }, 'data+metadata');
    } catch (err) {
      throw badRequest('The request is invalid', { fingerprint_expression: [expressionMessage(err)] });
    }
    const fingerprint = hmac(`${f.type}\u0000${rendered ?? ''}`);
    const searchDigests: string[] = [];
    f.searchIndexes.forEach((expr, i) => {
      let value: string | null;
      try {
        value = renderToString(expr, { data: f.data }, 'data');
      } catch (err) {
        throw badRequest('The request is invalid', { [`search_indexes[${i}]`]: [expressionMessage(err)] });
      }
      if (value !== null && value !== '') searchDigests.push(searchDigest(hmac, value));
    });
    return { fingerprint, searchDigests };
  }

  /** For `data:` search terms: the same digest the token's search indexes were stored under. */
  async searchDigester(tenantId: string): Promise<(value: string) => string> {
    const hmac = await this.keyring.digester(tenantId);
    return (value) => searchDigest(hmac, value);
  }
}

/** Blind index of a value: case-sensitive exact match, as the spec's `data:` search term. */
function searchDigest(hmac: (v: string) => string, value: string): string {
  return hmac(`search\u0000${value}`);
}

export function expressionMessage(err: unknown): string {
  return err instanceof ExpressionError ? err.message : 'could not be evaluated';
}
