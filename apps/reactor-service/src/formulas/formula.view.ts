import type {
  FormulaConfigurationElement,
  FormulaRequestParameter,
  FormulaStatus,
  FormulaType,
  ReactorEgressView,
  ReactorFormulaView,
} from '@coffer/contracts';
import type { FormulaRow } from './formula.repository';

export function toFormulaView(row: FormulaRow): ReactorFormulaView {
  const view: ReactorFormulaView = {
    id: row.id,
    name: row.name,
    type: row.type as FormulaType,
    status: row.status as FormulaStatus,
    code: row.code,
    configuration: (row.configuration ?? []) as unknown as FormulaConfigurationElement[],
    request_parameters: (row.requestParameters ?? []) as unknown as FormulaRequestParameter[],
    created_at: row.createdAt.toISOString(),
  };
  if (row.description !== null) view.description = row.description;
  if (row.icon !== null) view.icon = row.icon;
  if (row.egress !== null && typeof row.egress === 'object') view.egress = row.egress as unknown as ReactorEgressView;
  if (row.createdBy) view.created_by = row.createdBy;
  if (row.modifiedBy) view.modified_by = row.modifiedBy;
  if (row.modifiedAt) view.modified_at = row.modifiedAt.toISOString();
  return view;
}
