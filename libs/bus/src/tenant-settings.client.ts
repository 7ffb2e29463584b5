import { Injectable, type OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { OPS, SUBJECTS, DEFAULT_TENANT_SETTINGS, type Principal, type TenantSettings, type TenantView } from '@coffer/contracts';
import { RpcClient } from './rpc-client';
import { EventBus } from './event-bus';
import { SharedLookups } from './shared-lookups';

/** How long settings are kept without news of the tenant (a change announces itself at once; this bounds a lost event). */
export const TENANT_SETTINGS_TTL_MS = 5_000;

/**
 * A tenant's settings, owned by session-service, as the other services read them: cached per tenant, so a token
 * create or a reactor's first `fetch` does not pay a round trip each time. session-service announces every change
 * (`events.tenants.settings-changed.v1`, once the write commits) and the tenant's entry is dropped at once; the TTL
 * only bounds how long a lost announcement (NATS core is at most once) can leave a service on the old settings.
 */
@Injectable()
export class TenantSettingsClient implements OnModuleInit {
  private readonly cache = new LRUCache<string, TenantSettings>({ max: 10_000, ttl: TENANT_SETTINGS_TTL_MS });
  /**
   * One lookup per tenant at a time, shared by the requests that miss the cache meanwhile. A change detaches the
   * tenant's lookup under way: it may have read the settings before the change committed, so it is not shared with
   * later requests nor kept (it would otherwise outlive the announcement for a whole TTL).
   */
  private readonly lookups = new SharedLookups<TenantSettings>();
  private readonly listeners: Array<(tenantId: string) => void> = [];

  constructor(
    private readonly rpc: RpcClient,
    private readonly events: EventBus,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.events.subscribe<{ tenantId?: unknown }>(SUBJECTS.events.tenantSettingsChanged, (e) => {
      if (typeof e?.tenantId === 'string') this.forget(e.tenantId);
    });
  }

  /**
   * The settings of `principal`'s tenant. A lookup is made as whichever request missed the cache first (any principal of
   * the tenant may read them, and they are the same for all of its principals), under that request's deadline and trace.
   */
  get(principal: Principal, traceId: string): Promise<TenantSettings> {
    const tenantId = principal.tenantId;
    const hit = this.cache.get(tenantId);
    if (hit) return Promise.resolve(hit);
    return this.lookups.ask(
      tenantId,
      tenantId,
      async () => {
        const tenant = await this.rpc.call<TenantView>(OPS.session.tenants.get, { internal: true }, { principal, traceId });
        return { ...DEFAULT_TENANT_SETTINGS, ...tenant.settings };
      },
      (settings) => this.cache.set(tenantId, settings),
    );
  }

  /** `listener` hears of each announced change (what a caller caches from the settings goes with them). */
  onChange(listener: (tenantId: string) => void): void {
    this.listeners.push(listener);
  }

  /** Drops what is cached of `tenantId`'s settings, as an announcement of a change does. */
  forget(tenantId: string): void {
    this.lookups.forgetTenant(tenantId);
    this.cache.delete(tenantId);
    for (const listener of this.listeners) listener(tenantId);
  }
}
