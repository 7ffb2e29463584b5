import pg from 'pg';
import { poolConfig } from '@coffer/db';

/** The advisory lock space of key jobs; the second key is the job's scope (a tenant, every tenant, the purge). */
const KEY_JOB_LOCK = 0x6b657973; // "keys"

/**
 * One key job per scope at a time, across every operator and machine: runs `fn` holding a PostgreSQL session advisory lock on a connection of its own. The lock dies with that
 * connection, so a job killed with `kill -9` never leaves it behind: the next run takes it at once and resumes.
 */
export async function withKeyJobLock<T>(scope: string, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client(poolConfig(1));
  await client.connect();
  try {
    const got = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [KEY_JOB_LOCK, scope]);
    if (!got.rows[0]?.ok) throw new KeyJobBusyError();
    return await fn();
  } finally {
    await client.end().catch(() => undefined);
  }
}

export class KeyJobBusyError extends Error {
  constructor() {
    super('the same key job is already running (another operator or process); a killed one resumes when run again');
  }
}
