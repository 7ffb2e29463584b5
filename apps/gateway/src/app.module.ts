import { Module } from '@nestjs/common';
import { APP_GUARD, APP_PIPE } from '@nestjs/core';
import { IdempotencyKeyGuard } from './idempotency/idempotency-key.guard';
import { QueryGuard } from './http/query.guard';
import { PermissionGuard } from '@coffer/auth';
import { BusModule, TenantSettingsClient } from '@coffer/bus';
import { ApiKeyGuard } from './auth/api-key.guard';
import { PrincipalCache } from './auth/principal-cache';
import { PrincipalResolver } from './auth/principal-resolver';
import { RefusalTally } from './auth/refusal-tally';
import { ConsoleSessions } from './console/console-sessions';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { RateLimitLeases } from './rate-limit/rate-limit-leases';
import { ContractValidationPipe } from './http/contract-validation.pipe';
import { ApplicationsController } from './applications/applications.controller';
import { ApplicationKeysController } from './applications/application-keys.controller';
import { AccessPreviewController } from './applications/access-preview.controller';
import { PermissionsController } from './permissions/permissions.controller';
import { LogEntityTypesController } from './logs/log-entity-types.controller';
import { TenantsController } from './tenants/tenants.controller';
import { MembersController } from './members/members.controller';
import { InvitationsController } from './members/invitations.controller';
import { RolesController } from './members/roles.controller';
import { SessionsController } from './sessions/sessions.controller';
import { TokensController } from './tokens/tokens.controller';
import { TokensV2Controller } from './tokens/tokens-v2.controller';
import { ReactorFormulasController } from './reactors/reactor-formulas.controller';
import { ReactorsController } from './reactors/reactors.controller';
import { WebhooksController } from './webhooks/webhooks.controller';
import { PingController } from './webhooks/ping.controller';
import { ProxyController } from './proxy/proxy.controller';
import { ProxiesController } from './proxy/proxies.controller';

@Module({
  imports: [BusModule],
  controllers: [
    ApplicationsController,
    ApplicationKeysController,
    AccessPreviewController,
    PermissionsController,
    LogEntityTypesController,
    TenantsController,
    MembersController,
    InvitationsController,
    RolesController,
    SessionsController,
    TokensController,
    TokensV2Controller,
    ReactorFormulasController,
    ReactorsController,
    WebhooksController,
    PingController,
    ProxiesController,
    ProxyController,
  ],
  providers: [
    PrincipalCache,
    PrincipalResolver,
    RefusalTally,
    // the Elements frames' policy reads the tenant's allowed origins (elements/frame-ancestors.ts)
    TenantSettingsClient,
    // console sign-ins (apps/console): sessions kept by session-service in PostgreSQL, so any replica serves them
    ConsoleSessions,
    // the API's and the console's rate limits, shared by the replicas (leases from session-service)
    RateLimitLeases,
    // Order matters: authenticate (401), rate limit (429), then the route's permission (403; none declared → 403).
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
    { provide: APP_GUARD, useClass: PermissionGuard },
    // then the request's own checks (400): the idempotency key, NUL in the query
    { provide: APP_GUARD, useClass: IdempotencyKeyGuard },
    { provide: APP_GUARD, useClass: QueryGuard },
    // bodies typed with a contract class are validated here, after the guards (401, 429, 403 come first)
    { provide: APP_PIPE, useClass: ContractValidationPipe },
  ],
})
export class AppModule {}
