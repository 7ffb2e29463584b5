import { randomUUID } from 'node:crypto';
import type { Actor } from '../actors/actor';

/**
 * The event types Coffer publishes (the mirrored service's names). `GET /webhooks/event-types` lists them and a
 * webhook may subscribe only to these. docs/events.md describes each one's `data`.
 */
export const EVENT_TYPES = [
  'token.created',
  'token.updated',
  'token.deleted',
  'token.expired',
  'token-intent.created',
  'token-intent.deleted',
  'application.created',
  'application.updated',
  'application.deleted',
  'application.key.created',
  'application.key.deleted',
  'session.created',
  'session.authorized',
  'reactor.created',
  'reactor.updated',
  'reactor.deleted',
  'reactor.invoked',
  'reactor.completed',
  'reactor.failed',
  'reactor-formula.created',
  'reactor-formula.updated',
  'reactor-formula.deleted',
  'tenant.updated',
  'proxy.created',
  'proxy.updated',
  'proxy.deleted',
  // people (docs/members.md): member changes, invitations and console sign-ins, successful and refused
  'tenant.member.created',
  'tenant.member.updated',
  'tenant.member.deleted',
  'tenant.owner.transferred',
  'tenant.invitation.created',
  'tenant.invitation.deleted',
  'console.signed-in',
  'console.sign-in-refused',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The `event` member of a delivered envelope (`{event, delivered_at}`): what the outbox stores and the stream carries. */
export interface CofferEvent {
  id: string;
  type: EventType;
  timestamp: string;
  tenant_id: string;
  trace_id: string | null;
  /** the resource's view under its own name (`token`, `application`, …), never plaintext token data, and `actor` */
  data: Record<string, unknown> & { actor: Actor };
}

/** A new event, stamped now with a fresh id. */
export function newEvent(type: EventType, tenantId: string, traceId: string | undefined, actor: Actor, data: Record<string, unknown>): CofferEvent {
  return { id: randomUUID(), type, timestamp: new Date().toISOString(), tenant_id: tenantId, trace_id: traceId ?? null, data: { ...data, actor } };
}

/** The JetStream subject of an event: `coffer.events.<tenant id>.<type>` (dots of the type kept: `token.created`). */
export const eventSubject = (tenantId: string, type: string): string => `coffer.events.${tenantId}.${type}`;

/** The stream that carries every event (subjects `coffer.events.>`), for SIEMs and data pipelines (docs/events.md). */
export const EVENTS_STREAM = 'COFFER_EVENTS';

/**
 * The `data` of reactor.invoked, reactor.completed and reactor.failed: the reactor, the invocation (its request id for
 * an asynchronous one) and, for a failure, the problem's status and title. Never the arguments, the configuration or
 * the result: they may hold detokenized data.
 */
export function invocationEventData(
  reactorId: string,
  invocation: { id?: string; mode: 'sync' | 'async' },
  error?: { status: number; title: string },
): Record<string, unknown> {
  return { reactor: { id: reactorId }, invocation, ...(error ? { error: { status: error.status, title: error.title } } : {}) };
}
