import { Injectable } from '@nestjs/common';
import { DEFAULT_TENANT_SETTINGS, SUBJECTS, type Principal, type TenantSettings, type TenantView } from '@coffer/contracts';
import { RpcClient } from '@coffer/messaging';

const TTL_MS = 5_000;

/** Tenant settings come from session-service; cached briefly so a create does not pay a round trip each time. */
@Injectable()
export class TenantSettingsClient {
  private readonly cache = new Map<string, { settings: TenantSettings; at: number }>();

  constructor(private readonly rpc: RpcClient) {}

  async get(principal: Principal, traceId: string): Promise<TenantSettings> {
    const hit = this.cache.get(principal.tenantId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.settings;
    const tenant = await this.rpc.call<TenantView>(SUBJECTS.session.tenants.get, { internal: true }, { principal, traceId });
    const settings = { ...DEFAULT_TENANT_SETTINGS, ...tenant.settings };
    this.cache.set(principal.tenantId, { settings, at: Date.now() });
    return settings;
  }
}
