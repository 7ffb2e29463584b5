import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SUBJECTS } from '@coffer/contracts';
import { EventBus } from '@coffer/bus';
import { PgListener, onTenantAccessChanged } from '@coffer/db';

/**
 * The operator CLI acts on the database only: when it suspends or deletes a tenant or reissues its management key, it
 * notifies CHANNELS.tenantAccess with the tenant id once the act committed (announceTenantAccessChanged). This relays
 * that to the bus as an auth invalidation of all the tenant's keys, so every gateway refuses them at once instead of
 * when its cached principals expire (AUTH_CACHE_TTL_MS). Each replica relays what it hears: a gateway told twice drops
 * nothing more.
 */
@Injectable()
export class TenantAccessRelay implements OnModuleInit {
  constructor(
    private readonly listener: PgListener,
    private readonly events: EventBus,
  ) {}

  async onModuleInit(): Promise<void> {
    await onTenantAccessChanged(this.listener, (tenantId) => {
      void this.events.publish(SUBJECTS.events.authInvalidated, { tenantId, allKeys: true }).catch(() => undefined);
    });
  }
}
