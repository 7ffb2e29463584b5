import { Module } from '@nestjs/common';
import { DbModule } from '@coffer/db';
import { MessagingModule } from '@coffer/messaging';
import { PingHandler } from './health/ping.handler';

@Module({
  imports: [DbModule, MessagingModule],
  controllers: [PingHandler],
})
export class AppModule {}
