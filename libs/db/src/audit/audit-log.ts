import { Injectable } from '@nestjs/common';
import { SqlPool } from '../sql-pool';
import { auditRecordsInsert, refusalWindowsUpsert, type AuditRecordInput, type RefusalWindow } from './audit-records';

/**
 * The one way services write audit records of their acts (management writes, session authorizations, refusals):
 * inside a unit of work the INSERT joins its transaction, so a record commits with the change it describes and a
 * rolled-back change leaves none. Token reads and creates keep their own statements (token-service's
 * AuditRepository); every INSERT's text lives in this folder.
 */
@Injectable()
export class AuditLog {
  constructor(private readonly sql: SqlPool) {}

  async append(...records: AuditRecordInput[]): Promise<void> {
    if (records.length) await this.sql.query(auditRecordsInsert(records));
  }

  async addRefusals(windows: RefusalWindow[]): Promise<void> {
    if (windows.length) await this.sql.query(refusalWindowsUpsert(windows));
  }
}
