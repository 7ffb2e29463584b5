import { Module } from '@nestjs/common';
import { BusModule } from '@coffer/bus';
import { OperationDispatcher } from '@coffer/operations';
import { PingHandler } from './health/ping.handler';
import { ProxyHandler } from './invoke/proxy.handler';
import { Detokenizer } from './invoke/detokenizer';
import { Forwarder } from './invoke/forwarder';
import { AuditBatches } from './invoke/audit-batches';
import { ProxyDirectory } from './invoke/proxy-directory';
import { TenantShares } from './invoke/tenant-shares';

@Module({
  imports: [BusModule],
  controllers: [PingHandler, ProxyHandler],
  providers: [OperationDispatcher, Detokenizer, Forwarder, AuditBatches, ProxyDirectory, TenantShares],
})
export class AppModule {}
