import { Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service';
import { SqlPool } from './sql-pool';
import { AuditLog } from './audit/audit-log';

@Global()
@Module({ providers: [PrismaService, SqlPool, AuditLog], exports: [PrismaService, SqlPool, AuditLog] })
export class DbModule {}
