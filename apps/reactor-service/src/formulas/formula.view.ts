import {
  type FormulaConfigurationElement,
  type FormulaRequestParameter,
  type FormulaStatus,
  type FormulaType,
  type ReactorEgressView,
  type ReactorFormulaView,
  withStamps,
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
  return withStamps(view, row);
}
