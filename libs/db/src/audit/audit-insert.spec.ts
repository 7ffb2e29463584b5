import { Prisma } from '../generated/prisma/client';
import { auditColumnsOf, auditInsert } from './audit-insert';

describe('auditInsert', () => {
  it('writes every column: SQL as given, values as typed parameters, NULL for the rest, a fresh id and now() by default', () => {
    const sql = auditInsert(
      { tenantId: Prisma.sql`t.tenant_id`, operation: 'read', entityType: 'token', entityId: Prisma.sql`t.id`, traceId: null },
      Prisma.raw('t'),
      {
        where: Prisma.sql`t.audit`,
        returning: Prisma.sql`entity_id`,
      },
    );
    expect(sql.text.replace(/\s+/g, ' ')).toBe(
      'INSERT INTO audit_events (id, tenant_id, actor_application_id, actor_type, actor_id, actor_name, operation, entity_type, entity_id, trace_id, changes, source, created_at) ' +
        'SELECT gen_random_uuid(),t.tenant_id,NULL::uuid,NULL::text,NULL::text,NULL::text,$1::text,$2::text,t.id,$3::text,NULL::jsonb,NULL::text,now() FROM t WHERE t.audit RETURNING entity_id',
    );
    expect(sql.values).toEqual(['read', 'token', null]);
  });

  it('reads every column from an alias that names them all', () => {
    const sql = auditInsert(auditColumnsOf('u'), Prisma.raw('u'));
    expect(sql.text).toContain(
      'SELECT u.id,u.tenant_id,u.actor_application_id,u.actor_type,u.actor_id,u.actor_name,u.operation,u.entity_type,u.entity_id,u.trace_id,u.changes,u.source,now() FROM u',
    );
    expect(sql.values).toEqual([]);
  });
});
