import type { ReactorFormulaView, ReactorView } from '@coffer/contracts';
import type { ReactorRow } from './reactor.repository';

export function toReactorView(row: ReactorRow, formula: ReactorFormulaView, configuration: Record<string, unknown>): ReactorView {
  const view: ReactorView = {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    formula,
    configuration,
    created_at: row.createdAt.toISOString(),
  };
  if (row.applicationId) view.application = { id: row.applicationId };
  if (row.createdBy) view.created_by = row.createdBy;
  if (row.modifiedBy) view.modified_by = row.modifiedBy;
  if (row.modifiedAt) view.modified_at = row.modifiedAt.toISOString();
  return view;
}
