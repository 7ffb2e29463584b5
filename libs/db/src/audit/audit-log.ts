import { Injectable } from '@nestjs/common';
import { auditSignal } from '../outbox-signal';
import { SqlPool } from '../sql-pool';
import { auditRecordsInsert, refusalWindowsUpsert, type AuditRecordInput, type RefusalWindow } from './audit-records';

/**
 * The one way services write audit records of their acts (management writes, session authorizations, refusals):
 * inside a unit of work the INSERT joins its transaction, so a record commits with the change it describes and a
 * rolled-back change leaves none. Token reads and creates keep their own statements (token-service's
 * AuditRepository); every INSERT's text lives in this folder. Once the records committed, token-service's sealer is
 * woken (auditSignal: a notification, or in token-service itself a call).
 */
@Injectable()
export class AuditLog {
  constructor(private readonly sql: SqlPool) {}

  async append(...records: AuditRecordInput[]): Promise<void> {
    if (!records.length) return;
    await this.sql.query(auditRecordsInsert(records));
    auditSignal.afterCommit();
  }

  async addRefusals(windows: RefusalWindow[]): Promise<void> {
    if (!windows.length) return;
    await this.sql.query(refusalWindowsUpsert(windows));
    auditSignal.afterCommit();
  }
}
