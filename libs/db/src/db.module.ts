import { Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service';
import { SqlPool } from './sql-pool';
import { EventOutbox } from './event-outbox';
import { AuditLog } from './audit/audit-log';
import { PgListener } from './pg-listener';

@Global()
// PgListener opens its connection only when something listens (webhook-dispatcher, reactor-service, token-service,
// session-service)
@Module({ providers: [PrismaService, SqlPool, EventOutbox, AuditLog, PgListener], exports: [PrismaService, SqlPool, EventOutbox, AuditLog, PgListener] })
export class DbModule {}
