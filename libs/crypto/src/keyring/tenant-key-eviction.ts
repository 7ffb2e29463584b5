import { Injectable, type OnModuleInit } from '@nestjs/common';
import { CHANNELS, PgListener } from '@coffer/db';
import { TenantKeyring } from './tenant-keyring';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * When the operator CLI deletes (or suspends, or reissues the key of) a tenant, it notifies CHANNELS.tenantAccess
 * with the tenant id once the act committed (announceTenantAccessChanged). Every process with a keyring drops that
 * tenant's unwrapped keys at once, so a crypto-shredded tenant's keys are gone from memory too, not only from the
 * database. A notice lost while the listening connection was down leaves them to DATA_KEY_CACHE_TTL_MS, unused: the
 * gateways refuse the tenant's keys.
 */
@Injectable()
export class TenantKeyEviction implements OnModuleInit {
  constructor(
    private readonly listener: PgListener,
    private readonly keyring: TenantKeyring,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.listener.on(CHANNELS.tenantAccess, (tenantId) => {
      if (tenantId && UUID.test(tenantId)) this.keyring.forgetTenant(tenantId);
    });
  }
}
