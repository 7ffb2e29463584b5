import { Injectable, type OnModuleInit } from '@nestjs/common';
import { PgListener, onTenantAccessChanged } from '@coffer/db';
import { TenantKeyring } from './tenant-keyring';

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
    await onTenantAccessChanged(this.listener, (tenantId) => this.keyring.forgetTenant(tenantId));
  }
}
