import os from 'node:os';
import { envInt } from '@coffer/observability';

/** What the operator CLI reads from the environment besides the database and key settings (libs/db, libs/crypto). */
export interface AdminConfig {
  /** AUDIT_RETENTION_DAYS: 1–36 500, default 365 — `audit prune`'s retention for tenants without their own (token-service reads the same) */
  readonly auditRetentionDays: number;
}

/** The settings; throws ConfigError naming a bad variable. Read when a command needs them, so one bad setting fails only those. */
export function loadAdminConfig(): AdminConfig {
  return { auditRetentionDays: envInt('AUDIT_RETENTION_DAYS', 365, 1, 36_500) };
}

/** The operator when --actor is not given: the operating system user, else USER (a container without a passwd entry). */
export function defaultOperator(): string {
  try {
    return os.userInfo().username;
  } catch {
    return process.env['USER'] || 'operator';
  }
}
