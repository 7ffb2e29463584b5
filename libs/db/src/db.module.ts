import { Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service';
import { SqlPool } from './sql-pool';
import { EventOutbox } from './event-outbox';

@Global()
@Module({ providers: [PrismaService, SqlPool, EventOutbox], exports: [PrismaService, SqlPool, EventOutbox] })
export class DbModule {}
