import { Injectable } from '@nestjs/common';
import { ProblemError, type AccessRule, type ApplicationType, type Principal } from '@coffer/contracts';
import { SessionRepository } from '../sessions/session.repository';
import { TenantRepository } from '../tenants/tenant.repository';
import { KeyHolderRepository, type KeyHolder } from './key-holder.repository';

/** The detail of every refusal of a suspended tenant's calls (its keys, and anonymous calls to its proxies). */
const TENANT_SUSPENDED = 'The tenant is suspended: its keys are refused until the operator resumes it';

export interface AuthenticateResult {
  principal: Principal | null;
  /** the gateway never caches a principal past this instant (sessions) */
  expiresAt?: string;
}

/**
 * Resolves a key hash to a principal: an application key or a session key. Unknown or expired → null (401). A key
 * of a suspended tenant is known but refused (403, as for a key that may not act); a deleted tenant has no keys left.
 */
@Injectable()
export class AuthenticateService {
  constructor(
    private readonly holders: KeyHolderRepository,
    private readonly sessions: SessionRepository,
    private readonly tenants: TenantRepository,
  ) {}

  async authenticate(keyHash: string): Promise<AuthenticateResult> {
    if (typeof keyHash !== 'string' || !/^[0-9a-f]{64}$/.test(keyHash)) return { principal: null };
    const holder = await this.holders.findByKeyHash(keyHash);
    if (!holder) return { principal: null };
    const result = holder.kind === 'application' ? { principal: applicationPrincipal(holder) } : await this.sessionResult(holder);
    if (result.principal) {
      if (holder.tenantGone) return { principal: null };
      if (holder.tenantSuspended) throw new ProblemError(403, TENANT_SUSPENDED);
    }
    return result;
  }

  /**
   * Whether a tenant may act, for an anonymous call to one of its pre-configured proxies (require_auth false): such a
   * call carries no key, so authenticate() never ran for it. Refused like the tenant's keys: suspended → 403 (thrown),
   * deleted or unknown → not active (the gateway answers 401).
   */
  async standing(tenantId: string): Promise<{ active: boolean }> {
    const tenant = await this.tenants.find(tenantId);
    if (!tenant || tenant.deletedAt) return { active: false };
    if (tenant.suspendedAt) throw new ProblemError(403, TENANT_SUSPENDED);
    return { active: true };
  }

  private async sessionResult(session: Extract<KeyHolder, { kind: 'session' }>): Promise<AuthenticateResult> {
    if (session.expiresAt.getTime() <= Date.now()) {
      await this.sessions.delete(session.tenantId, session.sessionId);
      return { principal: null };
    }
    // invariant 3: a session lives only as long as its public application and its authorizer (deleting either, or
    // regenerating its key, also deletes the session; this lookup is the fail-closed second line)
    if (!session.ownerExists || (session.authorizedAt && !session.authorizer)) {
      await this.sessions.delete(session.tenantId, session.sessionId);
      return { principal: null };
    }
    const principal: Principal = {
      tenantId: session.tenantId,
      applicationId: session.applicationId,
      applicationType: 'public',
      permissions: session.permissions,
      sessionId: session.sessionId,
    };
    if (session.rules) principal.rules = session.rules as AccessRule[];
    if (!session.authorizedAt) principal.sessionPending = true;
    const authorizer = session.authorizer;
    if (authorizer) {
      principal.authorizer = { applicationId: authorizer.applicationId, permissions: authorizer.permissions };
      if (authorizer.rules) principal.authorizer.rules = authorizer.rules as AccessRule[];
    }
    return { principal, expiresAt: session.expiresAt.toISOString() };
  }
}

function applicationPrincipal(app: Extract<KeyHolder, { kind: 'application' }>): Principal {
  const principal: Principal = {
    tenantId: app.tenantId,
    applicationId: app.applicationId,
    applicationType: app.applicationType as ApplicationType,
    permissions: app.permissions,
  };
  if (app.rules) principal.rules = app.rules as AccessRule[];
  return principal;
}
