import { SUBJECTS } from '../subjects';
import { RPC_DEADLINE_MS } from '../envelope';
import { CreateApplicationRequest, type ApplicationView } from '../applications/applications';
import { UpdateTenantRequest, type TenantView } from '../tenants/tenants';
import type { TenantKeysView } from '../tenants/tenant-keys';
import { AuthorizeSessionRequest, type CreateSessionResponse } from '../sessions/sessions';
import { CreateTokenRequest, SearchTokensRequest, SearchTokensV2Request, type TokenView } from '../tokens/tokens';
import { CreateTokenIntentRequest, type TokenIntentView } from '../tokens/token-intents';
import { ReactorFormulaRequest } from '../reactors/formulas';
import { CreateReactorRequest, type ReactorView } from '../reactors/reactors';
import { CodeReactorRequest } from '../reactors/code-reactors';
import { ListApplicationsQuery } from '../applications/application-queries';
import { ListReactorFormulasQuery, ListReactorsQuery } from '../reactors/reactor-queries';
import { ListLogsQuery } from '../audit/audit-queries';
import { CreateWebhookRequest, WebhookDeliveriesMessage, WebhookDeliveryMessage, type CreatedWebhookView, type WebhookView } from '../webhooks/webhooks';
import { ProxyInvocationMessage, type ProxyReply } from '../proxies/proxy-invocation';
import {
  CreateProxyRequest,
  ProxyChangedEvent,
  ProxyIdempotencyMessage,
  ProxyTransformMessage,
  ResolveProxyMessage,
  type ProxyIdempotencyReply,
  type ProxyTransformResult,
  type ProxyView,
  type ResolvedProxy,
} from '../proxies/proxies';
import {
  ApplicationKeyMessage,
  AuditRecordMessage,
  AuthInvalidatedEvent,
  AuthenticateMessage,
  EmptyMessage,
  IdBodyMessage,
  IdMessage,
  ListQueryMessage,
  PayloadMessage,
  ReactorResultMessage,
  RefusalsMessage,
  TenantGetMessage,
  TenantStandingMessage,
  TokenPatchMessage,
  WebhookSecretMessage,
} from '../messages/payloads';
import {
  CreateInvitationRequest,
  ListInvitationsQuery,
  ListMembersQuery,
  TransferOwnerRequest,
  type InvitationView,
  type MemberView,
} from '../members/members';
import {
  ConsoleAuthenticateMessage,
  ConsoleSignInMessage,
  ConsoleSignOutMessage,
  InvitationLookupMessage,
  type ConsoleAuthenticateReply,
  type ConsoleSignInReply,
} from '../members/console-sign-in';
import { RateLimitLeaseMessage, type RateLimitLeaseReply } from '../rate-limits/rate-limits';
import { op, type Access, type IdempotencyMode } from './operation';

/**
 * Fields stored as text or jsonb refuse NUL; `data` is stored encrypted and may hold it. Checked before any
 * recursive code (merge patch, structuredClone, liquid, JSON.stringify) sees the body: bodies also arrive without the
 * gateway (reactor formulas call through `svc`).
 */
const STORED_FIELDS = { rejectNul: true, nulExempt: ['data'] } as const;

type Deleted = { deleted: true };
type Ok = { ok: true };

/** A react with a callback URL is accepted and runs later: its job is recorded in one transaction with the key. */
function reactIdempotency(body: unknown): IdempotencyMode {
  const inner = (body as { body?: { callback_url?: unknown; callbackUrl?: unknown } } | undefined)?.body;
  return (inner?.callback_url ?? inner?.callbackUrl ?? null) !== null ? 'transaction' : 'exclusive';
}

/** `internal: true` is what a service asks (token-service reads deduplicate_tokens): any principal of the tenant. */
const tenantRead = (body: unknown): Access => ((body as TenantGetMessage | undefined)?.internal ? 'principal' : ['tenant:read']);
/** `signing: true` is the webhook dispatcher asking for every signing secret, as the tenant's own service principal. */
const webhookSecretRead = (body: unknown): Access => ((body as WebhookSecretMessage | undefined)?.signing ? 'principal' : ['tenant:read']);

const ping = (service: 'token' | 'session' | 'reactor' | 'webhook' | 'proxy') =>
  op<EmptyMessage, Ok>()({ subject: SUBJECTS.ping(service), payload: EmptyMessage, access: 'none', internal: true });

/**
 * Every NATS operation, nested like SUBJECTS (OPS.token.tokens.create is SUBJECTS.token.tokens.create's row). The
 * dispatcher of each service (libs/messaging operations) serves its rows; the unit test checks that no subject of
 * SUBJECTS is missing. Subjects carrying an HTTP body use that body's contract class; token lists carry `{query}`.
 */
export const OPS = {
  session: {
    authenticate: op<AuthenticateMessage, unknown>()({
      subject: SUBJECTS.session.authenticate,
      payload: AuthenticateMessage,
      access: 'none',
      validate: true,
    }),
    tenantStanding: op<TenantStandingMessage, { active: boolean }>()({
      subject: SUBJECTS.session.tenantStanding,
      payload: TenantStandingMessage,
      access: 'none',
      validate: true,
    }),
    applications: {
      create: op<CreateApplicationRequest, ApplicationView>()({
        subject: SUBJECTS.session.applications.create,
        payload: CreateApplicationRequest,
        access: ['application:create'],
        validate: true,
        idempotency: 'transaction',
      }),
      list: op<ListApplicationsQuery, unknown>()({
        subject: SUBJECTS.session.applications.list,
        payload: ListApplicationsQuery,
        access: ['application:read'],
      }),
      get: op<IdMessage, ApplicationView>()({
        subject: SUBJECTS.session.applications.get,
        payload: IdMessage,
        access: ['application:read'],
      }),
      update: op<IdBodyMessage, ApplicationView>()({
        subject: SUBJECTS.session.applications.update,
        payload: IdBodyMessage,
        access: ['application:update'],
        idempotency: 'transaction',
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.session.applications.delete,
        payload: IdMessage,
        access: ['application:delete'],
      }),
      regenerate: op<IdMessage, ApplicationView>()({
        subject: SUBJECTS.session.applications.regenerate,
        payload: IdMessage,
        access: ['application:update'],
        idempotency: 'transaction',
      }),
      current: op<EmptyMessage, ApplicationView>()({
        subject: SUBJECTS.session.applications.current,
        payload: EmptyMessage,
        access: 'principal',
      }),
      keys: {
        create: op<ApplicationKeyMessage, unknown>()({
          subject: SUBJECTS.session.applications.keys.create,
          payload: ApplicationKeyMessage,
          access: ['application:update'],
          idempotency: 'transaction',
        }),
        list: op<ApplicationKeyMessage, unknown>()({
          subject: SUBJECTS.session.applications.keys.list,
          payload: ApplicationKeyMessage,
          access: ['application:read'],
        }),
        get: op<ApplicationKeyMessage, unknown>()({
          subject: SUBJECTS.session.applications.keys.get,
          payload: ApplicationKeyMessage,
          access: ['application:read'],
        }),
        delete: op<ApplicationKeyMessage, Deleted>()({
          subject: SUBJECTS.session.applications.keys.delete,
          payload: ApplicationKeyMessage,
          access: ['application:update'],
        }),
      },
      /** reactor-service: the application a reactor acts as (no key material) */
      principal: op<IdMessage, unknown>()({
        subject: SUBJECTS.session.applications.principal,
        payload: IdMessage,
        access: 'principal',
        internal: true,
      }),
    },
    tenants: {
      get: op<TenantGetMessage, TenantView>()({
        subject: SUBJECTS.session.tenants.get,
        payload: TenantGetMessage,
        access: tenantRead,
        validate: true,
      }),
      update: op<UpdateTenantRequest, TenantView>()({
        subject: SUBJECTS.session.tenants.update,
        payload: UpdateTenantRequest,
        access: ['tenant:update'],
        validate: true,
        idempotency: 'transaction',
      }),
      webhookSecret: op<WebhookSecretMessage, unknown>()({
        subject: SUBJECTS.session.tenants.webhookSecret,
        payload: WebhookSecretMessage,
        access: webhookSecretRead,
        validate: true,
      }),
      rotateWebhookSecret: op<EmptyMessage, unknown>()({
        subject: SUBJECTS.session.tenants.rotateWebhookSecret,
        payload: EmptyMessage,
        access: ['tenant:update'],
        idempotency: 'transaction',
      }),
    },
    sessions: {
      create: op<EmptyMessage, CreateSessionResponse>()({
        subject: SUBJECTS.session.sessions.create,
        payload: EmptyMessage,
        access: 'principal',
        idempotency: 'transaction',
      }),
      authorize: op<AuthorizeSessionRequest, Record<string, never>>()({
        subject: SUBJECTS.session.sessions.authorize,
        payload: AuthorizeSessionRequest,
        access: 'principal',
        // validate left false: session-service validates it after its own 403 (only a private application's key authorizes sessions)
        idempotency: 'transaction',
      }),
    },
    members: {
      list: op<ListMembersQuery, unknown>()({
        subject: SUBJECTS.session.members.list,
        payload: ListMembersQuery,
        access: ['tenant:member:read'],
      }),
      get: op<IdMessage, MemberView>()({
        subject: SUBJECTS.session.members.get,
        payload: IdMessage,
        access: ['tenant:member:read'],
      }),
      update: op<IdBodyMessage, MemberView>()({
        subject: SUBJECTS.session.members.update,
        payload: IdBodyMessage,
        access: ['tenant:member:update'],
        idempotency: 'transaction',
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.session.members.delete,
        payload: IdMessage,
        access: ['tenant:member:delete'],
      }),
      owner: op<EmptyMessage, MemberView>()({
        subject: SUBJECTS.session.members.owner,
        payload: EmptyMessage,
        access: ['tenant:member:read'],
      }),
      /** a person must also be the OWNER (session-service checks it) */
      transferOwner: op<TransferOwnerRequest, MemberView>()({
        subject: SUBJECTS.session.members.transferOwner,
        payload: TransferOwnerRequest,
        access: ['tenant:owner:transfer'],
        validate: true,
        idempotency: 'transaction',
      }),
    },
    invitations: {
      create: op<CreateInvitationRequest, InvitationView>()({
        subject: SUBJECTS.session.invitations.create,
        payload: CreateInvitationRequest,
        access: ['tenant:invitation:create'],
        validate: true,
        idempotency: 'transaction',
      }),
      list: op<ListInvitationsQuery, unknown>()({
        subject: SUBJECTS.session.invitations.list,
        payload: ListInvitationsQuery,
        access: ['tenant:invitation:read'],
      }),
      get: op<IdMessage, InvitationView>()({
        subject: SUBJECTS.session.invitations.get,
        payload: IdMessage,
        access: ['tenant:invitation:read'],
      }),
      resend: op<IdMessage, InvitationView>()({
        subject: SUBJECTS.session.invitations.resend,
        payload: IdMessage,
        access: ['tenant:invitation:update'],
        idempotency: 'transaction',
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.session.invitations.delete,
        payload: IdMessage,
        access: ['tenant:invitation:delete'],
      }),
      /** before sign-in: no principal (the link's secret is the credential) */
      preview: op<InvitationLookupMessage, { tenant_name: string; email: string; role: string } | null>()({
        subject: SUBJECTS.session.invitations.preview,
        payload: InvitationLookupMessage,
        access: 'none',
        validate: true,
      }),
    },
    console: {
      /** no principal: the credential is the key (its hash) or the identity the gateway verified */
      signIn: op<ConsoleSignInMessage, ConsoleSignInReply>()({
        subject: SUBJECTS.session.console.signIn,
        payload: ConsoleSignInMessage,
        access: 'none',
        validate: true,
      }),
      authenticate: op<ConsoleAuthenticateMessage, ConsoleAuthenticateReply>()({
        subject: SUBJECTS.session.console.authenticate,
        payload: ConsoleAuthenticateMessage,
        access: 'none',
        validate: true,
      }),
      signOut: op<ConsoleSignOutMessage, { ended: number }>()({
        subject: SUBJECTS.session.console.signOut,
        payload: ConsoleSignOutMessage,
        access: 'none',
        validate: true,
      }),
    },
    rateLimits: {
      /** the gateway's rate limits, shared by its replicas (no principal, no HTTP route: the gateway asks before a request runs) */
      lease: op<RateLimitLeaseMessage, RateLimitLeaseReply>()({
        subject: SUBJECTS.session.rateLimits.lease,
        payload: RateLimitLeaseMessage,
        access: 'none',
        validate: true,
      }),
    },
  },
  token: {
    tokens: {
      create: op<CreateTokenRequest, TokenView>()({
        subject: SUBJECTS.token.tokens.create,
        payload: CreateTokenRequest,
        access: ['token:create'],
        jsonLimits: { options: STORED_FIELDS },
        idempotency: 'transaction',
      }),
      get: op<IdMessage, TokenView>()({
        subject: SUBJECTS.token.tokens.get,
        payload: IdMessage,
        access: ['token:read'],
      }),
      list: op<ListQueryMessage, unknown>()({
        subject: SUBJECTS.token.tokens.list,
        payload: ListQueryMessage,
        access: ['token:read'],
      }),
      update: op<TokenPatchMessage, TokenView>()({
        subject: SUBJECTS.token.tokens.update,
        payload: TokenPatchMessage,
        access: ['token:update'],
        jsonLimits: { field: 'patch', options: STORED_FIELDS },
        idempotency: 'transaction',
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.token.tokens.delete,
        payload: IdMessage,
        access: ['token:delete'],
      }),
      search: op<SearchTokensRequest, unknown>()({
        subject: SUBJECTS.token.tokens.search,
        payload: SearchTokensRequest,
        access: ['token:search'],
        jsonLimits: {},
      }),
      listV2: op<ListQueryMessage, unknown>()({
        subject: SUBJECTS.token.tokens.listV2,
        payload: ListQueryMessage,
        access: ['token:read'],
      }),
      searchV2: op<SearchTokensV2Request, unknown>()({
        subject: SUBJECTS.token.tokens.searchV2,
        payload: SearchTokensV2Request,
        access: ['token:search'],
        jsonLimits: {},
      }),
      tokenize: op<PayloadMessage, unknown>()({
        subject: SUBJECTS.token.tokens.tokenize,
        payload: PayloadMessage,
        access: ['token:create'],
        jsonLimits: { field: 'payload' },
        idempotency: 'transaction',
      }),
      /** POST /detokenize, and reactor-service for invocation args (`path` names the field in errors) */
      detokenize: op<PayloadMessage, unknown>()({
        subject: SUBJECTS.token.tokens.detokenize,
        payload: PayloadMessage,
        access: ['token:use', 'token:read'],
        jsonLimits: { field: 'payload', rootFrom: 'path' },
      }),
    },
    intents: {
      /** the data is judged by token-service with a token's rules (validate left false), and stored encrypted: NUL allowed in it */
      create: op<CreateTokenIntentRequest, TokenIntentView>()({
        subject: SUBJECTS.token.intents.create,
        payload: CreateTokenIntentRequest,
        access: ['token-intent:create'],
        jsonLimits: { options: STORED_FIELDS },
        idempotency: 'transaction',
      }),
      get: op<IdMessage, TokenIntentView>()({
        subject: SUBJECTS.token.intents.get,
        payload: IdMessage,
        access: ['token-intent:read'],
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.token.intents.delete,
        payload: IdMessage,
        access: ['token-intent:delete'],
      }),
    },
    logs: {
      list: op<ListLogsQuery, unknown>()({
        subject: SUBJECTS.token.logs.list,
        payload: ListLogsQuery,
        access: ['log:read'],
      }),
    },
    keys: {
      /** GET /tenants/self/keys: the calling tenant's data key versions and re-encryption progress (never key material) */
      status: op<EmptyMessage, TenantKeysView>()({
        subject: SUBJECTS.token.keys.status,
        payload: EmptyMessage,
        access: ['tenant:read'],
      }),
    },
    audit: {
      /** other services' audit events (audit_events is owned by token-service) */
      record: op<AuditRecordMessage, { recorded: number }>()({
        subject: SUBJECTS.token.audit.record,
        payload: AuditRecordMessage,
        access: 'principal',
        validate: true,
        internal: true,
      }),
      /** the gateway's counts of refused authentications (no principal: the callers were refused) */
      refusals: op<RefusalsMessage, { windows: number }>()({
        subject: SUBJECTS.token.audit.refusals,
        payload: RefusalsMessage,
        access: 'none',
        validate: true,
      }),
    },
  },
  reactor: {
    formulas: {
      create: op<ReactorFormulaRequest, unknown>()({
        subject: SUBJECTS.reactor.formulas.create,
        payload: ReactorFormulaRequest,
        access: ['reactor:create'],
        validate: true,
        idempotency: 'transaction',
      }),
      list: op<ListReactorFormulasQuery, unknown>()({
        subject: SUBJECTS.reactor.formulas.list,
        payload: ListReactorFormulasQuery,
        access: ['reactor:read'],
      }),
      get: op<IdMessage, unknown>()({
        subject: SUBJECTS.reactor.formulas.get,
        payload: IdMessage,
        access: ['reactor:read'],
      }),
      update: op<IdBodyMessage, unknown>()({
        subject: SUBJECTS.reactor.formulas.update,
        payload: IdBodyMessage,
        access: ['reactor:update'],
        idempotency: 'transaction',
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.reactor.formulas.delete,
        payload: IdMessage,
        access: ['reactor:delete'],
      }),
    },
    reactors: {
      create: op<CreateReactorRequest | CodeReactorRequest, ReactorView>()({
        subject: SUBJECTS.reactor.reactors.create,
        payload: [CreateReactorRequest, CodeReactorRequest],
        access: ['reactor:create'],
        idempotency: 'transaction',
      }),
      list: op<ListReactorsQuery, unknown>()({
        subject: SUBJECTS.reactor.reactors.list,
        payload: ListReactorsQuery,
        access: ['reactor:read'],
      }),
      get: op<IdMessage, ReactorView>()({
        subject: SUBJECTS.reactor.reactors.get,
        payload: IdMessage,
        access: ['reactor:read'],
      }),
      update: op<IdBodyMessage, ReactorView>()({
        subject: SUBJECTS.reactor.reactors.update,
        payload: IdBodyMessage,
        access: ['reactor:update'],
        idempotency: 'transaction',
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.reactor.reactors.delete,
        payload: IdMessage,
        access: ['reactor:delete'],
      }),
      /**
       * Synchronous: the key is claimed while the reactor runs (a formula's calls to third parties cannot be rolled
       * back); with a callback URL it is accepted and recorded with its job.
       */
      react: op<IdBodyMessage, unknown>()({
        subject: SUBJECTS.reactor.reactors.react,
        payload: IdBodyMessage,
        access: ['token:use'],
        idempotency: reactIdempotency,
        leaseMs: RPC_DEADLINE_MS.react + 5_000,
      }),
      /** GET /reactors/{id}/results/{request id}: the invoking application with token:use, or management with reactor:read */
      result: op<ReactorResultMessage, unknown>()({
        subject: SUBJECTS.reactor.reactors.result,
        payload: ReactorResultMessage,
        access: (_body, principal) => (principal.applicationType === 'management' ? ['reactor:read'] : ['token:use']),
      }),
      patch: op<IdBodyMessage, ReactorView>()({
        subject: SUBJECTS.reactor.reactors.patch,
        payload: IdBodyMessage,
        access: ['reactor:update'],
        idempotency: 'transaction',
      }),
      reactAsync: op<IdBodyMessage, unknown>()({
        subject: SUBJECTS.reactor.reactors.reactAsync,
        payload: IdBodyMessage,
        access: ['token:use'],
        idempotency: 'transaction',
      }),
    },
    proxies: {
      create: op<CreateProxyRequest, ProxyView>()({
        subject: SUBJECTS.reactor.proxies.create,
        payload: CreateProxyRequest,
        access: ['proxy:create'],
        idempotency: 'transaction',
      }),
      list: op<ListQueryMessage, unknown>()({
        subject: SUBJECTS.reactor.proxies.list,
        payload: ListQueryMessage,
        access: ['proxy:read'],
      }),
      get: op<IdMessage, ProxyView>()({
        subject: SUBJECTS.reactor.proxies.get,
        payload: IdMessage,
        access: ['proxy:read'],
        validate: true,
      }),
      update: op<IdBodyMessage, ProxyView>()({
        subject: SUBJECTS.reactor.proxies.update,
        payload: IdBodyMessage,
        access: ['proxy:update'],
        validate: true,
        idempotency: 'transaction',
      }),
      patch: op<IdBodyMessage, ProxyView>()({
        subject: SUBJECTS.reactor.proxies.patch,
        payload: IdBodyMessage,
        access: ['proxy:update'],
        validate: true,
        idempotency: 'transaction',
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.reactor.proxies.delete,
        payload: IdMessage,
        access: ['proxy:delete'],
        validate: true,
      }),
      /**
       * A proxy by its key. Asked by the gateway before authentication (an anonymous call to a proxy that does not
       * require auth) and by proxy-service: no principal needed; with one, only its tenant's proxies are found.
       */
      resolve: op<ResolveProxyMessage, ResolvedProxy | null>()({
        subject: SUBJECTS.reactor.proxies.resolve,
        payload: ResolveProxyMessage,
        access: 'none',
        validate: true,
        internal: true,
      }),
      /** the caller's principal (proxy-service forwards the invoker's): the proxy must be of its tenant */
      transform: op<ProxyTransformMessage, ProxyTransformResult>()({
        subject: SUBJECTS.reactor.proxies.transform,
        payload: ProxyTransformMessage,
        access: 'principal',
        validate: true,
        internal: true,
      }),
      /** the invoker's principal (proxy-service forwards it): keys are per caller, as for every idempotent request */
      idempotency: op<ProxyIdempotencyMessage, ProxyIdempotencyReply>()({
        subject: SUBJECTS.reactor.proxies.idempotency,
        payload: ProxyIdempotencyMessage,
        access: 'principal',
        validate: true,
        internal: true,
      }),
    },
  },
  webhook: {
    webhooks: {
      create: op<CreateWebhookRequest, CreatedWebhookView>()({
        subject: SUBJECTS.webhook.webhooks.create,
        payload: CreateWebhookRequest,
        access: ['webhook:create'],
        validate: true,
        idempotency: 'transaction',
      }),
      list: op<ListQueryMessage, unknown>()({
        subject: SUBJECTS.webhook.webhooks.list,
        payload: ListQueryMessage,
        access: ['webhook:read'],
      }),
      get: op<IdMessage, WebhookView>()({
        subject: SUBJECTS.webhook.webhooks.get,
        payload: IdMessage,
        access: ['webhook:read'],
        validate: true,
      }),
      update: op<IdBodyMessage, WebhookView>()({
        subject: SUBJECTS.webhook.webhooks.update,
        payload: IdBodyMessage,
        access: ['webhook:update'],
        validate: true,
        idempotency: 'transaction',
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.webhook.webhooks.delete,
        payload: IdMessage,
        access: ['webhook:delete'],
        validate: true,
      }),
      deliveries: op<WebhookDeliveriesMessage, unknown>()({
        subject: SUBJECTS.webhook.webhooks.deliveries,
        payload: WebhookDeliveriesMessage,
        access: ['webhook:read'],
        validate: true,
      }),
      resend: op<WebhookDeliveryMessage, unknown>()({
        subject: SUBJECTS.webhook.webhooks.resend,
        payload: WebhookDeliveryMessage,
        access: ['webhook:update'],
        validate: true,
      }),
    },
  },
  proxy: {
    /**
     * /proxy and /proxy/**: the ephemeral proxy (destination given). The mirrored service accepts proxy:invoke or its
     * older name token:use; detokenizing a token also needs the caller's access to it, as POST /detokenize does.
     */
    invoke: op<ProxyInvocationMessage, ProxyReply>()({
      subject: SUBJECTS.proxy.invoke,
      payload: ProxyInvocationMessage,
      access: ['proxy:invoke', 'token:use'],
      validate: true,
    }),
  },
  /** every service answers these for readiness of the bus path */
  ping: { token: ping('token'), session: ping('session'), reactor: ping('reactor'), webhook: ping('webhook'), proxy: ping('proxy') },
} as const;

/** The events of the bus (published, never answered): their payload classes. */
export const EVENT_PAYLOADS = {
  [SUBJECTS.webhook.wake]: EmptyMessage,
  [SUBJECTS.events.authInvalidated]: AuthInvalidatedEvent,
  [SUBJECTS.events.proxyChanged]: ProxyChangedEvent,
} as const;
