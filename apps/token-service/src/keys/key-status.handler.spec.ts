import type { PrismaService } from '@coffer/db';
import type { TenantKeyring } from '@coffer/crypto/keyring';
import type { Principal } from '@coffer/contracts';
import { withActingContext } from '@coffer/operations';
import { KeyStatusHandler, ReencryptionProgressReader } from './key-status.handler';

const TENANT = '00000000-0000-4000-8000-000000000001';
const at = new Date('2026-11-26T04:00:00.000Z');

function reader(rows: unknown[]) {
  const prisma = { $queryRaw: jest.fn().mockResolvedValue(rows) };
  return { prisma, reader: new ReencryptionProgressReader(prisma as unknown as PrismaService) };
}

describe('key status (token.keys.status)', () => {
  it('reports no job when none runs', async () => {
    await expect(reader([]).reader.forTenant(TENANT)).resolves.toBeUndefined();
  });

  it("reports the running job that has reached the tenant, with the tenant's counts per kind", async () => {
    const { prisma, reader: r } = reader([
      { job_id: 'a', started_at: new Date('2026-11-26T03:00:00.000Z'), kind: null, rows_total: null, rows_done: null },
      { job_id: 'b', started_at: at, kind: 'tokens', rows_total: 1200n, rows_done: 450n },
      { job_id: 'b', started_at: at, kind: 'webhook_secrets', rows_total: 1n, rows_done: 1n },
    ]);
    await expect(r.forTenant(TENANT)).resolves.toEqual({
      started_at: at.toISOString(),
      kinds: [
        { kind: 'tokens', rows_total: 1200, rows_done: 450 },
        { kind: 'webhook_secrets', rows_total: 1, rows_done: 1 },
      ],
    });
    // the tenant is a bound parameter of the query, never spliced into it
    expect(prisma.$queryRaw.mock.calls[0].slice(1)).toEqual([TENANT, TENANT]);
  });

  it('a job that has not reached the tenant yet is shown without kinds', async () => {
    const { reader: r } = reader([{ job_id: 'a', started_at: at, kind: null, rows_total: null, rows_done: null }]);
    await expect(r.forTenant(TENANT)).resolves.toEqual({ started_at: at.toISOString(), kinds: [] });
  });

  it('answers the versions as metadata only, for the calling tenant', async () => {
    const keyring = {
      dataKeyVersions: jest.fn().mockResolvedValue([
        { id: 'k1', version: 1, active: false, createdAt: at, kekProvider: 'env' },
        { id: 'k2', version: 2, active: true, createdAt: at, kekProvider: 'pkcs11' },
      ]),
    };
    const { reader: r } = reader([]);
    const handler = new KeyStatusHandler(keyring as unknown as TenantKeyring, r);
    const body = await withActingContext({ principal: { tenantId: TENANT } as Principal, traceId: 't' }, () => handler.onStatus());
    expect(keyring.dataKeyVersions).toHaveBeenCalledWith(TENANT);
    expect(body).toEqual({
      data: [
        { id: 'k1', version: 1, active: false, created_at: at.toISOString(), kek_provider: 'env' },
        { id: 'k2', version: 2, active: true, created_at: at.toISOString(), kek_provider: 'pkcs11' },
      ],
    });
  });
});
