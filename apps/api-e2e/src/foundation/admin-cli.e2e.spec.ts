import { spawnSync } from 'node:child_process';
import path from 'node:path';
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
