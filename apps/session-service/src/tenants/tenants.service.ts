import { Injectable } from '@nestjs/common';
import {
  DEFAULT_TENANT_SETTINGS,
  SUBJECTS,
  type UpdateTenantRequest,
  actorOf,
  newEvent,
  notFound,
  type TenantSettings,
  type TenantView,
} from '@coffer/contracts';
import { EventBus } from '@coffer/bus';
import { changedFields, type Tenant } from '@coffer/db';
import { RecordedWrites, asCaller, type AuditAct } from '@coffer/operations';
import { TenantRepository } from './tenant.repository';

export function toTenantView(t: Tenant): TenantView {
  const view: TenantView = {
    id: t.id,
    name: t.name,
    settings: { ...DEFAULT_TENANT_SETTINGS, ...(t.settings as Partial<TenantSettings>) },
    created_at: t.createdAt.toISOString(),
  };
  if (t.modifiedAt) view.modified_at = t.modifiedAt.toISOString();
  return view;
}

@Injectable()
export class TenantsService {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly writes: RecordedWrites,
    private readonly events: EventBus,
  ) {}

  /** `owner: false` (services reading settings): without `owner_id`, one statement less on a hot path. */
  async get(tenantId: string, options: { owner?: boolean } = {}): Promise<TenantView> {
    const t = await this.tenants.find(tenantId);
    if (!t) throw notFound('tenant');
    const view = toTenantView(t);
    if (options.owner !== false) {
      const ownerId = await this.tenants.ownerOf(tenantId);
      if (ownerId) view.owner_id = ownerId;
    }
    return view;
  }

  /**
   * `req` was validated against the contract at the edge (the gateway's pipe). The change, its audit record and its
   * tenant.updated event commit together; then the services that cache the settings (TenantSettingsClient) are told.
   */
  async update(req: UpdateTenantRequest): Promise<TenantView> {
    const { principal, traceId } = asCaller();
    const { after } = await this.writes.commit(
      async () => {
        const before = await this.get(principal.tenantId);
        const after = await this.updated(before, req);
        // published once the transaction commits (EventBus.publish): a reader told earlier could fetch the old row again
        await this.events.publish(SUBJECTS.events.tenantSettingsChanged, { tenantId: after.id });
        return { before, after };
      },
      ({ before, after }) => ({
        events: [newEvent('tenant.updated', principal.tenantId, traceId, actorOf(principal), { tenant: after })],
        audit: { operation: 'update', entityType: 'tenant', entityId: after.id, ...tenantChanges(before, after) },
      }),
    );
    return after;
  }

  /** The tenant as `req` changes it: settings merged member by member; an empty origin list clears that setting. */
  private async updated(current: TenantView, req: UpdateTenantRequest): Promise<TenantView> {
    const settings = { ...current.settings };
    if (req.settings?.deduplicate_tokens !== undefined) settings.deduplicate_tokens = req.settings.deduplicate_tokens;
    if (req.settings?.reactor_egress !== undefined) settings.reactor_egress = req.settings.reactor_egress;
    // the console's sign-in policy (console-sign-in.service.ts reads it); the operation needs tenant:update
    if (req.settings?.console_key_sign_in !== undefined) settings.console_key_sign_in = req.settings.console_key_sign_in;
    if (req.settings?.console_require_mfa !== undefined) settings.console_require_mfa = req.settings.console_require_mfa;
    if (req.settings?.elements_allowed_origins !== undefined) {
      // an empty list clears the setting: any origin again, as before it was set
      const origins = [...new Set(req.settings.elements_allowed_origins)];
      if (origins.length) settings.elements_allowed_origins = origins;
      else delete settings.elements_allowed_origins;
    }
    const t = await this.tenants.update(current.id, { name: req.name ?? current.name, settings: { ...settings } });
    if (!t) throw notFound('tenant');
    const view = toTenantView(t);
    if (current.owner_id) view.owner_id = current.owner_id;
    return view;
  }
}

/** What a tenant update changed: its name and each setting (`settings.<name>`), old and new; none: no `changes`. */
function tenantChanges(before: TenantView, after: TenantView): Pick<AuditAct, 'changes'> {
  const changes = {
    ...changedFields(before, after, ['name']),
    ...Object.fromEntries(
      Object.entries(changedFields(before.settings, after.settings, Object.keys({ ...before.settings, ...after.settings })) ?? {}).map(([k, v]) => [
        `settings.${k}`,
        v,
      ]),
    ),
  };
  return Object.keys(changes).length ? { changes } : {};
}
