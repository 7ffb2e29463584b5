import { Injectable } from '@nestjs/common';
import { TenantKeyring } from '@coffer/crypto/keyring';
import { ExpressionError, renderToString, type ExpressionBudget } from '@coffer/expression';
import type { FieldErrors } from '@coffer/contracts';
import type { TokenFields } from './token-fields';

/** The texts a token's fingerprint and search digests are computed from, rendered before anything is written. */
export interface RenderedExpressions {
  readonly fingerprintText: string;
  /** non-empty search index values */
  readonly searchValues: string[];
}

/**
 * Everything cryptographic about a token: data encrypted under the tenant's data key with AAD = token id,
 * fingerprint and blind search indexes as HMACs under the tenant's index key (docs/security.md).
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

  /** A token intent's data (docs/token-intents.md): the same envelope as a token's, bound to the intent's own id. */
  encryptIntent(tenantId: string, intentId: string, data: unknown) {
    return this.keyring.encryptJson(tenantId, `token-intent:${intentId}`, data);
  }

  decryptIntent(tenantId: string, intentId: string, keyId: string, ciphertext: Uint8Array): Promise<unknown> {
    return this.keyring.decryptJson(tenantId, keyId, ciphertext, `token-intent:${intentId}`);
  }

  /** Fingerprint and search digests of a token of `type` from its rendered expressions (renderExpressions). */
  async digests(tenantId: string, type: string, rendered: RenderedExpressions): Promise<{ fingerprint: string; searchDigests: string[] }> {
    const hmac = await this.keyring.digester(tenantId);
    const fingerprint = hmac(`${type}\u0000${rendered.fingerprintText}`);
    return { fingerprint, searchDigests: rendered.searchValues.map((v) => searchDigest(hmac, v)) };
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

/**
 * Renders the fingerprint expression and search indexes of the fields, charged to the request's budget; every
 * failure (a spent budget included) is added to `errors` at the field's path (with `prefix` for tokenize) and null
 * returned. Runs before anything is written, so a refused request changes nothing.
 */
export function renderExpressions(f: TokenFields, budget: ExpressionBudget, errors: FieldErrors, prefix = ''): RenderedExpressions | null {
  const at = (path: string) => (prefix ? `${prefix}.${path}` : path);
  let ok = true;
  // once the budget is spent every later expression would fail the same way: the first field is named, alone
  const failed = (path: string, err: unknown): boolean => {
    errors.add(at(path), expressionMessage(err));
    ok = false;
    return err instanceof ExpressionError && err.code === 'budget_exceeded';
  };
  let fingerprintText = '';
  try {
    fingerprintText = renderToString(f.fingerprintExpression, { data: f.data, metadata: f.metadata }, 'data+metadata', budget) ?? '';
  } catch (err) {
    if (failed('fingerprint_expression', err)) return null;
  }
  const searchValues: string[] = [];
  for (let i = 0; i < f.searchIndexes.length; i++) {
    try {
      const value = renderToString(f.searchIndexes[i], { data: f.data }, 'data', budget);
      if (value !== null && value !== '') searchValues.push(value);
    } catch (err) {
      if (failed(`search_indexes[${i}]`, err)) break;
    }
  }
  return ok ? { fingerprintText, searchValues } : null;
}

export function expressionMessage(err: unknown): string {
  return err instanceof ExpressionError ? err.message : 'could not be evaluated';
}
