import { type AccessRule, type ApplicationType, type ApplicationView, withStamps } from '@coffer/contracts';
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
  return withStamps(view, app);
}
