import { Global, Module } from '@nestjs/common';
import { RpcClient } from './rpc-client';
import { EventBus } from './event-bus';

@Global()
@Module({ providers: [RpcClient, EventBus], exports: [RpcClient, EventBus] })
export class BusModule {}
