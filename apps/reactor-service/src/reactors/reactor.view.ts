import { type ReactorEgressView, type ReactorFormulaView, type ReactorView, withStamps } from '@coffer/contracts';
import type { ReactorRow } from './reactor.repository';

/** A formula reactor shows its formula; a code reactor its `code` and, when one was given, its `runtime`. */
export function toReactorView(row: ReactorRow, formula: ReactorFormulaView | undefined, configuration: Record<string, unknown>): ReactorView {
  const view: ReactorView = {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    ...(formula ? { formula } : {}),
    ...(row.code !== null ? { code: row.code } : {}),
    ...(row.runtime !== null && typeof row.runtime === 'object' ? { runtime: row.runtime as Record<string, unknown> } : {}),
    configuration,
    ...(row.egress !== null && typeof row.egress === 'object' ? { egress: row.egress as unknown as ReactorEgressView } : {}),
    created_at: row.createdAt.toISOString(),
  };
  if (row.applicationId) view.application = { id: row.applicationId };
  return withStamps(view, row);
}
