import { Injectable } from '@nestjs/common';
import type { AccessRule, ApplicationType, Principal } from '@coffer/contracts';
import { ApplicationRepository } from '../applications/application.repository';
import { SessionRepository } from '../sessions/session.repository';

export interface AuthenticateResult {
  principal: Principal | null;
  /** the gateway never caches a principal past this instant (sessions) */
  expiresAt?: string;
}

/** Resolves a key hash to a principal: an application key or a session key. Unknown or expired → null (401). */
@Injectable()
export class AuthenticateService {
  constructor(
    private readonly applications: ApplicationRepository,
    private readonly sessions: SessionRepository,
  ) {}

  async authenticate(keyHash: string): Promise<AuthenticateResult> {
    if (typeof keyHash !== 'string' || !/^[0-9a-f]{64}$/.test(keyHash)) return { principal: null };
    const app = await this.applications.findByKeyHash(keyHash);
    if (app) {
      const principal: Principal = {
        tenantId: app.tenantId,
        applicationId: app.id,
        applicationType: app.type as ApplicationType,
        permissions: app.permissions,
      };
      if (app.rules) principal.rules = app.rules as unknown as AccessRule[];
      return { principal };
    }
    const session = await this.sessions.findByKeyHash(keyHash);
    if (!session) return { principal: null };
    if (session.expiresAt.getTime() <= Date.now()) {
      await this.sessions.delete(session.tenantId, session.id);
      return { principal: null };
    }
    const principal: Principal = {
      tenantId: session.tenantId,
      applicationId: session.applicationId,
      applicationType: 'public',
      permissions: session.permissions,
      sessionId: session.id,
    };
    if (session.rules) principal.rules = session.rules as unknown as AccessRule[];
    if (!session.authorizedAt) principal.sessionPending = true;
    return { principal, expiresAt: session.expiresAt.toISOString() };
  }
}
