import { randomUUID } from 'node:crypto';
import { idempotentRequestOf, type IdempotentRequest } from '@coffer/idempotency';
import type pg from 'pg';
import { withActingContext } from '@coffer/operations';
import { deferUntilCommitted } from '@coffer/db/after-commit';
import { DEFAULT_TENANT_SETTINGS, type AccessRule, type ApplicationType, type Principal, type TenantSettings } from '@coffer/contracts';

/** A tenant row (session-service owns the table; other services only need its id to exist for their own rows). */
export async function insertTenant(sql: pg.Pool, settings: Record<string, unknown> = {}, name = 'int-test tenant'): Promise<string> {
  const id = randomUUID();
  await sql.query('INSERT INTO tenants (id, name, settings) VALUES ($1, $2, $3::jsonb)', [id, name, JSON.stringify(settings)]);
  return id;
}

/**
 * Runs `fn` as an operation of `principal` (what the dispatcher does around a handler): a use case called inside reads
 * it with caller(), and its records carry `traceId`.
 */
export function runAsCaller<T>(principal: Principal, fn: () => T, traceId = 't'): T {
  return withActingContext({ principal, traceId }, fn);
}

/** A caller as session-service would resolve it from an API key: an application of `tenantId` with these grants. */
export function principalOf(
  tenantId: string,
  grants: { permissions?: string[]; rules?: AccessRule[]; type?: ApplicationType; applicationId?: string } = {},
): Principal {
  return {
    tenantId,
    applicationId: grants.applicationId ?? randomUUID(),
    applicationType: grants.type ?? 'private',
    permissions: grants.permissions ?? [],
    ...(grants.rules ? { rules: grants.rules } : {}),
  };
}

/** The problem a use case refused with (status, field errors), or a failure when it did not refuse. */
export async function problemOf(work: Promise<unknown>): Promise<{ status: number; detail?: string; errors?: Record<string, string[]> }> {
  try {
    await work;
  } catch (err) {
    const problem = (err as { problem?: { status: number; detail?: string; errors?: Record<string, string[]> } }).problem;
    if (problem) return problem;
    throw err;
  }
  throw new Error('expected a problem, but the call succeeded');
}

/**
 * The one call a service makes to session-service for a tenant's settings (TenantSettingsClient.get), answered in
 * process: the medium tier runs without NATS. `settings` is read at each call, so a test may change it.
 */
export function fakeTenantSettings(settings: Map<string, Partial<TenantSettings>> = new Map()): {
  get(principal: Principal): Promise<TenantSettings>;
  settings: Map<string, Partial<TenantSettings>>;
} {
  return { settings, get: async (principal) => ({ ...DEFAULT_TENANT_SETTINGS, ...settings.get(principal.tenantId) }) };
}

/**
 * The event bus as the medium tier sees it: what a use case publishes (cache invalidations for the gateway) is
 * recorded instead of sent over NATS, so a test can assert that the right event was announced. As EventBus does, an
 * event published inside a unit of work is recorded once it commits, and not at all if it rolls back.
 */
export function recordingEventBus(): { published: Array<{ subject: string; payload: unknown }>; publish(subject: string, payload: unknown): Promise<void> } {
  const published: Array<{ subject: string; payload: unknown }> = [];
  const record = (subject: string, payload: unknown) => void published.push({ subject, payload });
  return {
    published,
    publish: async (subject, payload) => {
      if (!deferUntilCommitted(() => record(subject, payload))) record(subject, payload);
    },
  };
}

/** The idempotent request a call with `idempotencyKey` stands for, as the service's handler derives it from the envelope. */
export function idempotentRequest(route: string, env: { principal: Principal; traceId: string; idempotencyKey: string; body: unknown }): IdempotentRequest {
  const req = idempotentRequestOf(route, env);
  if (!req) throw new Error('an idempotency key and a principal make an idempotent request');
  return req;
}

/**
 * Runs `work` while PostgreSQL refuses every audit record (a trigger raising `audit refused`), as a full disk or a
 * dropped connection would: for the tests that an act and its record commit together or not at all.
 */
export async function withAuditRefused(sql: pg.Pool, work: () => Promise<void>): Promise<void> {
  await sql.query(`CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit refused'; END $$`);
  await sql.query('CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION refuse_audit()');
  try {
    await work();
  } finally {
    await sql.query('DROP TRIGGER refuse_audit ON audit_events');
    await sql.query('DROP FUNCTION refuse_audit()');
  }
}
