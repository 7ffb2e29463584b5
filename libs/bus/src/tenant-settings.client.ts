import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { OPS, DEFAULT_TENANT_SETTINGS, type Principal, type TenantSettings, type TenantView } from '@coffer/contracts';
import { RpcClient } from './rpc-client';

/**
 * A tenant's settings, owned by session-service, as the other services read them: cached for 5 s per tenant, so a
 * token create or a reactor's first `fetch` does not pay a round trip each time, and a change is seen within 5 s.
 */
@Injectable()
export class TenantSettingsClient {
  private readonly cache = new LRUCache<string, TenantSettings>({ max: 10_000, ttl: 5_000 });

  constructor(private readonly rpc: RpcClient) {}

  async get(principal: Principal, traceId: string): Promise<TenantSettings> {
    const hit = this.cache.get(principal.tenantId);
    if (hit) return hit;
    const tenant = await this.rpc.call<TenantView>(OPS.session.tenants.get, { internal: true }, { principal, traceId });
    const settings = { ...DEFAULT_TENANT_SETTINGS, ...tenant.settings };
    this.cache.set(principal.tenantId, settings);
    return settings;
  }
}
