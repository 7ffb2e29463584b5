import { createContext, useContext } from 'react';
import type { Schema } from './api';

/** A member's role in the tenant: the OWNER is one member, changed only by a transfer of ownership. */
export type MemberRole = Schema<'MemberView'>['role'];

/** The person signed in through single sign-on (absent for a key's session). */
export interface SessionUser {
  id: string;
  email: string;
  role: MemberRole;
  member_id: string;
}

/** Who is signed in (GET /console/session): the key's application and what it may do, and the person when one signed in. */
export interface ConsoleSession {
  tenant_id: string;
  application_id: string;
  application_type: 'management' | 'private' | 'public';
  permissions: string[];
  rules?: { permissions: string[] }[];
  user?: SessionUser;
  /** the tenants the person is a member of */
  tenants?: { id: string; name: string; role: MemberRole }[];
}

/** Everything the key may do: its permissions, or those its rules name. */
export function heldPermissions(s: ConsoleSession): Set<string> {
  return new Set([...s.permissions, ...(s.rules ?? []).flatMap((r) => r.permissions)]);
}

export const SessionContext = createContext<ConsoleSession | null>(null);

/** Reads the session again (GET /console/session): after a change to the signed-in person's own role or membership. */
export const SessionRefreshContext = createContext<() => void>(() => undefined);

export function useCan(): (permission: string) => boolean {
  const session = useContext(SessionContext);
  const held = session ? heldPermissions(session) : new Set<string>();
  return (permission) => held.has(permission);
}
