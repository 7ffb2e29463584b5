import { Module } from '@nestjs/common';
import { DbModule } from '@coffer/db';
import { KeyringModule } from '@coffer/crypto/keyring';
import { MessagingModule, OperationDispatcher } from '@coffer/messaging';
import { PingHandler } from './health/ping.handler';
import { DeliveryRepository } from './deliveries/delivery.repository';
import { DispatcherService } from './deliveries/dispatcher.service';

@Module({
  imports: [DbModule, KeyringModule, MessagingModule],
  controllers: [PingHandler],
  providers: [OperationDispatcher, DeliveryRepository, DispatcherService],
})
export class AppModule {}
