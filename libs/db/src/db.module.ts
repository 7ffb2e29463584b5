import { Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service';
import { SqlPool } from './sql-pool';
import { EventOutbox } from './event-outbox';
import { AuditLog } from './audit/audit-log';

@Global()
@Module({ providers: [PrismaService, SqlPool, EventOutbox, AuditLog], exports: [PrismaService, SqlPool, EventOutbox, AuditLog] })
export class DbModule {}
