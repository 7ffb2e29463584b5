/** The kinds of entity audit events name (`GET /logs?entity_type=`), as `GET /logs/entity-types` lists them. */
export const AUDIT_ENTITY_TYPES = [
  { value: 'token', display_name: 'Token' },
  { value: 'reactor', display_name: 'Reactor' },
] as const;

export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number]['value'];

export interface LogEntityTypeView {
  value: string;
  display_name: string;
}
