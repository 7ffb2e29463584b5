import { Module } from '@nestjs/common';
import { IdempotentWrites } from '@coffer/idempotency';
import { DbModule } from '@coffer/db';
import { KeyringModule } from '@coffer/crypto/keyring';
import { BusModule } from '@coffer/bus';
import { AuditTrail, OperationDispatcher, RecordedWrites } from '@coffer/operations';
import { ApplicationRepository } from './applications/application.repository';
import { ApplicationsService } from './applications/applications.service';
import { ApplicationsHandler } from './applications/applications.handler';
import { ApplicationKeyRepository } from './applications/application-key.repository';
import { ApplicationKeysService } from './applications/application-keys.service';
import { TenantRepository } from './tenants/tenant.repository';
import { TenantsService } from './tenants/tenants.service';
import { TenantsHandler } from './tenants/tenants.handler';
import { TenantAccessRelay } from './tenants/tenant-access-relay';
import { WebhookSecretsService } from './tenants/webhook-secrets.service';
import { WebhookSecretRepository } from './tenants/webhook-secret.repository';
import { SessionRepository } from './sessions/session.repository';
import { SessionsService } from './sessions/sessions.service';
import { SessionsHandler } from './sessions/sessions.handler';
import { AuthenticateService } from './authenticate/authenticate.service';
import { KeyHolderRepository } from './authenticate/key-holder.repository';
import { AuthenticateHandler } from './authenticate/authenticate.handler';
import { ConsoleRepository } from './console/console.repository';
import { ConsoleSignInService } from './console/console-sign-in.service';
import { ConsoleHandler } from './console/console.handler';
import { MemberRepository } from './members/member.repository';
import { MembersService } from './members/members.service';
import { MembersHandler } from './members/members.handler';
import { InvitationRepository } from './invitations/invitation.repository';
import { InvitationsService } from './invitations/invitations.service';
import { InvitationsHandler } from './invitations/invitations.handler';
import { InvitationMail, mailerProvider } from './invitations/invitation-mail';
import { RateLimitWindows } from './rate-limits/rate-limit-windows';
import { RateLimitsHandler } from './rate-limits/rate-limits.handler';

@Module({
  imports: [DbModule, KeyringModule, BusModule],
  controllers: [
    ApplicationsHandler,
    TenantsHandler,
    SessionsHandler,
    AuthenticateHandler,
    ConsoleHandler,
    MembersHandler,
    InvitationsHandler,
    RateLimitsHandler,
  ],
  providers: [
    OperationDispatcher,
    AuditTrail,
    RecordedWrites,
    IdempotentWrites,
    ApplicationRepository,
    ApplicationsService,
    ApplicationKeyRepository,
    ApplicationKeysService,
    TenantRepository,
    TenantsService,
    TenantAccessRelay,
    WebhookSecretRepository,
    WebhookSecretsService,
    SessionRepository,
    SessionsService,
    AuthenticateService,
    KeyHolderRepository,
    ConsoleRepository,
    ConsoleSignInService,
    MemberRepository,
    MembersService,
    InvitationRepository,
    InvitationsService,
    InvitationMail,
    mailerProvider,
    RateLimitWindows,
  ],
})
export class AppModule {}
