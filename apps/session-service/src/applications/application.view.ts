import type { AccessRule, ApplicationType, ApplicationView } from '@coffer/contracts';
import type { Application } from '@coffer/db';

export function toApplicationView(app: Application, key?: string): ApplicationView {
  const view: ApplicationView = {
    id: app.id,
    tenant_id: app.tenantId,
    name: app.name,
    type: app.type as ApplicationType,
    created_at: app.createdAt.toISOString(),
  };
  if (app.rules) view.rules = app.rules as unknown as AccessRule[];
  else view.permissions = app.permissions;
  if (key) view.key = key;
  if (app.createdBy) view.created_by = app.createdBy;
  if (app.modifiedBy) view.modified_by = app.modifiedBy;
  if (app.modifiedAt) view.modified_at = app.modifiedAt.toISOString();
  return view;
}
