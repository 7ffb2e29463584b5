import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { AuditLedger, PrismaService } from '@coffer/db';
import { KeyEncryptionKeys } from '@coffer/crypto';
import { operatorActor } from '@coffer/contracts';
import { createTestDatabase, type TestDatabase } from '@coffer/testing/integration';
import { recordOperatorAct } from './operator-audit';
import { runCommandLine } from './run';

/**
 * Issue 36: an operator act and its audit record commit together. The real commands, run in-process as `admin ...`
 * runs them, on a throwaway migrated database. An operator named `audit-refused` has every audit record refused by a
 * trigger (as a full disk or a constraint would refuse it); tenants listed in `refused_tenants` have every insert into
 * and delete from application_keys and webhook_deliveries refused (an act that fails half-way).
 */
const REFUSED = 'audit-refused';

let db: TestDatabase;
let sql: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  process.env['DATABASE_URL'] = db.url;
  process.env['KEY_ENCRYPTION_KEYS'] = KeyEncryptionKeys.generateEntry(`int-${randomUUID().slice(0, 8)}`);
  process.env['DATABASE_POOL_SIZE'] ??= '2';
  process.env['DATABASE_KEYRING_POOL_SIZE'] ??= '1';
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  sql.on('error', () => undefined);
  await sql.query(`
    CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit record refused (test)'; END $$;
    CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_events FOR EACH ROW WHEN (NEW.actor_id = '${REFUSED}') EXECUTE FUNCTION refuse_audit();
    CREATE TABLE refused_tenants (tenant_id uuid PRIMARY KEY);
    CREATE FUNCTION refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM refused_tenants r WHERE r.tenant_id = CASE WHEN TG_OP = 'DELETE' THEN OLD.tenant_id ELSE NEW.tenant_id END) THEN
        RAISE EXCEPTION '% on % refused (test)', TG_OP, TG_TABLE_NAME;
      END IF;
      RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    END $$;
    CREATE TRIGGER refuse_write BEFORE INSERT OR DELETE ON application_keys FOR EACH ROW EXECUTE FUNCTION refuse_write();
    CREATE TRIGGER refuse_write BEFORE INSERT OR DELETE ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION refuse_write();`);
});

afterAll(async () => {
  await sql?.end();
  await db?.drop();
});

/** `admin <argv...>` in this process: its exit code and the lines it wrote. */
async function admin(...argv: string[]): Promise<{ exit: number; stdout: string[]; stderr: string[] }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const exit = await runCommandLine(argv, { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) });
  return { exit, stdout, stderr };
}

async function tenant(name = 'int-cli'): Promise<string> {
  const r = await admin('tenants', 'create', '--name', name, '--json', '--actor', 'setup');
  expect(r.exit).toBe(0);
  return (JSON.parse(r.stdout[0] as string) as { tenant_id: string }).tenant_id;
}

/** A deleted tenant (keys shredded, not purged) that still has `rows` webhook deliveries to purge. */
async function deletedTenantWithRows(rows = 3): Promise<string> {
  const id = await tenant('int-cli deleted');
  for (let i = 0; i < rows; i++) await delivery(id, randomUUID(), 'failed');
  expect((await admin('tenants', 'delete', id, '--yes', '--no-purge', '--actor', 'setup')).exit).toBe(0);
  return id;
}

async function delivery(tenantId: string, webhookId: string, status: string): Promise<string> {
  const id = randomUUID();
  await sql.query(
    `INSERT INTO webhook_deliveries (id, tenant_id, url, body, status, attempts, webhook_id) VALUES ($1, $2, 'https://example.test/hook', '{}', $3, 3, $4)`,
    [id, tenantId, status, webhookId],
  );
  return id;
}

const rows = async (text: string, values: unknown[] = []) => (await sql.query(text, values)).rows;

/** Seals every record written so far, as token-service's sealer would (only sealed records are pruned). */
async function sealAll(): Promise<void> {
  const prisma = new PrismaService();
  try {
    await new AuditLedger(prisma).seal();
  } finally {
    await prisma.$disconnect();
  }
}

/** A tenant whose trail holds sealed records (its creation's). */
async function tenantWithSealedTrail(): Promise<string> {
  const id = await tenant('int-cli audited trail');
  await sealAll();
  return id;
}

/**
 * The operator records of `actor`, oldest first (records of one transaction share its time: an intent before an
 * outcome, then by name), as `entity.operation` and their changes' new values.
 */
async function records(actor: string): Promise<Array<{ act: string; tenant_id: string; changes: Record<string, unknown> }>> {
  const found = await rows(
    `SELECT entity_type || '.' || operation AS act, tenant_id::text, changes FROM audit_events WHERE actor_type = 'operator' AND actor_id = $1
     ORDER BY created_at, changes->'state'->>'new' IN ('started', 'resumed') DESC, entity_type || '.' || operation`,
    [actor],
  );
  return found.map((r) => ({
    act: r.act,
    tenant_id: r.tenant_id,
    changes: Object.fromEntries(Object.entries(r.changes as Record<string, { new: unknown }>).map(([k, v]) => [k, v.new])),
  }));
}

const auditLines = (stderr: string[]) => stderr.filter((l) => l.startsWith('{"audit"')).map((l) => (JSON.parse(l) as { audit: { action: string } }).audit);

/**
 * The acts that are one transaction, and the first step of those that are many: with the audit record refused, the
 * command fails and the database is as it was before it ran.
 */
const ACTS: Array<{ name: string; arrange: () => Promise<{ argv: string[]; state: () => Promise<unknown> }> }> = [
  {
    name: 'tenants create',
    arrange: async () => ({
      argv: ['tenants', 'create', '--name', 'never-created'],
      state: () => rows(`SELECT (SELECT count(*) FROM tenants WHERE name = 'never-created') AS t, (SELECT count(*) FROM applications) AS a`),
    }),
  },
  {
    name: 'tenants suspend',
    arrange: async () => {
      const id = await tenant();
      return { argv: ['tenants', 'suspend', id], state: () => rows('SELECT suspended_at, modified_at FROM tenants WHERE id = $1', [id]) };
    },
  },
  {
    name: 'tenants resume',
    arrange: async () => {
      const id = await tenant();
      expect((await admin('tenants', 'suspend', id, '--actor', 'setup')).exit).toBe(0);
      return { argv: ['tenants', 'resume', id], state: () => rows('SELECT suspended_at, modified_at FROM tenants WHERE id = $1', [id]) };
    },
  },
  {
    name: 'tenants reissue-key',
    arrange: async () => {
      const id = await tenant();
      return { argv: ['tenants', 'reissue-key', id], state: () => rows('SELECT id, key_hash FROM application_keys WHERE tenant_id = $1 ORDER BY id', [id]) };
    },
  },
  {
    name: 'tenants delete (its key shredding)',
    arrange: async () => {
      const id = await tenant();
      await delivery(id, randomUUID(), 'failed');
      return {
        argv: ['tenants', 'delete', id, '--yes'],
        state: () =>
          rows(
            `SELECT t.deleted_at, (SELECT count(*) FROM application_keys k WHERE k.tenant_id = t.id) AS keys,
              (SELECT count(*) FROM applications a WHERE a.tenant_id = t.id) AS apps, (SELECT count(*) FROM tenant_keys k WHERE k.tenant_id = t.id) AS tenant_keys,
              (SELECT count(*) FROM webhook_deliveries d WHERE d.tenant_id = t.id) AS deliveries
             FROM tenants t WHERE t.id = $1`,
            [id],
          ),
      };
    },
  },
  {
    name: 'tenants purge (its intent, before the first batch)',
    arrange: async () => {
      const id = await deletedTenantWithRows();
      return {
        argv: ['tenants', 'purge', id],
        state: () =>
          rows('SELECT (SELECT count(*) FROM webhook_deliveries WHERE tenant_id = $1) AS rows, (SELECT count(*) FROM tenants WHERE id = $1) AS tenant', [id]),
      };
    },
  },
  {
    name: 'formulas import',
    arrange: async () => ({
      argv: ['formulas', 'import', path.join(__dirname, '../../formulas')],
      state: () => rows('SELECT id, name, modified_at FROM reactor_formulas WHERE tenant_id IS NULL ORDER BY id'),
    }),
  },
  {
    name: 'webhooks resend',
    arrange: async () => {
      const id = await tenant();
      const webhook = randomUUID();
      const failed = await delivery(id, webhook, 'failed');
      return {
        argv: ['webhooks', 'resend', '--tenant', id, '--webhook', webhook, '--delivery', failed],
        state: () => rows('SELECT status, attempts, next_attempt_at FROM webhook_deliveries WHERE id = $1', [failed]),
      };
    },
  },
  {
    name: 'keys rotate (its intent, before the first tenant)',
    arrange: async () => {
      const id = await tenant();
      expect((await admin('keys', 'rotate', '--tenant', id, '--actor', 'setup')).exit).toBe(0);
      return { argv: ['keys', 'rotate', '--tenant', id], state: () => rows('SELECT id, active FROM tenant_keys WHERE tenant_id = $1 ORDER BY id', [id]) };
    },
  },
  {
    name: 'keys reencrypt (its intent, in the transaction that creates the job)',
    arrange: async () => {
      const id = await tenant();
      return { argv: ['keys', 'reencrypt', '--tenant', id], state: () => rows('SELECT id, state FROM key_jobs WHERE tenant_id = $1', [id]) };
    },
  },
  {
    name: 'audit retention',
    arrange: async () => {
      const id = await tenant();
      return {
        argv: ['audit', 'retention', '--tenant', id, '--days', '30'],
        state: () => rows('SELECT retention_days FROM audit_chains WHERE tenant_id = $1', [id]),
      };
    },
  },
  {
    name: 'audit prune (its intent, before the first batch)',
    arrange: async () => {
      const id = await tenantWithSealedTrail();
      return {
        argv: ['audit', 'prune', '--tenant', id, '--before', new Date(Date.now() + 60_000).toISOString()],
        state: () =>
          rows(
            'SELECT (SELECT count(*) FROM audit_events WHERE tenant_id = $1) AS records, (SELECT anchor_seq FROM audit_chains WHERE tenant_id = $1) AS anchor',
            [id],
          ),
      };
    },
  },
];

describe('operator CLI: an act and its audit record commit together (issue 36)', () => {
  it.each(ACTS)('$name: when its audit record cannot be written, the act changes nothing', async ({ arrange }) => {
    const { argv, state } = await arrange();
    const before = await state();
    const run = await admin(...argv, '--actor', REFUSED);
    expect(run.exit).toBe(1);
    expect(await state()).toEqual(before);
    expect(run.stderr.join('\n')).toContain('audit record refused (test)');
    expect(auditLines(run.stderr)).toEqual([]);
    expect(run.stdout).toEqual([]);
  });

  it('an act that fails half-way leaves no audit record, and nothing of the act', async () => {
    const id = await tenant();
    const keys = await rows('SELECT id FROM application_keys WHERE tenant_id = $1', [id]);
    await sql.query('INSERT INTO refused_tenants VALUES ($1)', [id]);
    try {
      // reissue-key: its old keys are deleted, then the new key's insert fails
      const run = await admin('tenants', 'reissue-key', id, '--actor', 'failing-act');
      expect(run.exit).toBe(1);
      expect(run.stderr.join('\n')).toContain('refused (test)');
      expect(auditLines(run.stderr)).toEqual([]);
    } finally {
      await sql.query('DELETE FROM refused_tenants WHERE tenant_id = $1', [id]);
    }
    expect(await rows('SELECT id FROM application_keys WHERE tenant_id = $1', [id])).toEqual(keys);
    // a tenant that does not exist: the shredding finds no tenant and rolls back
    expect((await admin('tenants', 'delete', randomUUID(), '--yes', '--actor', 'failing-act')).exit).toBe(1);
    expect(await records('failing-act')).toEqual([]);
  });

  it('a committed act: its records, then its stderr lines and one notification for the audit sealer', async () => {
    const listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    const notified: string[] = [];
    listener.on('notification', (n) => notified.push(n.channel));
    await listener.query('LISTEN coffer_audit_events');
    try {
      const run = await admin('tenants', 'create', '--name', 'int-cli audited', '--json', '--actor', 'alice');
      expect(run.exit).toBe(0);
      const { tenant_id: id, application_id: app } = JSON.parse(run.stdout[0] as string) as { tenant_id: string; application_id: string };
      expect(await records('alice')).toEqual([
        { act: 'application.create', tenant_id: id, changes: { tenant_id: id, type: 'management' } },
        { act: 'tenant.create', tenant_id: id, changes: { tenant_id: id } },
      ]);
      expect(auditLines(run.stderr)).toEqual([
        expect.objectContaining({ action: 'tenant.create', tenant_id: id, actor: operatorActor('alice') }),
        expect.objectContaining({ action: 'application.create', tenant_id: id, entity_id: app }),
      ]);
      for (let i = 0; i < 50 && !notified.length; i++) await new Promise((r) => setTimeout(r, 20));
      expect(notified[0]).toBe('coffer_audit_events');
    } finally {
      await listener.end();
    }
  });

  it('tenants purge (many transactions): its intent before the first batch, its outcome after the last', async () => {
    const id = await deletedTenantWithRows(3);
    const run = await admin('tenants', 'purge', id, '--batch-size', '1', '--actor', 'purger');
    expect(run.exit).toBe(0);
    expect(await records('purger')).toEqual([
      { act: 'tenant.purge', tenant_id: '00000000-0000-0000-0000-000000000000', changes: { tenants: [id], state: 'started' } },
      { act: 'tenant.purge', tenant_id: '00000000-0000-0000-0000-000000000000', changes: { tenants: [id], rows: 3, state: 'done' } },
    ]);
    expect(auditLines(run.stderr).map((a) => `${a.action}:${(a as { state?: string }).state}`)).toEqual(['tenant.purge:started', 'tenant.purge:done']);
    expect(await rows('SELECT id FROM tenants WHERE id = $1', [id])).toEqual([]);
  });

  it('an interrupted purge leaves its intent and no outcome; run again, it finishes and says so', async () => {
    const id = await deletedTenantWithRows(2);
    await sql.query('INSERT INTO refused_tenants VALUES ($1)', [id]);
    try {
      expect((await admin('tenants', 'purge', id, '--actor', 'interrupted')).exit).toBe(1);
    } finally {
      await sql.query('DELETE FROM refused_tenants WHERE tenant_id = $1', [id]);
    }
    expect((await records('interrupted')).map((r) => r.changes['state'])).toEqual(['started']);
    expect((await admin('tenants', 'purge', id, '--actor', 'interrupted')).exit).toBe(0);
    expect((await records('interrupted')).map((r) => r.changes['state'])).toEqual(['started', 'started', 'done']);
  });

  it('keys reencrypt: its intent names the job it commits with, its outcome the state it ended in', async () => {
    const id = await tenant();
    const run = await admin('keys', 'reencrypt', '--tenant', id, '--json', '--actor', 'reencrypter');
    expect(run.exit).toBe(0);
    const [job] = await rows('SELECT id::text, state FROM key_jobs WHERE tenant_id = $1', [id]);
    expect(job).toEqual({ id: expect.any(String), state: 'done' });
    expect(await records('reencrypter')).toEqual([
      { act: 'keys.reencrypt', tenant_id: id, changes: { job_id: job.id, tenant_id: id, state: 'started' } },
      { act: 'keys.reencrypt', tenant_id: id, changes: { job_id: job.id, tenant_id: id, state: 'done', rows: 0 } },
    ]);
  });

  it('keys rotate: its intent before the first tenant is rotated, its outcome after the last', async () => {
    const id = await tenant();
    expect((await admin('keys', 'rotate', '--tenant', id, '--actor', 'rotator')).exit).toBe(0);
    expect((await records('rotator')).map((r) => r.changes)).toEqual([
      { tenants: 1, tenant_id: id, state: 'started' },
      { tenants: 1, tenant_id: id, state: 'done' },
    ]);
  });

  it('audit prune (many transactions): its intent before the first batch, its outcome after the last; it never prunes its own intent', async () => {
    const id = await tenantWithSealedTrail();
    const sealed = (await rows('SELECT count(*)::int AS n FROM audit_seals WHERE tenant_id = $1', [id]))[0].n as number;
    expect(sealed).toBeGreaterThan(0);
    // --before in the future: everything written before the command began, and nothing after
    const before = new Date(Date.now() + 60_000).toISOString();
    const run = await admin('audit', 'prune', '--tenant', id, '--before', before, '--json', '--actor', 'pruner');
    expect(run.exit).toBe(0);
    expect(JSON.parse(run.stdout[0] as string)).toEqual({ pruned: { [id]: sealed } });
    expect(await records('pruner')).toEqual([
      { act: 'audit_log.prune', tenant_id: id, changes: { tenant_id: id, before, state: 'started' } },
      { act: 'audit_log.prune', tenant_id: id, changes: { tenant_id: id, before, records: sealed, state: 'done' } },
    ]);
    expect(auditLines(run.stderr).map((a) => `${a.action}:${(a as { state?: string }).state}`)).toEqual(['audit_log.prune:started', 'audit_log.prune:done']);
    // the next prune takes those two records like any other written before it began, and keeps its own intent
    await sealAll();
    const again = await admin('audit', 'prune', '--tenant', id, '--before', before, '--json', '--actor', 'pruner-2');
    expect(JSON.parse(again.stdout[0] as string)).toEqual({ pruned: { [id]: 2 } });
  });

  it('an interrupted prune leaves its intent and no outcome, and prunes nothing more than it committed', async () => {
    const id = await tenantWithSealedTrail();
    const count = async () =>
      (await rows('SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1 AND actor_id IS DISTINCT FROM $2', [id, 'prune-cut']))[0].n;
    const kept = await count();
    // the first batch's DELETE is refused (as a lost connection would end it): the intent is committed, no outcome
    await sql.query(`CREATE FUNCTION refuse_prune() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'prune refused (test)'; END $$;
      CREATE TRIGGER refuse_prune BEFORE DELETE ON audit_events FOR EACH ROW EXECUTE FUNCTION refuse_prune();`);
    try {
      const run = await admin('audit', 'prune', '--tenant', id, '--before', new Date(Date.now() + 60_000).toISOString(), '--actor', 'prune-cut');
      expect(run.exit).toBe(1);
      expect(run.stderr.join('\n')).toContain('prune refused (test)');
    } finally {
      await sql.query('DROP TRIGGER refuse_prune ON audit_events; DROP FUNCTION refuse_prune();');
    }
    expect((await records('prune-cut')).map((r) => r.changes['state'])).toEqual(['started']);
    expect(await count()).toBe(kept);
  });

  it('audit retention: the setting and its record (the value it replaced) commit together', async () => {
    const id = await tenant();
    expect((await admin('audit', 'retention', '--tenant', id, '--days', '30', '--actor', 'keeper')).exit).toBe(0);
    expect((await admin('audit', 'retention', '--tenant', id, '--default', '--actor', 'keeper')).exit).toBe(0);
    expect((await records('keeper')).map((r) => r.changes)).toEqual([
      { tenant_id: id, retention_days: 30, previous_retention_days: 'default' },
      { tenant_id: id, retention_days: 'default', previous_retention_days: 30 },
    ]);
    expect((await admin('audit', 'retention', '--tenant', id, '--days', '0')).exit).toBe(2);
  });

  it('audit prune reads AUDIT_RETENTION_DAYS through the configuration parser: a bad value is refused before anything is written', async () => {
    const saved = process.env['AUDIT_RETENTION_DAYS'];
    process.env['AUDIT_RETENTION_DAYS'] = 'a year';
    try {
      const run = await admin('audit', 'prune', '--actor', 'bad-config');
      expect(run.exit).toBe(1);
      expect(run.stderr.join('\n')).toContain('AUDIT_RETENTION_DAYS must be an integer between 1 and 36500');
    } finally {
      if (saved === undefined) delete process.env['AUDIT_RETENTION_DAYS'];
      else process.env['AUDIT_RETENTION_DAYS'] = saved;
    }
    expect(await records('bad-config')).toEqual([]);
  });

  it('keys reencrypt reads DATA_KEY_REFRESH_MS as the services do: a bad value is refused before a job starts or is recorded', async () => {
    const id = await tenant();
    const saved = process.env['DATA_KEY_REFRESH_MS'];
    process.env['DATA_KEY_REFRESH_MS'] = '1m';
    try {
      const run = await admin('keys', 'reencrypt', '--tenant', id, '--actor', 'bad-refresh');
      expect(run.exit).toBe(1);
      expect(run.stderr.join('\n')).toContain('DATA_KEY_REFRESH_MS must be an integer from 1000 to 3600000');
    } finally {
      if (saved === undefined) delete process.env['DATA_KEY_REFRESH_MS'];
      else process.env['DATA_KEY_REFRESH_MS'] = saved;
    }
    expect(await records('bad-refresh')).toEqual([]);
    expect(await rows(`SELECT 1 FROM key_jobs WHERE tenant_id = $1`, [id])).toEqual([]);
  });

  it('an audit record is refused outside the transaction of an act', async () => {
    const prisma = new PrismaService();
    try {
      await expect(recordOperatorAct(prisma, operatorActor('outside'), 'tenant.suspend', { tenant_id: randomUUID() }, () => undefined)).rejects.toThrow(
        /in the transaction of the act/,
      );
      expect(await records('outside')).toEqual([]);
    } finally {
      await prisma.$disconnect();
    }
  });
});
