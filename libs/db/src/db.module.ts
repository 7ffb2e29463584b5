import { Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service';
import { SqlPool } from './sql-pool';

@Global()
@Module({ providers: [PrismaService, SqlPool], exports: [PrismaService, SqlPool] })
export class DbModule {}
