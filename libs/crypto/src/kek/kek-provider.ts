/**
 * Where the key-encryption key (KEK) lives. Tenant data and index keys are stored wrapped by it (tenant_keys); only
 * the keyring calls a provider, and only for a key it does not hold in memory yet, so a slow or remote provider (an
 * HSM) stays off the hot path. An abstract class rather than an interface so that it can be Nest's injection token.
 */
export abstract class KeyEncryptionKeyProvider {
  /** 'env' or 'pkcs11' — for logs and `keys` commands */
  abstract readonly kind: string;
  /** The id stored in tenant_keys.kek_id for keys wrapped now; rows under another id are re-wrapped by `keys rewrap`. */
  abstract primaryId(): string;
  /** Wraps a data key under the primary KEK, bound to `context` (authenticated, not secret). */
  abstract wrap(dataKey: Buffer, context: string): Promise<{ kekId: string; wrapped: Buffer }>;
  /** The data key wrapped under `kekId`; throws KeyCustodyUnavailableError when the custodian cannot be reached. */
  abstract unwrap(kekId: string, wrapped: Uint8Array, context: string): Promise<Buffer>;
  /** Whether the provider can wrap and unwrap right now (readiness). */
  abstract ready(): Promise<boolean>;
  /** Releases sessions and handles; the provider is not used afterwards. */
  abstract close(): Promise<void>;
}

/**
 * The KEK's custodian (the HSM) cannot be reached or did not answer in time. Retryable: the caller gets a 503, and
 * keys already unwrapped keep working from memory.
 */
export class KeyCustodyUnavailableError extends Error {
  override readonly name = 'KeyCustodyUnavailableError';
}
