/**
 * The shared pool of the model-based security test: two tenants (A and B), eight management keys of tenant A that
 * the runs' administrative steps rotate over, the pooled applications (A's all-powerful owner, management copies, a
 * token:use user, a rule-bound application; B's owner) and the svc-proxy reactor formula. Created once per test file
 * and reused by every run; a run's world adds its own applications, sessions and tokens on top.
 */
import { api, createTenant } from '@coffer/testing';
import { MANAGEMENT_PERMISSIONS, TOKEN_PERMISSIONS, type AppType, type Grants, type TenantName } from '../access-model';

// ---------------------------------------------------------------------------------------------------------------
// the shared pool: created once per test file, reused by every run

const SVC_FORMULA = `module.exports = async function (req) {
  const a = JSON.parse(Buffer.from(req.args.q, 'base64').toString('utf8'));
  if (a.op === 'tokenize') return { tokenize: { t: a.token } };
  try {
    const body = a.op === 'retrieve' ? await req.svc.tokens.retrieve(a.id) : await req.svc.tokens.update(a.id, a.patch);
    return { raw: { status: 200, body } };
  } catch (e) {
    return { raw: { status: e.status || 500, error: e.data === undefined ? null : e.data } };
  }
};`;

interface PooledApp {
  label: string;
  tenant: TenantName;
  type: AppType;
  grants: Grants;
  id: string;
  /** management principals rotate over several identical applications (rate limit 200/min each) */
  keys: string[];
}

export interface Pool {
  tenantA: string;
  tenantB: string;
  admins: string[];
  apps: PooledApp[];
  formulaId: string;
  /** reactors of pooled applications, by application label */
  reactors: Map<string, string>;
  adminTurn: number;
}

const ALL_TOKEN = [...TOKEN_PERMISSIONS];

async function mustCreate(key: string, body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const res = await api('POST', '/applications', { key, body });
  if (res.status !== 201) throw new Error(`pool: could not create application ${JSON.stringify(body)}: ${res.status} ${res.text}`);
  return { id: res.body.id, key: res.body.key };
}

export async function createPool(): Promise<Pool> {
  const a = await createTenant('security-a');
  const b = await createTenant('security-b');
  const admins: string[] = [];
  for (let i = 0; i < 8; i++)
    admins.push((await mustCreate(a.managementKey, { name: `admin ${i}`, type: 'management', permissions: [...MANAGEMENT_PERMISSIONS] })).key);
  const specs: Array<Omit<PooledApp, 'id' | 'keys'> & { copies?: number; via: string }> = [
    { label: 'owner', tenant: 'A', type: 'private', grants: { permissions: ALL_TOKEN }, via: a.managementKey },
    { label: 'mgmt', tenant: 'A', type: 'management', grants: { permissions: [] }, via: a.managementKey, copies: 4 },
    { label: 'user', tenant: 'A', type: 'private', grants: { permissions: ['token:use'] }, via: a.managementKey },
    {
      label: 'ruled',
      tenant: 'A',
      type: 'private',
      grants: {
        rules: [
          { priority: 1, container: '/pci/', transform: 'mask', permissions: ['token:read', 'token:search', 'token:update'] },
          { priority: 2, container: '/a/x/', transform: 'redact', permissions: ['token:read'] },
          { priority: 3, container: '/a/', transform: 'reveal', permissions: ['token:read', 'token:use', 'token:create', 'token:update'] },
          { priority: 4, container: '/', transform: 'mask', permissions: ['token:create', 'token:search'] },
        ],
      },
      via: a.managementKey,
    },
    { label: 'other', tenant: 'B', type: 'private', grants: { permissions: ALL_TOKEN }, via: b.managementKey },
  ];
  const apps: PooledApp[] = [];
  for (const s of specs) {
    const keys: string[] = [];
    let id = '';
    for (let i = 0; i < (s.copies ?? 1); i++) {
      const body = s.type === 'management' ? { name: s.label, type: s.type, permissions: ['log:read'] } : { name: s.label, type: s.type, ...s.grants };
      const created = await mustCreate(s.via, body);
      keys.push(created.key);
      id ||= created.id;
    }
    apps.push({ label: s.label, tenant: s.tenant, type: s.type, grants: s.grants, id, keys });
  }
  const f = await api('POST', '/reactor-formulas', { key: admins[0], body: { name: 'svc proxy', type: 'private', code: SVC_FORMULA } });
  if (f.status !== 201) throw new Error(`pool: formula ${f.status} ${f.text}`);
  return { tenantA: a.tenantId, tenantB: b.tenantId, admins, apps, formulaId: f.body.id, reactors: new Map(), adminTurn: 0 };
}
