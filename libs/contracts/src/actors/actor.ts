import type { Principal } from '../auth/principal';

/**
 * Who did something, as audit records and events name it. An API key acts as its application; a person signed in to the console acts as the user (named by email); a session key acts as
 * the session (its application is the public one that created it); the operator CLI acts as `operator` with the
 * operating system user or the name given with --actor. The name is filled where the acting service knows it.
 */
export const ACTOR_TYPES = ['application', 'session', 'user', 'operator', 'anonymous', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

export interface Actor {
  id: string;
  type: ActorType;
  name?: string;
}

export function actorOf(principal: Principal, name?: string): Actor {
  // a person in the console is named by their email, whatever the caller knows of an application
  if (principal.user) return { id: principal.user.id, type: 'user', name: principal.user.email };
  if (principal.sessionId) return { id: principal.sessionId, type: 'session' };
  return name === undefined ? { id: principal.applicationId, type: 'application' } : { id: principal.applicationId, type: 'application', name };
}

export function operatorActor(name: string): Actor {
  return { id: name, type: 'operator', name };
}

/** Coffer itself (the expiry sweeper, the webhook dispatcher disabling a failing subscription). */
export function systemActor(name: string): Actor {
  return { id: name, type: 'system', name };
}
