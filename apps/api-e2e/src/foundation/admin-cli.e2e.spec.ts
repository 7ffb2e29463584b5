import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { createTenant } from '@coffer/testing';

const root = path.resolve(__dirname, '../../../..');

/** The built operator CLI against the suite's database, as an operator runs it. */
function admin(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(root, 'dist/tools/admin/main.js'), ...args], {
    env: { ...process.env, DATABASE_URL: process.env['COFFER_E2E_DATABASE_URL'], KEY_ENCRYPTION_KEYS: process.env['COFFER_E2E_KEK'] },
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('admin CLI: its command line', () => {
  it('prints the usage with --help (exit 0) and per command, and refuses a missing command with the usage (exit 2)', () => {
    const help = admin('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('admin tenants create --name <name> [--json]');
    const one = admin('keys', 'reencrypt', '--help');
    expect(one).toMatchObject({ status: 0, stderr: '' });
    expect(one.stdout).toMatch(/^usage: admin keys reencrypt \[--tenant <id>\] \[--rate <rows\/s>\] \[--batch-size <n>\] \[--json\]\n/);
    const none = admin();
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('usage:');
  });

  it('refuses unknown commands, unknown flags, missing values and extra arguments with exit 2, changing nothing', () => {
    const before = admin('tenants', 'list', '--json');
    expect(before.status).toBe(0);
    const refused = [
      admin('tenants', 'delete', '--json'),
      admin('tenants', 'create', '--nme', 'typo'),
      admin('tenants', 'create', '--name'),
      admin('tenants', 'list', 'extra'),
      admin('keys', 'rotate', '--force'),
    ];
    for (const r of refused) {
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/usage/);
    }
    expect(admin('tenants', 'list', '--json').stdout).toBe(before.stdout);
  });

  it('lists tenants as JSON; flags follow the two words of the command', async () => {
    const tenant = await createTenant('cli-list');
    expect(admin('tenants', '--json', 'list').status).toBe(2);
    const ok = JSON.parse(admin('tenants', 'list', '--json').stdout) as { data: Array<{ id: string }> };
    expect(ok.data.map((t) => t.id)).toContain(tenant.tenantId);
  });
});

describe('admin CLI: an operator act and its audit record commit together (issue 36)', () => {
  const REFUSED = 'e2e-audit-refused';
  let db: Client;

  beforeAll(async () => {
    db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
    await db.connect();
    // this operator's audit records are refused, as a full disk or a broken constraint would refuse them
    await db.query(`
      CREATE OR REPLACE FUNCTION e2e_refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit record refused (e2e)'; END $$;
      DROP TRIGGER IF EXISTS e2e_refuse_audit ON audit_events;
      CREATE TRIGGER e2e_refuse_audit BEFORE INSERT ON audit_events FOR EACH ROW WHEN (NEW.actor_id = '${REFUSED}') EXECUTE FUNCTION e2e_refuse_audit();`);
  });
  afterAll(async () => {
    await db.query('DROP TRIGGER IF EXISTS e2e_refuse_audit ON audit_events; DROP FUNCTION IF EXISTS e2e_refuse_audit()');
    await db.end();
  });

  const suspendedAt = async (id: string) => (await db.query('SELECT suspended_at FROM tenants WHERE id = $1', [id])).rows[0]?.suspended_at;

  it('an act whose record cannot be written is not done; a done act is recorded, printed and sealed at once', async () => {
    const tenant = await createTenant('cli-audit-in-act');
    const refused = admin('tenants', 'suspend', tenant.tenantId, '--actor', REFUSED);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('audit record refused (e2e)');
    expect(refused.stderr).not.toContain('{"audit"');
    expect(await suspendedAt(tenant.tenantId)).toBeNull();

    const done = admin('tenants', 'suspend', tenant.tenantId, '--actor', 'e2e-operator-36');
    expect(done.status).toBe(0);
    expect(done.stderr).toContain('"action":"tenant.suspend"');
    expect(await suspendedAt(tenant.tenantId)).toBeInstanceOf(Date);
    // sealed well before the sealer's 60 s safety sweep: the CLI notified it once its record committed
    let record: { seq: string | null } | undefined;
    for (let i = 0; i < 100 && !record?.seq; i++) {
      if (i) await new Promise((r) => setTimeout(r, 200));
      record = (
        await db.query(
          `SELECT s.seq FROM audit_events a JOIN audit_seals s ON s.event_id = a.id WHERE a.tenant_id = $1 AND a.actor_type = 'operator' AND a.actor_id = 'e2e-operator-36' AND a.operation = 'suspend'`,
          [tenant.tenantId],
        )
      ).rows[0];
    }
    expect(record?.seq).toEqual(expect.any(String));
    expect(admin('tenants', 'resume', tenant.tenantId, '--actor', 'e2e-operator-36').status).toBe(0);
  });
});
