import { Injectable, type OnModuleInit } from '@nestjs/common';
import { OPS, SUBJECTS, type ResolvedProxy } from '@coffer/contracts';
import { sha256Hex } from '@coffer/crypto';
import { EventBus, IndexedLru, RpcClient } from '@coffer/bus';
import { asCaller } from '@coffer/operations';

/** How long a lookup is kept without news of the proxy (a write announces itself at once; this bounds a lost event). */
const TTL_MS = 5_000;

/**
 * Pre-configured proxies by key, as reactor-service resolves them, kept a few seconds: a busy proxy costs one lookup
 * per key and TTL instead of one per call. reactor-service announces every update and deletion
 * (`events.proxies.changed.v1`, after the write commits) and the entries of that proxy are dropped at once, so a
 * deleted proxy, or one that now requires auth, refuses its next call. Unknown keys are not kept.
 */
@Injectable()
export class ProxyDirectory implements OnModuleInit {
  /** filed by proxy id: a change looks only at that proxy's keys */
  private readonly byKey = new IndexedLru<ResolvedProxy>({ max: 10_000, ttl: TTL_MS }, (proxy) => [proxy.id]);
  /**
   * Counts the changes heard of. A lookup's answer is kept only if none came while it was under way: it may have read
   * the proxy before the change committed, and would otherwise outlive the announcement for a whole TTL.
   */
  private changes = 0;

  constructor(
    private readonly rpc: RpcClient,
    private readonly events: EventBus,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.events.subscribe<{ proxyId?: string }>(SUBJECTS.events.proxyChanged, (e) => this.forget(e.proxyId));
  }

  /**
   * The proxy of `key` among the operation's caller's tenant's (null: none), looked up as the caller (`asCaller()`);
   * the caller's tenant is checked on cached ones too.
   */
  async resolve(key: string): Promise<ResolvedProxy | null> {
    const ctx = asCaller();
    const keyHash = sha256Hex(key);
    const cached = this.byKey.get(keyHash);
    if (cached) return cached.tenantId !== ctx.principal.tenantId ? null : cached;
    const changesBefore = this.changes;
    const proxy = await this.rpc.call<ResolvedProxy | null>(OPS.reactor.proxies.resolve, { keyHash }, ctx);
    if (proxy && this.changes === changesBefore) this.byKey.set(keyHash, proxy);
    return proxy;
  }

  private forget(proxyId: string | undefined): void {
    this.changes++;
    if (!proxyId) return;
    this.byKey.deleteWhere([proxyId]);
  }
}
