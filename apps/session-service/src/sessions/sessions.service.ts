import { randomUUID } from 'node:crypto';
import { Injectable, Optional, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import {
  AuthorizeSessionRequest,
  FieldErrors,
  ProblemError,
  SUBJECTS,
  actorOf,
  conflict,
  newEvent,
  validateContract,
  type CreateSessionResponse,
} from '@coffer/contracts';
import { validateGrants } from '@coffer/auth';
import { generateSecret, sha256Hex } from '@coffer/crypto';
import { changedFields, periodicWork } from '@coffer/db';
import { EventBus } from '@coffer/bus';
import { RecordedWrites, asCaller } from '@coffer/operations';
import { sessionServiceConfig } from '../config';
import { RateLimitWindows } from '../rate-limits/rate-limit-windows';
import { SessionRepository } from './session.repository';

export const SESSION_LIFETIME_MS = 3 * 60_000;
const MAX_AUTHORIZED_LIFETIME_MS = 24 * 3600_000;

@Injectable()
export class SessionsService implements OnModuleInit, OnApplicationShutdown {
  private sweeper?: ReturnType<typeof periodicWork>;

  constructor(
    private readonly sessions: SessionRepository,
    private readonly events: EventBus,
    private readonly writes: RecordedWrites,
    /** the gateway's shared rate limits: their old windows go with the same sweep */
    @Optional() private readonly rateLimits?: RateLimitWindows,
  ) {}

  /** The session, its audit record and its session.created event commit together (never the key or the nonce). */
  async create(): Promise<CreateSessionResponse> {
    const { principal, traceId } = asCaller();
    if (principal.sessionId || principal.applicationType !== 'public') throw new ProblemError(403, 'Sessions are created with a public application key');
    const sessionKey = generateSecret('skey');
    const nonce = generateSecret('nonce');
    const expiresAt = new Date(Date.now() + SESSION_LIFETIME_MS);
    const id = randomUUID();
    // one statement: a checkout page creates a session per visit
    await this.writes.commitStatement(
      this.sessions.insertPending({
        tenantId: principal.tenantId,
        id,
        applicationId: principal.applicationId,
        keyHash: sha256Hex(sessionKey),
        nonceHash: sha256Hex(nonce),
        expiresAt,
      }),
      {
        events: [
          newEvent('session.created', principal.tenantId, traceId, actorOf(principal), {
            session: { id, application_id: principal.applicationId, expires_at: expiresAt.toISOString() },
          }),
        ],
        audit: { operation: 'create', entityType: 'session', entityId: id, changes: { expires_at: { new: expiresAt.toISOString() } } },
      },
      'session_create',
    );
    return { session_key: sessionKey, nonce, expires_at: expiresAt.toISOString() };
  }

  async authorize(body: unknown): Promise<void> {
    const { principal, traceId } = asCaller();
    if (principal.sessionId || principal.applicationType !== 'private') throw new ProblemError(403, 'Sessions are authorized with a private application key');
    const req = validateContract(AuthorizeSessionRequest, body);
    const errors = new FieldErrors();
    const authorizerPermissions = principal.rules?.length ? [...new Set(principal.rules.flatMap((r) => r.permissions))] : principal.permissions;
    const grants = validateGrants('private', req.permissions ?? [], req.rules ?? [], errors, {
      session: { authorizerPermissions },
    });
    if (!grants.permissions.length && !grants.rules?.length && errors.empty)
      errors.add('permissions', 'at least one of permissions or rules must be non-empty');
    let requestedExpiry: Date | undefined;
    if (req.expires_at !== undefined) {
      const t = Date.parse(req.expires_at);
      if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}T/.test(req.expires_at)) errors.add('expires_at', 'must be an ISO 8601 date-time');
      else requestedExpiry = new Date(t);
    }
    errors.throwIfAny();

    const session = await this.sessions.findByNonceHash(principal.tenantId, sha256Hex(req.nonce));
    if (!session || session.expiresAt.getTime() <= Date.now()) throw new ProblemError(404, 'The session nonce is unknown or expired');
    if (session.authorizedAt) throw conflict('The session has already been authorized');
    if (requestedExpiry) {
      if (requestedExpiry.getTime() <= Date.now()) errors.add('expires_at', 'must be in the future');
      else if (requestedExpiry.getTime() > session.createdAt.getTime() + MAX_AUTHORIZED_LIFETIME_MS)
        errors.add('expires_at', 'must be at most 24 hours after the session was created');
      errors.throwIfAny();
    }
    const expiresAt = (requestedExpiry ?? session.expiresAt).toISOString();
    const authorized = await this.writes.commitStatement(
      this.sessions.authorizePending(principal.tenantId, session.id, {
        permissions: grants.rules?.length ? [] : grants.permissions,
        rules: grants.rules?.length ? grants.rules : null,
        authorizedBy: principal.applicationId,
        expiresAt: requestedExpiry ?? session.expiresAt,
      }),
      {
        events: [
          newEvent('session.authorized', principal.tenantId, traceId, actorOf(principal), {
            session: {
              id: session.id,
              application_id: session.applicationId,
              authorized_by: principal.applicationId,
              ...(grants.rules?.length ? { rules: grants.rules } : { permissions: grants.permissions }),
              expires_at: expiresAt,
            },
          }),
        ],
        audit: {
          operation: 'authorize',
          entityType: 'session',
          entityId: session.id,
          changes: changedFields(
            {},
            {
              permissions: grants.rules?.length ? undefined : grants.permissions,
              rules: grants.rules,
              expires_at: expiresAt,
            },
            ['permissions', 'rules', 'expires_at'],
          ),
        },
      },
      'session_authorize',
    );
    if (!authorized.length) throw conflict('The session has already been authorized');
    await this.events.publish(SUBJECTS.events.authInvalidated, { tenantId: principal.tenantId, sessionId: session.id });
  }

  onModuleInit(): void {
    this.sweeper = periodicWork('sessions-sweep', sessionServiceConfig().sessionSweepIntervalMs, () => this.sweep());
    this.sweeper.start();
  }

  onApplicationShutdown(): void {
    this.sweeper?.stop();
  }

  /** Deletes expired sessions (the count is returned) and the rate limit windows no lease reads any more. */
  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const gone = await this.sessions.deleteExpired(500);
      for (const s of gone) await this.events.publish(SUBJECTS.events.authInvalidated, { tenantId: s.tenant_id, sessionId: s.id });
      total += gone.length;
      if (gone.length < 500) break;
    }
    await this.rateLimits?.sweep();
    return total;
  }
}
