import { createContext, useContext } from 'react';

/** Who is signed in (GET /console/session): the key's application and what it may do. */
export interface ConsoleSession {
  tenant_id: string;
  application_id: string;
  application_type: 'management' | 'private' | 'public';
  permissions: string[];
  rules?: { permissions: string[] }[];
}

/** Everything the key may do: its permissions, or those its rules name. */
export function heldPermissions(s: ConsoleSession): Set<string> {
  return new Set([...s.permissions, ...(s.rules ?? []).flatMap((r) => r.permissions)]);
}

export const SessionContext = createContext<ConsoleSession | null>(null);

export function useCan(): (permission: string) => boolean {
  const session = useContext(SessionContext);
  const held = session ? heldPermissions(session) : new Set<string>();
  return (permission) => held.has(permission);
}
