import { Injectable } from '@nestjs/common';
import { SUBJECTS, type Principal, type ReactorEgressDefault, type TenantView } from '@coffer/contracts';
import { RpcClient } from '@coffer/messaging';

const TTL_MS = 5_000;

/**
 * A tenant's default for reactors without an egress list (`settings.reactor_egress`, owned by session-service),
 * cached briefly. Read only when a formula of such a reactor calls `fetch` (the sandbox asks lazily).
 */
@Injectable()
export class TenantEgressDefault {
  private readonly cache = new Map<string, { value: ReactorEgressDefault; at: number }>();

  constructor(private readonly rpc: RpcClient) {}

  async get(principal: Principal, traceId: string): Promise<ReactorEgressDefault> {
    const hit = this.cache.get(principal.tenantId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
    const tenant = await this.rpc.call<TenantView>(SUBJECTS.session.tenants.get, { internal: true }, { principal, traceId });
    const value: ReactorEgressDefault = tenant.settings?.reactor_egress === 'deny_unlisted' ? 'deny_unlisted' : 'allow_public';
    this.cache.set(principal.tenantId, { value, at: Date.now() });
    return value;
  }
}
