import { Injectable } from '@nestjs/common';
import type { Principal, ReactorEgressDefault } from '@coffer/contracts';
import { TenantSettingsClient } from '@coffer/bus';

/**
 * A tenant's default for reactors without an egress list (`settings.reactor_egress`), read only when a formula of such
 * a reactor calls `fetch` (the sandbox asks lazily); anything but `deny_unlisted` is the public internet, as before.
 */
@Injectable()
export class TenantEgressDefault {
  constructor(private readonly settings: TenantSettingsClient) {}

  async get(principal: Principal, traceId: string): Promise<ReactorEgressDefault> {
    return (await this.settings.get(principal, traceId)).reactor_egress === 'deny_unlisted' ? 'deny_unlisted' : 'allow_public';
  }
}
