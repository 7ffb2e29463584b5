import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PermissionGuard } from '@coffer/auth';
import { MessagingModule } from '@coffer/messaging';
import { ApiKeyGuard } from './auth/api-key.guard';
import { PrincipalCache } from './auth/principal-cache';
import { ApplicationsController } from './applications/applications.controller';
import { TenantsController } from './tenants/tenants.controller';
import { SessionsController } from './sessions/sessions.controller';
import { TokensController } from './tokens/tokens.controller';

@Module({
  imports: [MessagingModule],
  controllers: [ApplicationsController, TenantsController, SessionsController, TokensController],
  providers: [
    PrincipalCache,
    // Order matters: authenticate (401), then the route's permission (403). A route without one is refused.
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_GUARD, useClass: PermissionGuard },
  ],
})
export class AppModule {}
