export const APPLICATION_TYPES = ['public', 'private', 'management'] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];

export const TRANSFORMS = ['redact', 'mask', 'reveal'] as const;
export type Transform = (typeof TRANSFORMS)[number];

export interface RuleCondition {
  attribute: 'id' | 'container';
  operator: 'equals' | 'starts_with';
  value: string;
}

export interface AccessRule {
  description?: string;
  priority: number;
  container?: string;
  conditions?: RuleCondition[];
  transform: Transform;
  permissions: string[];
}

/** Who is calling: resolved by session-service from an API key or a session key. */
export interface Principal {
  tenantId: string;
  applicationId: string;
  applicationType: ApplicationType;
  permissions: string[];
  rules?: AccessRule[];
  /** set when the key is a session key; applicationId is then the public application that created the session */
  sessionId?: string;
  /** a session key whose session has not been authorized yet: authenticates, grants nothing */
  sessionPending?: boolean;
  /**
   * An authorized session's authorizer, with its grants as they stand now: every decision of the session is capped
   * by the authorizer's decision for the same token (security invariant 3). Absent on a session → it may do nothing.
   */
  authorizer?: Grants & { applicationId: string };
  /**
   * An anonymous call to a pre-configured proxy that does not require auth: the proxy's id (also `applicationId`).
   * Such a principal holds `proxy:invoke` only, may invoke that proxy only, and detokenizes nothing.
   */
  anonymousProxyId?: string;
  /**
   * A person signed in to the console (docs/members.md): acts as a management principal with the permissions of the
   * member's role; `applicationId` is then the user's id (what `created_by` and the audit name).
   */
  user?: { id: string; email: string; memberId: string; role: string };
}

/** What an application (or session) holds: permissions for every container, or rules. */
export interface Grants {
  permissions: string[];
  rules?: AccessRule[];
}
