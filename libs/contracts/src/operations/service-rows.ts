import { operationRows, type OperationRow } from './operation';
import { OPS } from './operations';

/** The services that serve operations, by their part of the table (OPS.token is token-service's, and so on). */
export type OperationDomain = 'token' | 'session' | 'reactor' | 'webhook' | 'proxy';

/** Every row a service serves: its part of OPS and its ping. */
export function rowsServedBy(domain: OperationDomain): OperationRow[] {
  return [...operationRows(OPS[domain]), OPS.ping[domain]];
}
