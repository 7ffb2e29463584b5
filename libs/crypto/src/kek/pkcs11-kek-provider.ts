import { randomBytes } from 'node:crypto';
import type * as Pkcs11Module from 'pkcs11js';
import type { EnvKeyEncryptionKeyProvider } from './env-kek-provider';
import { KeyCustodyUnavailableError, KeyEncryptionKeyProvider } from './kek-provider';

type Pkcs11Lib = typeof Pkcs11Module;
type Handle = Buffer;

export interface Pkcs11Config {
  /** PKCS11_MODULE: the vendor's PKCS#11 library (.so) */
  module: string;
  /** PKCS11_TOKEN_LABEL: the token to use (or `slot`) */
  tokenLabel?: string;
  /** PKCS11_SLOT: a slot index in the list of slots with a token present (when no token label is given) */
  slot?: number;
  /** PKCS11_PIN or the content of PKCS11_PIN_FILE: the crypto user's PIN */
  pin: string;
  /** PKCS11_KEY_LABEL: the AES-256 key-encryption key's CKA_LABEL */
  keyLabel: string;
  /** PKCS11_TIMEOUT_MS: how long one wrap or unwrap may take before the caller gets a 503 */
  callTimeoutMs: number;
  /** PKCS11_RETRY_MS: how often a lost or never-reached HSM is tried again */
  retryMs: number;
}

export interface Pkcs11ProviderOptions {
  /** KEY_ENCRYPTION_KEYS still configured during an env→HSM move: reads keys not yet re-wrapped (never wraps). */
  legacy?: EnvKeyEncryptionKeyProvider;
  /** Create the key when no key has the label (`keys init`, `npm start`); services only look it up. */
  createKey?: boolean;
  /** Where state changes are told: once when the HSM is lost or unreachable, once when it is back. */
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

/** Version byte of a wrapped key: [1][iv:12][AES-256-GCM ciphertext of the data key, with its 16-byte tag]. */
const FORMAT = 1;
const IV_BYTES = 12;

/** The KEK's id in tenant_keys.kek_id: the provider and the label, so a key is found again by label after a restart. */
export function pkcs11KekId(keyLabel: string): string {
  return `pkcs11:${keyLabel}`;
}

/**
 * KEK_PROVIDER=pkcs11: the key-encryption key is an AES-256 secret key inside a PKCS#11 token, created sensitive and
 * non-extractable, so it never leaves the HSM. A data key is wrapped by encrypting it inside the HSM with CKM_AES_GCM
 * (the keyring's context as additional authenticated data, so a wrapped key moved to another tenant or purpose does
 * not open) and unwrapped the same way. The keyring caches unwrapped keys, so the HSM sees only cold keys.
 *
 * One session, one operation at a time (a PKCS#11 session runs one operation at a time); the encrypt and decrypt
 * calls run on libuv's thread pool (pkcs11js' *Async calls), never on the event loop, and each is bounded by
 * `callTimeoutMs`. When the HSM fails or times out, the session is dropped and re-established in the background
 * every `retryMs`; until then a cold key fails fast with KeyCustodyUnavailableError (a 503 for the caller).
 */
export class Pkcs11KeyEncryptionKeyProvider extends KeyEncryptionKeyProvider {
  readonly kind = 'pkcs11';
  private lib?: InstanceType<Pkcs11Lib['PKCS11']>;
  private mod?: Pkcs11Lib;
  private initialized = false;
  private session?: Handle;
  private key?: Handle;
  private connected = false;
  private lastProblem?: string;
  private retry?: NodeJS.Timeout;
  private closed = false;
  /** operations run one after another on the session; a new session starts a new queue */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly kekId: string;

  constructor(
    private readonly config: Pkcs11Config,
    private readonly options: Pkcs11ProviderOptions = {},
  ) {
    super();
    this.kekId = pkcs11KekId(config.keyLabel);
  }

  /**
   * Connects now; when the HSM cannot be reached, says so once and keeps trying in the background (readiness stays
   * red meanwhile). Resolves either way: `ready()` tells which.
   */
  async start(): Promise<boolean> {
    if (!this.mod) {
      this.mod = (await import('pkcs11js')) as Pkcs11Lib;
      this.lib = new this.mod.PKCS11();
      this.lib.load(this.config.module);
    }
    return this.connect();
  }

  primaryId(): string {
    return this.kekId;
  }

  async ready(): Promise<boolean> {
    return this.connected;
  }

  /** Why the provider is not connected, for `keys init` and logs (never holds the PIN). */
  problem(): string | undefined {
    return this.lastProblem;
  }

  async wrap(dataKey: Buffer, context: string): Promise<{ kekId: string; wrapped: Buffer }> {
    const iv = randomBytes(IV_BYTES);
    const body = await this.call('wrap', (lib, mod, session, key) => {
      lib.C_EncryptInit(session, this.gcm(mod, iv, context), key);
      return lib.C_EncryptAsync(session, dataKey, Buffer.alloc(dataKey.length + 32));
    });
    return { kekId: this.kekId, wrapped: Buffer.concat([Buffer.from([FORMAT]), iv, body]) };
  }

  async unwrap(kekId: string, wrapped: Uint8Array, context: string): Promise<Buffer> {
    if (kekId !== this.kekId) {
      if (this.options.legacy?.has(kekId)) return this.options.legacy.unwrap(kekId, wrapped, context);
      throw new Error(`key-encryption key "${kekId}" is neither the HSM key "${this.config.keyLabel}" nor one of KEY_ENCRYPTION_KEYS`);
    }
    const buf = Buffer.from(wrapped.buffer, wrapped.byteOffset, wrapped.byteLength);
    if (buf[0] !== FORMAT) throw new Error('unknown wrapped-key format');
    const iv = buf.subarray(1, 1 + IV_BYTES);
    return this.call('unwrap', (lib, mod, session, key) => {
      lib.C_DecryptInit(session, this.gcm(mod, iv, context), key);
      return lib.C_DecryptAsync(session, buf.subarray(1 + IV_BYTES), Buffer.alloc(buf.length));
    });
  }

  /** The key's protection as the HSM reports it (`keys init`, tests): true/true is what this provider creates. */
  async keyAttributes(): Promise<{ sensitive: boolean; extractable: boolean; label: string }> {
    return this.call('attributes', async (lib, mod, session, key) => {
      const [sensitive, extractable, label] = lib.C_GetAttributeValue(session, key, [
        { type: mod.CKA_SENSITIVE },
        { type: mod.CKA_EXTRACTABLE },
        { type: mod.CKA_LABEL },
      ]);
      return { sensitive: flag(sensitive.value), extractable: flag(extractable.value), label: String(label.value) };
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.disconnect();
  }

  private gcm(mod: Pkcs11Lib, iv: Buffer, context: string) {
    return {
      mechanism: mod.CKM_AES_GCM,
      parameter: { type: mod.CK_PARAMS_AES_GCM, iv, aad: Buffer.from(context, 'utf8'), ivBits: IV_BYTES * 8, tagBits: 128 },
    };
  }

  /** Runs `op` on the session, after the operations before it, within callTimeoutMs. */
  private call<T>(what: string, op: (lib: NonNullable<typeof this.lib>, mod: Pkcs11Lib, session: Handle, key: Handle) => Promise<T>): Promise<T> {
    if (!this.connected || !this.lib || !this.mod || !this.session || !this.key) {
      return Promise.reject(new KeyCustodyUnavailableError(`the HSM is not available (${this.lastProblem ?? 'not connected'})`));
    }
    const [lib, mod, session, key] = [this.lib, this.mod, this.session, this.key];
    const queue = this.queue;
    const run = queue.then(() => {
      if (this.session !== session) throw new KeyCustodyUnavailableError('the HSM session was lost');
      return op(lib, mod, session, key);
    });
    this.queue = run.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new KeyCustodyUnavailableError(`the HSM did not answer a ${what} within ${this.config.callTimeoutMs} ms`)),
        this.config.callTimeoutMs,
      );
    });
    return Promise.race([run, timeout])
      .catch((err: unknown) => {
        if (this.session !== session) throw err instanceof KeyCustodyUnavailableError ? err : new KeyCustodyUnavailableError('the HSM session was lost');
        // a failed operation on a live session is about its input (a wrapped key that does not open): not an outage
        if (!(err instanceof KeyCustodyUnavailableError) && this.sessionAlive()) throw new Error(`HSM ${what} failed: ${describe(err)}`);
        this.lost(err instanceof KeyCustodyUnavailableError ? err.message : describe(err));
        throw err instanceof KeyCustodyUnavailableError ? err : new KeyCustodyUnavailableError(`the HSM failed a ${what}: ${describe(err)}`);
      })
      .finally(() => clearTimeout(timer));
  }

  /** A cheap round trip on the key object: fails when the token, the session or the key is gone. */
  private sessionAlive(): boolean {
    const { lib, mod, session, key } = this;
    if (!lib || !mod || !session || !key) return false;
    try {
      lib.C_GetAttributeValue(session, key, [{ type: mod.CKA_KEY_TYPE }]);
      return true;
    } catch {
      return false;
    }
  }

  private lost(reason: string): void {
    if (!this.connected) return;
    this.disconnect();
    this.lastProblem = reason;
    this.options.log?.('error', `HSM lost (${reason}): keys already in memory keep working, cold keys get 503; reconnecting every ${this.config.retryMs} ms`);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.connect();
    }, this.config.retryMs);
    this.retry.unref();
  }

  /** Library, slot, session, login, key: all or nothing. Logs only when the state changes. */
  private connect(): boolean {
    const { lib, mod } = this;
    if (!lib || !mod) throw new Error('start() loads the PKCS#11 module first');
    const wasProblem = this.lastProblem;
    try {
      this.disconnect();
      lib.C_Initialize();
      this.initialized = true;
      const slot = this.findSlot(lib);
      const session = lib.C_OpenSession(slot, mod.CKF_SERIAL_SESSION | mod.CKF_RW_SESSION);
      this.session = session;
      try {
        lib.C_Login(session, mod.CKU_USER, this.config.pin);
      } catch (err) {
        if (!(err instanceof mod.Pkcs11Error && err.code === mod.CKR_USER_ALREADY_LOGGED_IN)) throw err;
      }
      const key = this.findKey(lib, mod, session) ?? (this.options.createKey ? this.createKey(lib, mod, session) : undefined);
      if (!key) throw new Error(`no key labelled "${this.config.keyLabel}" in the token: create it with "keys init"`);
      this.key = key;
      this.queue = Promise.resolve();
      this.connected = true;
      this.lastProblem = undefined;
      if (wasProblem) this.options.log?.('info', `HSM session established again (key "${this.config.keyLabel}")`);
      return true;
    } catch (err) {
      this.disconnect();
      this.lastProblem = describe(err);
      // one line when the HSM becomes unreachable, not one per retry
      if (wasProblem === undefined)
        this.options.log?.('error', `HSM not available: ${this.lastProblem}; not ready, trying again every ${this.config.retryMs} ms`);
      this.scheduleRetry();
      return false;
    }
  }

  private disconnect(): void {
    this.connected = false;
    this.session = undefined;
    this.key = undefined;
    if (this.initialized && this.lib) {
      try {
        // closes every session of the process with the library: the next connect starts from scratch
        this.lib.C_Finalize();
      } catch {
        /* the library may already have lost its token */
      }
      this.initialized = false;
    }
  }

  private findSlot(lib: NonNullable<typeof this.lib>): Handle {
    const slots = lib.C_GetSlotList(true);
    if (this.config.tokenLabel !== undefined) {
      const slot = slots.find((s) => lib.C_GetTokenInfo(s).label.trim() === this.config.tokenLabel);
      if (!slot) throw new Error(`no token labelled "${this.config.tokenLabel}" (PKCS11_TOKEN_LABEL) in ${slots.length} slot(s)`);
      return slot;
    }
    const slot = slots[this.config.slot ?? 0];
    if (!slot) throw new Error(`no token in slot ${this.config.slot ?? 0} (PKCS11_SLOT) of ${slots.length}`);
    return slot;
  }

  private findKey(lib: NonNullable<typeof this.lib>, mod: Pkcs11Lib, session: Handle): Handle | undefined {
    lib.C_FindObjectsInit(session, [
      { type: mod.CKA_CLASS, value: mod.CKO_SECRET_KEY },
      { type: mod.CKA_LABEL, value: this.config.keyLabel },
    ]);
    try {
      const found = lib.C_FindObjects(session, 2);
      if (found.length > 1) throw new Error(`more than one key is labelled "${this.config.keyLabel}" in the token`);
      return found[0];
    } finally {
      lib.C_FindObjectsFinal(session);
    }
  }

  /** AES-256, on the token, private, sensitive and never extractable: it can encrypt and decrypt, nothing else. */
  private createKey(lib: NonNullable<typeof this.lib>, mod: Pkcs11Lib, session: Handle): Handle {
    const key = lib.C_GenerateKey(session, { mechanism: mod.CKM_AES_KEY_GEN }, [
      { type: mod.CKA_CLASS, value: mod.CKO_SECRET_KEY },
      { type: mod.CKA_KEY_TYPE, value: mod.CKK_AES },
      { type: mod.CKA_VALUE_LEN, value: 32 },
      { type: mod.CKA_LABEL, value: this.config.keyLabel },
      { type: mod.CKA_TOKEN, value: true },
      { type: mod.CKA_PRIVATE, value: true },
      { type: mod.CKA_SENSITIVE, value: true },
      { type: mod.CKA_EXTRACTABLE, value: false },
      { type: mod.CKA_ENCRYPT, value: true },
      { type: mod.CKA_DECRYPT, value: true },
      { type: mod.CKA_WRAP, value: false },
      { type: mod.CKA_UNWRAP, value: false },
      { type: mod.CKA_SIGN, value: false },
      { type: mod.CKA_VERIFY, value: false },
      { type: mod.CKA_DERIVE, value: false },
    ]);
    this.options.log?.('info', `created the key-encryption key "${this.config.keyLabel}" in the HSM (AES-256, sensitive, non-extractable)`);
    return key;
  }
}

function flag(value: unknown): boolean {
  return Buffer.isBuffer(value) ? value.length > 0 && value[0] !== 0 : Boolean(value);
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
