import { SUBJECTS } from '../subjects';
import type { Page } from '../pagination';
import type { Principal } from '../auth/principal';
import { RPC_DEADLINE_MS } from '../envelope';
import {
  CreateApplicationRequest,
  ApplicationView,
  ApplicationKeyView,
  ApplicationPage,
  MAX_KEYS_PER_APPLICATION,
  UpdateApplicationRequest,
} from '../applications/applications';
import { UpdateTenantRequest, TenantView, WebhookSecretView } from '../tenants/tenants';
import { AuthorizeSessionRequest, CreateSessionResponse } from '../sessions/sessions';
import {
  CreateTokenRequest,
  SearchTokensRequest,
  SearchTokensV2Request,
  TokenView,
  TokenCursorPage,
  TokenPage,
  TokenSearchPage,
  UpdateTokenPatch,
} from '../tokens/tokens';
import { CreateTokenIntentRequest, TokenIntentView } from '../tokens/token-intents';
import { ReactorFormulaRequest, ReactorFormulaPage, ReactorFormulaView } from '../reactors/formulas';
import {
  CreateReactorRequest,
  ReactorView,
  ReactAccepted,
  ReactAsyncAccepted,
  ReactRequest,
  ReactResponse,
  ReactorJobResultView,
  ReactorPage,
  UpdateReactorRequest,
} from '../reactors/reactors';
import { CodeReactorRequest, ReactAsyncRequest } from '../reactors/code-reactors';
import { ListApplicationsQuery } from '../applications/application-queries';
import { ListReactorFormulasQuery, ListReactorsQuery } from '../reactors/reactor-queries';
import { ListLogsQuery } from '../audit/audit-queries';
import {
  CreateWebhookRequest,
  WebhookDeliveriesMessage,
  WebhookDeliveryMessage,
  CreatedWebhookView,
  WebhookView,
  DELIVERY_STATUSES,
  UpdateWebhookRequest,
  WebhookDeliveryPage,
  WebhookDeliveryView,
  WebhookPage,
} from '../webhooks/webhooks';
import { ProxyInvocationMessage, type ProxyReply } from '../proxies/proxy-invocation';
import {
  CreateProxyRequest,
  ProxyChangedEvent,
  ProxyIdempotencyMessage,
  ProxyTransformMessage,
  ResolveProxyMessage,
  type ProxyIdempotencyReply,
  type ProxyTransformResult,
  ProxyView,
  type ResolvedProxy,
  ProxyPage,
} from '../proxies/proxies';
import {
  ApplicationKeyMessage,
  AuditRecordMessage,
  AuthInvalidatedEvent,
  TenantSettingsChangedEvent,
  AuthenticateMessage,
  type AuthenticateReply,
  EmptyMessage,
  type JsonValue,
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
  InvitationView,
  MemberView,
  InvitationPage,
  MemberPage,
  UpdateMemberRequest,
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
import { ANY_JSON_SCHEMA } from '../openapi/json-schema';
import { AuditEventPage, AuditEventView } from '../audit/audit';
import { NewReactorRequest, ReactorMergePatch, ReplaceReactorRequest } from '../reactors/reactor-bodies';
import { ListTokensQuery, ListTokensV2Query } from '../tokens/token-queries';
import { TenantKeysView } from '../tenants/tenant-keys';
import { op, type Access, type HttpParamDoc, type IdempotencyMode } from './operation';

/**
 * Fields stored as text or jsonb refuse NUL; `data` is stored encrypted and may hold it. Checked before any
 * recursive code (merge patch, structuredClone, liquid, JSON.stringify) sees the body: bodies also arrive without the
 * gateway (reactor formulas call through `svc`).
 */
const STORED_FIELDS = { rejectNul: true, nulExempt: ['data'], rejectReservedKeys: true } as const;

/** The path parameters of the HTTP routes (`http.params`), as the API reference documents them. */
const APPLICATION_ID: HttpParamDoc = { name: 'id', format: 'uuid', description: 'the application id' };
const KEY_ID: HttpParamDoc = { name: 'keyId', format: 'uuid', description: 'the key id' };
const INVITATION_ID: HttpParamDoc = { name: 'id', format: 'uuid', description: 'the invitation id' };
const MEMBER_ID: HttpParamDoc = { name: 'id', format: 'uuid', description: 'the member id' };
const PROXY_ID: HttpParamDoc = { name: 'id', format: 'uuid', description: 'the proxy id' };
const FORMULA_ID: HttpParamDoc = { name: 'id', format: 'uuid', description: 'the formula id' };
const REACTOR_ID: HttpParamDoc = { name: 'id', format: 'uuid', description: 'the reactor id' };
const TOKEN_INTENT_ID: HttpParamDoc = { name: 'id', description: 'the token intent id', example: '665bf471-d675-4165-9336-4fc9c1a73fad' };
const TOKEN_ID: HttpParamDoc = {
  name: 'id',
  description: 'the token id (a UUID, or the id given at creation)',
  example: 'c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11',
};
const WEBHOOK_ID: HttpParamDoc = { name: 'id', format: 'uuid', description: 'the webhook id' };

type Deleted = { deleted: boolean };
type Ok = { ok: boolean };

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
 * dispatcher of each service (libs/operations) serves its rows; the unit test checks that no subject of
 * SUBJECTS is missing. Subjects carrying an HTTP body use that body's contract class; token lists carry `{query}`.
 */
export const OPS = {
  session: {
    authenticate: op<AuthenticateMessage, AuthenticateReply>()({
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
        http: {
          method: 'POST',
          path: '/applications',
          status: 201,
          summary: 'Create an application',
          description: 'application:create. The reply carries `key` (and `keys`), shown only here. A permission the type may not hold is a 400.',
          body: CreateApplicationRequest,
          reply: { type: ApplicationView },
        },
      }),
      list: op<ListApplicationsQuery, Page<ApplicationView>>()({
        subject: SUBJECTS.session.applications.list,
        payload: ListApplicationsQuery,
        access: ['application:read'],
        http: {
          method: 'GET',
          path: '/applications',
          payloadFrom: 'query',
          status: 200,
          summary: 'List applications',
          description: 'application:read. Newest first; never keys.',
          reply: { type: ApplicationPage },
        },
      }),
      /** also read by POST /applications/{id}/access-preview, a route the gateway answers itself (plain decorators) */
      get: op<IdMessage, ApplicationView>()({
        subject: SUBJECTS.session.applications.get,
        payload: IdMessage,
        access: ['application:read'],
        http: {
          method: 'GET',
          path: '/applications/:id',
          status: 200,
          summary: 'Get an application',
          description: 'application:read.',
          params: [APPLICATION_ID],
          reply: { type: ApplicationView },
        },
      }),
      update: op<IdBodyMessage, ApplicationView>()({
        subject: SUBJECTS.session.applications.update,
        payload: IdBodyMessage,
        access: ['application:update'],
        idempotency: 'transaction',
        http: {
          method: 'PUT',
          path: '/applications/:id',
          status: 200,
          summary: 'Update an application',
          description: 'application:update. Name and grants; the type cannot change.',
          params: [APPLICATION_ID],
          body: UpdateApplicationRequest,
          reply: { type: ApplicationView },
        },
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.session.applications.delete,
        payload: IdMessage,
        access: ['application:delete'],
        http: {
          method: 'DELETE',
          path: '/applications/:id',
          status: 204,
          summary: 'Delete an application',
          description: 'application:delete. Its keys stop working at once.',
          params: [APPLICATION_ID],
          reply: { description: 'deleted' },
        },
      }),
      regenerate: op<IdMessage, ApplicationView>()({
        subject: SUBJECTS.session.applications.regenerate,
        payload: IdMessage,
        access: ['application:update'],
        idempotency: 'transaction',
        http: {
          method: 'POST',
          path: '/applications/:id/regenerate',
          status: 200,
          summary: 'Regenerate the key of an application',
          description: 'application:update. The old key stops working at once; the reply carries the new `key`.',
          params: [APPLICATION_ID],
          reply: { type: ApplicationView },
        },
      }),
      current: op<EmptyMessage, ApplicationView>()({
        subject: SUBJECTS.session.applications.current,
        payload: EmptyMessage,
        access: 'principal',
        http: {
          method: 'GET',
          path: '/applications/key',
          status: 200,
          summary: 'The calling application',
          description: 'Any application key, no permission; a session key is a 403.',
          reply: { type: ApplicationView },
        },
      }),
      keys: {
        create: op<ApplicationKeyMessage, ApplicationKeyView>()({
          subject: SUBJECTS.session.applications.keys.create,
          payload: ApplicationKeyMessage,
          access: ['application:update'],
          idempotency: 'transaction',
          http: {
            method: 'POST',
            path: '/applications/:id/keys',
            paramsAs: { id: 'applicationId' },
            status: 201,
            summary: 'Create a key for an application',
            description: `application:update. The secret \`key\` is in this reply only; at most ${MAX_KEYS_PER_APPLICATION} keys per application.`,
            params: [APPLICATION_ID],
            reply: { type: ApplicationKeyView },
            problems: { 422: `The application already holds ${MAX_KEYS_PER_APPLICATION} keys` },
          },
        }),
        list: op<ApplicationKeyMessage, ApplicationKeyView[]>()({
          subject: SUBJECTS.session.applications.keys.list,
          payload: ApplicationKeyMessage,
          access: ['application:read'],
          http: {
            method: 'GET',
            path: '/applications/:id/keys',
            paramsAs: { id: 'applicationId' },
            status: 200,
            summary: 'List the keys of an application',
            description: 'application:read. Never the secrets.',
            params: [APPLICATION_ID],
            reply: { type: [ApplicationKeyView] },
          },
        }),
        get: op<ApplicationKeyMessage, ApplicationKeyView>()({
          subject: SUBJECTS.session.applications.keys.get,
          payload: ApplicationKeyMessage,
          access: ['application:read'],
          http: {
            method: 'GET',
            path: '/applications/:id/keys/:keyId',
            paramsAs: { id: 'applicationId' },
            status: 200,
            summary: 'Get a key of an application',
            description: 'application:read. Never the secret.',
            params: [APPLICATION_ID, KEY_ID],
            reply: { type: ApplicationKeyView },
          },
        }),
        delete: op<ApplicationKeyMessage, Deleted>()({
          subject: SUBJECTS.session.applications.keys.delete,
          payload: ApplicationKeyMessage,
          access: ['application:update'],
          http: {
            method: 'DELETE',
            path: '/applications/:id/keys/:keyId',
            paramsAs: { id: 'applicationId' },
            status: 204,
            summary: 'Revoke a key of an application',
            description: 'application:update. The key stops working at once.',
            params: [APPLICATION_ID, KEY_ID],
            reply: { description: 'revoked' },
          },
        }),
      },
      /** reactor-service: the application a reactor acts as (no key material) */
      principal: op<IdMessage, Principal>()({
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
        http: {
          method: 'GET',
          path: '/tenants/self',
          status: 200,
          summary: 'The tenant of the key',
          description: 'tenant:read.',
          reply: { type: TenantView },
          // the gateway never sends `internal` (the body is `{}`): its callers need tenant:read
          access: ['tenant:read'],
        },
      }),
      update: op<UpdateTenantRequest, TenantView>()({
        subject: SUBJECTS.session.tenants.update,
        payload: UpdateTenantRequest,
        access: ['tenant:update'],
        validate: true,
        idempotency: 'transaction',
        http: {
          method: 'PUT',
          path: '/tenants/self',
          status: 200,
          summary: 'Update the tenant',
          description: 'tenant:update. Name and settings (deduplicate_tokens).',
          body: UpdateTenantRequest,
          reply: { type: TenantView },
        },
      }),
      webhookSecret: op<WebhookSecretMessage, WebhookSecretView | string[]>()({
        subject: SUBJECTS.session.tenants.webhookSecret,
        payload: WebhookSecretMessage,
        access: webhookSecretRead,
        validate: true,
        http: {
          method: 'GET',
          path: '/tenants/self/webhook-secret',
          status: 200,
          summary: 'The webhook signing secret',
          description: 'tenant:read. The HMAC key of the Standard Webhooks signatures of asynchronous reactor results.',
          reply: { type: WebhookSecretView },
          // the gateway never sends `signing`: its callers need tenant:read
          access: ['tenant:read'],
        },
      }),
      rotateWebhookSecret: op<EmptyMessage, WebhookSecretView>()({
        subject: SUBJECTS.session.tenants.rotateWebhookSecret,
        payload: EmptyMessage,
        access: ['tenant:update'],
        idempotency: 'transaction',
        http: {
          method: 'POST',
          path: '/tenants/self/webhook-secret/rotate',
          status: 200,
          summary: 'Rotate the webhook signing secret',
          description: 'tenant:update. For 24 hours webhooks carry two signatures, by the old and the new secret.',
          reply: { type: WebhookSecretView },
        },
      }),
    },
    sessions: {
      create: op<EmptyMessage, CreateSessionResponse>()({
        subject: SUBJECTS.session.sessions.create,
        payload: EmptyMessage,
        access: 'principal',
        idempotency: 'transaction',
        http: {
          method: 'POST',
          path: '/sessions',
          status: 201,
          summary: 'Create a session',
          description:
            "A public application's key (any other key: 403). No body. The session key has no access until a private application authorizes it with the nonce.",
          reply: { type: CreateSessionResponse },
        },
      }),
      authorize: op<AuthorizeSessionRequest, Record<string, never>>()({
        subject: SUBJECTS.session.sessions.authorize,
        payload: AuthorizeSessionRequest,
        access: 'principal',
        // validate left false: session-service validates it after its own 403 (only a private application's key authorizes sessions)
        idempotency: 'transaction',
        http: {
          method: 'POST',
          path: '/sessions/authorize',
          status: 200,
          summary: 'Authorize a session',
          description: "A private application's key. Grants the session permissions or rules the authorizer holds itself (more: 400); the nonce is single-use.",
          body: AuthorizeSessionRequest,
          reply: { description: 'authorized (empty body)' },
          problems: { 404: 'Unknown or expired nonce', 409: 'The session is already authorized' },
        },
      }),
    },
    members: {
      list: op<ListMembersQuery, Page<MemberView>>()({
        subject: SUBJECTS.session.members.list,
        payload: ListMembersQuery,
        access: ['tenant:member:read'],
        http: {
          method: 'GET',
          path: '/tenants/self/members',
          payloadFrom: 'query',
          status: 200,
          summary: 'List tenant members',
          description: 'tenant:member:read. Oldest first; `user_id` filters (repeatable).',
          reply: { type: MemberPage },
        },
      }),
      get: op<IdMessage, MemberView>()({
        subject: SUBJECTS.session.members.get,
        payload: IdMessage,
        access: ['tenant:member:read'],
        http: {
          method: 'GET',
          path: '/tenants/self/members/:id',
          status: 200,
          summary: 'Get a tenant member',
          description: 'tenant:member:read.',
          params: [MEMBER_ID],
          reply: { type: MemberView },
          problems: { 404: 'No such member in the tenant' },
        },
      }),
      update: op<IdBodyMessage, MemberView>()({
        subject: SUBJECTS.session.members.update,
        payload: IdBodyMessage,
        access: ['tenant:member:update'],
        idempotency: 'transaction',
        http: {
          method: 'PUT',
          path: '/tenants/self/members/:id',
          status: 200,
          summary: "Change a member's role",
          description: 'tenant:member:update. ADMIN, DEVELOPER or READ_ONLY; the owner is changed by PUT /tenants/self/owner only (409).',
          params: [MEMBER_ID],
          body: UpdateMemberRequest,
          reply: { type: MemberView },
          problems: { 404: 'No such member in the tenant', 409: 'The member is the owner: transfer ownership first' },
        },
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.session.members.delete,
        payload: IdMessage,
        access: ['tenant:member:delete'],
        http: {
          method: 'DELETE',
          path: '/tenants/self/members/:id',
          status: 204,
          summary: 'Remove a tenant member',
          description: "tenant:member:delete. The member's console sessions end at once; the owner cannot be removed (409).",
          params: [MEMBER_ID],
          reply: { description: 'removed' },
          problems: { 404: 'No such member in the tenant', 409: 'The member is the owner: transfer ownership first' },
        },
      }),
      owner: op<EmptyMessage, MemberView>()({
        subject: SUBJECTS.session.members.owner,
        payload: EmptyMessage,
        access: ['tenant:member:read'],
        http: {
          method: 'GET',
          path: '/tenants/self/owner',
          status: 200,
          summary: 'The owner of the tenant',
          description: 'tenant:member:read. 404 until a first member has joined.',
          reply: { type: MemberView },
          problems: { 404: 'Nobody has joined the tenant yet' },
        },
      }),
      /** a person must also be the OWNER (session-service checks it) */
      transferOwner: op<TransferOwnerRequest, MemberView>()({
        subject: SUBJECTS.session.members.transferOwner,
        payload: TransferOwnerRequest,
        access: ['tenant:owner:transfer'],
        validate: true,
        idempotency: 'transaction',
        http: {
          method: 'PUT',
          path: '/tenants/self/owner',
          status: 200,
          summary: 'Transfer ownership',
          description:
            'tenant:owner:transfer; a person must be the OWNER. The member named becomes the owner and the former owner an ADMIN, in one transaction.',
          body: TransferOwnerRequest,
          reply: { type: MemberView },
          problems: { 403: 'A person who is not the owner', 404: 'No such member in the tenant' },
        },
      }),
    },
    invitations: {
      create: op<CreateInvitationRequest, InvitationView>()({
        subject: SUBJECTS.session.invitations.create,
        payload: CreateInvitationRequest,
        access: ['tenant:invitation:create'],
        validate: true,
        idempotency: 'transaction',
        http: {
          method: 'POST',
          path: '/tenants/self/invitations',
          status: 201,
          summary: 'Invite a person',
          description:
            'tenant:invitation:create. Emails a single-use link that works for 72 hours; `role` ADMIN (default), DEVELOPER or READ_ONLY. ' +
            'A member or a pending invitation with that email is a 409.',
          body: CreateInvitationRequest,
          reply: { type: InvitationView },
          problems: { 409: 'A member has this email, or an invitation for it is pending' },
        },
      }),
      list: op<ListInvitationsQuery, Page<InvitationView>>()({
        subject: SUBJECTS.session.invitations.list,
        payload: ListInvitationsQuery,
        access: ['tenant:invitation:read'],
        http: {
          method: 'GET',
          path: '/tenants/self/invitations',
          payloadFrom: 'query',
          status: 200,
          summary: 'List invitations',
          description: 'tenant:invitation:read. `status` PENDING or EXPIRED filters.',
          reply: { type: InvitationPage },
        },
      }),
      get: op<IdMessage, InvitationView>()({
        subject: SUBJECTS.session.invitations.get,
        payload: IdMessage,
        access: ['tenant:invitation:read'],
        http: {
          method: 'GET',
          path: '/tenants/self/invitations/:id',
          status: 200,
          summary: 'Get an invitation',
          description: 'tenant:invitation:read. Never its link.',
          params: [INVITATION_ID],
          reply: { type: InvitationView },
          problems: { 404: 'No such invitation in the tenant' },
        },
      }),
      resend: op<IdMessage, InvitationView>()({
        subject: SUBJECTS.session.invitations.resend,
        payload: IdMessage,
        access: ['tenant:invitation:update'],
        idempotency: 'transaction',
        http: {
          method: 'POST',
          path: '/tenants/self/invitations/:id/resend',
          status: 200,
          summary: 'Resend an invitation',
          description: 'tenant:invitation:update. A new link, valid 72 hours from now; the previous link stops working.',
          params: [INVITATION_ID],
          reply: { type: InvitationView },
          problems: { 404: 'No such invitation in the tenant' },
        },
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.session.invitations.delete,
        payload: IdMessage,
        access: ['tenant:invitation:delete'],
        http: {
          method: 'DELETE',
          path: '/tenants/self/invitations/:id',
          status: 204,
          summary: 'Revoke an invitation',
          description: 'tenant:invitation:delete. Its link stops working at once.',
          params: [INVITATION_ID],
          reply: { description: 'revoked' },
          problems: { 404: 'No such invitation in the tenant' },
        },
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
        http: {
          method: 'POST',
          path: '/tokens',
          status: 201,
          summary: 'Create a token',
          description:
            "token:create. With deduplication, an existing live token of the same type and fingerprint is answered instead (201, the same shape; without read access only id, type, tenant_id, fingerprint, containers). With `token_intent_id` instead of `data`, the intent's data becomes the token and the intent is consumed.",
          body: CreateTokenRequest,
          reply: { type: TokenView, description: "the token, data masked per the caller's access" },
          problems: {
            404: 'token_intent_id names no token intent (never created, expired or deleted)',
            409: 'The literal id is taken, the token intent was already converted (or an idempotent repeat is in flight)',
          },
        },
      }),
      get: op<IdMessage, TokenView>()({
        subject: SUBJECTS.token.tokens.get,
        payload: IdMessage,
        access: ['token:read'],
        http: {
          method: 'GET',
          path: '/tokens/:id',
          status: 200,
          summary: 'Get a token',
          description: "token:read. 403 when no access rule allows the token's container.",
          params: [TOKEN_ID],
          reply: { type: TokenView },
        },
      }),
      list: op<ListQueryMessage, Page<TokenView>>()({
        subject: SUBJECTS.token.tokens.list,
        payload: ListQueryMessage,
        access: ['token:read'],
        http: {
          method: 'GET',
          path: '/tokens',
          payloadFrom: 'params+query',
          queryClass: ListTokensQuery,
          status: 200,
          summary: 'List tokens',
          description:
            "token:read. Newest first; tokens no access rule allows are left out; data per the caller's transform. `metadata.<key>=<value>` filters by metadata (case-insensitive, ANDed).",
          query: [
            { name: 'metadata.<key>', required: false, description: 'metadata filter, e.g. metadata.customer=c-42 (any key)', schema: { type: 'string' } },
          ],
          reply: { type: TokenPage },
        },
      }),
      update: op<TokenPatchMessage, TokenView>()({
        subject: SUBJECTS.token.tokens.update,
        payload: TokenPatchMessage,
        access: ['token:update'],
        jsonLimits: { field: 'patch', options: STORED_FIELDS },
        idempotency: 'transaction',
        http: {
          method: 'PATCH',
          path: '/tokens/:id',
          bodyAs: 'patch',
          consumes: ['application/merge-patch+json'],
          status: 200,
          summary: 'Update a token (JSON merge patch)',
          description:
            'token:update. RFC 7386: null removes a key; containers, search_indexes, fingerprint_expression, deduplicate_token and expires_at are replaced. The type never changes.',
          params: [TOKEN_ID],
          body: UpdateTokenPatch,
          reply: { type: TokenView, description: 'the updated token (or, with deduplication, the live duplicate it would have become)' },
          problems: { 415: 'The Content-Type is not application/merge-patch+json' },
        },
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.token.tokens.delete,
        payload: IdMessage,
        access: ['token:delete'],
        http: {
          method: 'DELETE',
          path: '/tokens/:id',
          status: 204,
          summary: 'Delete a token',
          description: 'token:delete.',
          params: [TOKEN_ID],
          reply: { description: 'deleted' },
        },
      }),
      search: op<SearchTokensRequest, Page<TokenView>>()({
        subject: SUBJECTS.token.tokens.search,
        payload: SearchTokensRequest,
        access: ['token:search'],
        jsonLimits: {},
        http: {
          method: 'POST',
          path: '/tokens/search',
          status: 200,
          summary: 'Search tokens',
          description:
            'token:search. Terms `field:value` joined by AND, OR, NOT, parentheses and quoted phrases; `data` terms match blind search indexes (never decrypted to compare).',
          body: SearchTokensRequest,
          reply: { type: TokenSearchPage },
        },
      }),
      listV2: op<ListQueryMessage, TokenCursorPage>()({
        subject: SUBJECTS.token.tokens.listV2,
        payload: ListQueryMessage,
        access: ['token:read'],
        http: {
          method: 'GET',
          path: '/v2/tokens',
          payloadFrom: 'params+query',
          queryClass: ListTokensV2Query,
          status: 200,
          summary: 'List tokens (cursor pages)',
          description: 'token:read. Newest first; the same access rules and transforms as GET /tokens.',
          reply: { type: TokenCursorPage },
        },
      }),
      searchV2: op<SearchTokensV2Request, TokenCursorPage>()({
        subject: SUBJECTS.token.tokens.searchV2,
        payload: SearchTokensV2Request,
        access: ['token:search'],
        jsonLimits: {},
        http: {
          method: 'POST',
          path: '/v2/tokens/search',
          status: 200,
          summary: 'Search tokens (cursor pages)',
          description: 'token:search. The query language of POST /tokens/search.',
          body: SearchTokensV2Request,
          reply: { type: TokenCursorPage },
        },
      }),
      tokenize: op<PayloadMessage, JsonValue>()({
        subject: SUBJECTS.token.tokens.tokenize,
        payload: PayloadMessage,
        access: ['token:create'],
        jsonLimits: { field: 'payload' },
        idempotency: 'transaction',
        http: {
          method: 'POST',
          path: '/tokenize',
          status: 200,
          summary: 'Tokenize any JSON',
          description:
            'token:create. An object with `type` and `data` is a token request (the fields of POST /tokens) and is replaced by the created token (masked); any other primitive becomes a `token` of that value and is replaced by its id; other objects and arrays are walked. All or nothing; at most 100 tokens per call. Errors name the nested path (`card.data.number`).',
          body: {
            schema: { ...ANY_JSON_SCHEMA, description: 'any JSON' } as object,
            examples: {
              request: { summary: 'a token request', value: { type: 'card_number', data: '4242424242424242' } },
              walked: {
                summary: 'an object walked',
                value: { card: { type: 'card', data: { number: '4242424242424242', expiration_month: 12, expiration_year: 2030 } }, ssn: '123-45-6789' },
              },
            },
          },
          reply: {
            schema: { ...ANY_JSON_SCHEMA, description: 'the same shape, token requests replaced by tokens and primitives by token ids' } as object,
            example: { id: 'c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11', type: 'card_number', data: '############4242' },
          },
          problems: { 409: 'A literal token id is taken (or an idempotent repeat is in flight)' },
        },
      }),
      /** POST /detokenize, and reactor-service for invocation args (`path` names the field in errors) */
      detokenize: op<PayloadMessage, JsonValue>()({
        subject: SUBJECTS.token.tokens.detokenize,
        payload: PayloadMessage,
        access: ['token:use', 'token:read'],
        jsonLimits: { field: 'payload', rootFrom: 'path' },
        http: {
          method: 'POST',
          path: '/detokenize',
          status: 200,
          summary: 'Detokenize any JSON',
          description:
            "token:use (or token:read with the reveal transform) for each token's container. Detokenization expressions `{{ <token id> }}` anywhere in the JSON are replaced by the token data.",
          body: {
            schema: { ...ANY_JSON_SCHEMA, description: 'any JSON' } as object,
            examples: { expression: { summary: 'an object with an expression', value: { card: '{{ c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11 }}' } } },
          },
          reply: {
            schema: { ...ANY_JSON_SCHEMA, description: 'the same shape, expressions replaced by token data' } as object,
            example: { card: { number: '4242424242424242', expiration_month: 12, expiration_year: 2030 } },
          },
        },
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
        http: {
          method: 'POST',
          path: '/token-intents',
          tags: ['token-intents'],
          status: 201,
          summary: 'Create a token intent',
          description:
            'token-intent:create (public or private keys). The data is validated as a token of the type, stored encrypted for 24 hours and never returned; POST /tokens with token_intent_id makes it a token.',
          body: CreateTokenIntentRequest,
          reply: { type: TokenIntentView, description: 'the intent: fingerprint and card or bank details, never the data' },
        },
      }),
      get: op<IdMessage, TokenIntentView>()({
        subject: SUBJECTS.token.intents.get,
        payload: IdMessage,
        access: ['token-intent:read'],
        http: {
          method: 'GET',
          path: '/token-intents/:id',
          tags: ['token-intents'],
          status: 200,
          summary: 'Get a token intent',
          description: 'token-intent:read. 404 once it expired, was deleted or was converted to a token.',
          params: [TOKEN_INTENT_ID],
          reply: { type: TokenIntentView },
        },
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.token.intents.delete,
        payload: IdMessage,
        access: ['token-intent:delete'],
        http: {
          method: 'DELETE',
          path: '/token-intents/:id',
          tags: ['token-intents'],
          status: 204,
          summary: 'Delete a token intent',
          description: 'token-intent:delete.',
          params: [TOKEN_INTENT_ID],
          reply: { description: 'deleted' },
        },
      }),
    },
    logs: {
      list: op<ListLogsQuery, Page<AuditEventView>>()({
        subject: SUBJECTS.token.logs.list,
        payload: ListLogsQuery,
        access: ['log:read'],
        http: {
          method: 'GET',
          path: '/logs',
          payloadFrom: 'query',
          tags: ['logs'],
          status: 200,
          summary: 'List audit events',
          description: 'log:read. Every token create, read, update, delete, use and every reactor invocation; never sensitive data.',
          reply: { type: AuditEventPage },
        },
      }),
    },
    keys: {
      /** GET /tenants/self/keys: the calling tenant's data key versions and re-encryption progress (never key material) */
      status: op<EmptyMessage, TenantKeysView>()({
        subject: SUBJECTS.token.keys.status,
        payload: EmptyMessage,
        access: ['tenant:read'],
        http: {
          method: 'GET',
          path: '/tenants/self/keys',
          status: 200,
          summary: "The tenant's data key versions",
          description:
            'tenant:read. Every version of the data key (id, version, whether active, created, the key-encryption key provider ' +
            'it is wrapped under), oldest first, and while a re-encryption job (admin keys reencrypt) runs for the tenant, its ' +
            'progress per kind of sealed value. Never key material.',
          reply: { type: TenantKeysView },
        },
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
      create: op<ReactorFormulaRequest, ReactorFormulaView>()({
        subject: SUBJECTS.reactor.formulas.create,
        payload: ReactorFormulaRequest,
        access: ['reactor:create'],
        validate: true,
        idempotency: 'transaction',
        http: {
          method: 'POST',
          path: '/reactor-formulas',
          status: 201,
          summary: 'Create a private formula',
          description: "reactor:create. Only private formulas are created through the API (official ones are the operator's).",
          body: ReactorFormulaRequest,
          reply: { type: ReactorFormulaView },
        },
      }),
      list: op<ListReactorFormulasQuery, Page<ReactorFormulaView>>()({
        subject: SUBJECTS.reactor.formulas.list,
        payload: ListReactorFormulasQuery,
        access: ['reactor:read'],
        http: {
          method: 'GET',
          path: '/reactor-formulas',
          payloadFrom: 'query',
          status: 200,
          summary: 'List formulas',
          description: "reactor:read. The operator's official formulas and the tenant's private ones.",
          reply: { type: ReactorFormulaPage },
        },
      }),
      get: op<IdMessage, ReactorFormulaView>()({
        subject: SUBJECTS.reactor.formulas.get,
        payload: IdMessage,
        access: ['reactor:read'],
        http: {
          method: 'GET',
          path: '/reactor-formulas/:id',
          status: 200,
          summary: 'Get a formula',
          description: 'reactor:read.',
          params: [FORMULA_ID],
          reply: { type: ReactorFormulaView },
        },
      }),
      update: op<IdBodyMessage, ReactorFormulaView>()({
        subject: SUBJECTS.reactor.formulas.update,
        payload: IdBodyMessage,
        access: ['reactor:update'],
        idempotency: 'transaction',
        http: {
          method: 'PUT',
          path: '/reactor-formulas/:id',
          status: 200,
          summary: 'Replace a private formula',
          description: 'reactor:update. The same fields and rules as create.',
          params: [FORMULA_ID],
          body: ReactorFormulaRequest,
          reply: { type: ReactorFormulaView },
        },
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.reactor.formulas.delete,
        payload: IdMessage,
        access: ['reactor:delete'],
        http: {
          method: 'DELETE',
          path: '/reactor-formulas/:id',
          status: 204,
          summary: 'Delete a private formula',
          description: 'reactor:delete.',
          params: [FORMULA_ID],
          reply: { description: 'deleted' },
          problems: { 409: 'A reactor uses the formula' },
        },
      }),
    },
    reactors: {
      create: op<CreateReactorRequest | CodeReactorRequest, ReactorView>()({
        subject: SUBJECTS.reactor.reactors.create,
        payload: [CreateReactorRequest, CodeReactorRequest],
        access: ['reactor:create'],
        idempotency: 'transaction',
        http: {
          method: 'POST',
          path: '/reactors',
          bodyClass: NewReactorRequest,
          status: 201,
          summary: 'Create a reactor',
          description:
            'reactor:create. From a formula (`formula.id`, configuration satisfying its contract) or with its own `code` (a code reactor): exactly one of the two.',
          body: [CreateReactorRequest, CodeReactorRequest],
          reply: { type: ReactorView },
          problems: { 404: 'The formula or the application does not exist' },
        },
      }),
      list: op<ListReactorsQuery, Page<ReactorView>>()({
        subject: SUBJECTS.reactor.reactors.list,
        payload: ListReactorsQuery,
        access: ['reactor:read'],
        http: {
          method: 'GET',
          path: '/reactors',
          payloadFrom: 'query',
          status: 200,
          summary: 'List reactors',
          description: 'reactor:read. Configuration values are returned as given.',
          reply: { type: ReactorPage },
        },
      }),
      get: op<IdMessage, ReactorView>()({
        subject: SUBJECTS.reactor.reactors.get,
        payload: IdMessage,
        access: ['reactor:read'],
        http: {
          method: 'GET',
          path: '/reactors/:id',
          status: 200,
          summary: 'Get a reactor',
          description: 'reactor:read.',
          params: [REACTOR_ID],
          reply: { type: ReactorView },
        },
      }),
      update: op<IdBodyMessage, ReactorView>()({
        subject: SUBJECTS.reactor.reactors.update,
        payload: IdBodyMessage,
        access: ['reactor:update'],
        idempotency: 'transaction',
        http: {
          method: 'PUT',
          path: '/reactors/:id',
          bodyClass: ReplaceReactorRequest,
          status: 200,
          summary: 'Replace a reactor',
          description:
            'reactor:update. Name, configuration and application (absent = none); the formula cannot change. A code reactor takes name, code, configuration, application and runtime.',
          params: [REACTOR_ID],
          body: [UpdateReactorRequest, CodeReactorRequest],
          reply: { type: ReactorView },
        },
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.reactor.reactors.delete,
        payload: IdMessage,
        access: ['reactor:delete'],
        http: {
          method: 'DELETE',
          path: '/reactors/:id',
          status: 204,
          summary: 'Delete a reactor',
          description: 'reactor:delete.',
          params: [REACTOR_ID],
          reply: { description: 'deleted' },
        },
      }),
      /**
       * Synchronous: the key is claimed while the reactor runs (a formula's calls to third parties cannot be rolled
       * back); with a callback URL it is accepted and recorded with its job.
       */
      react: op<IdBodyMessage, ReactResponse | ReactAccepted>()({
        subject: SUBJECTS.reactor.reactors.react,
        payload: IdBodyMessage,
        access: ['token:use'],
        idempotency: reactIdempotency,
        leaseMs: RPC_DEADLINE_MS.react + 5_000,
        http: {
          method: 'POST',
          path: '/reactors/:id/react',
          status: 200,
          summary: 'Invoke a reactor',
          description:
            'token:use, and token:use for the container of every token detokenized from args. Synchronous (at most 10 s, then 504) unless `callback_url` is given: then 202 and the result is POSTed to the URL. A formula may also answer with any status, headers and body of its own (CustomHttpResponseError).',
          params: [REACTOR_ID],
          body: ReactRequest,
          reply: { type: ReactResponse, description: 'the Reactor Response' },
          problems: {
            402: 'The formula threw InvalidPaymentMethodError',
            422: 'The reactor code does not load',
            500: 'The formula threw ReactorRuntimeError (or anything else): its own answer, not a platform failure',
          },
        },
      }),
      /** GET /reactors/{id}/results/{request id}: the invoking application with token:use, or management with reactor:read */
      result: op<ReactorResultMessage, ReactorJobResultView>()({
        subject: SUBJECTS.reactor.reactors.result,
        payload: ReactorResultMessage,
        access: (_body, principal) => (principal.applicationType === 'management' ? ['reactor:read'] : ['token:use']),
        http: {
          method: 'GET',
          path: '/reactors/:id/results/:requestId',
          status: 200,
          summary: 'Result of an asynchronous invocation',
          description:
            'The invoking application with token:use, or a management application with reactor:read. status: pending | running | succeeded | failed for callback_url invocations; pending | completed | failed for react-async.',
          params: [REACTOR_ID, { name: 'requestId', format: 'uuid', description: 'the id of the 202 reply' }],
          reply: { type: ReactorJobResultView },
          // either permission passes the gateway; reactor-service then asks the one of the caller's kind (the row's access)
          access: ['token:use', 'reactor:read'],
        },
      }),
      patch: op<IdBodyMessage, ReactorView>()({
        subject: SUBJECTS.reactor.reactors.patch,
        payload: IdBodyMessage,
        access: ['reactor:update'],
        idempotency: 'transaction',
        http: {
          method: 'PATCH',
          path: '/reactors/:id',
          consumes: ['application/merge-patch+json', 'application/json'],
          status: 200,
          summary: 'Patch a reactor (JSON merge patch)',
          description: 'reactor:update. name, configuration, application; code and runtime of a code reactor.',
          params: [REACTOR_ID],
          body: ReactorMergePatch,
          reply: { type: ReactorView },
          problems: { 415: 'The Content-Type is neither application/merge-patch+json nor application/json' },
        },
      }),
      reactAsync: op<IdBodyMessage, ReactAccepted>()({
        subject: SUBJECTS.reactor.reactors.reactAsync,
        payload: IdBodyMessage,
        access: ['token:use'],
        idempotency: 'transaction',
        http: {
          method: 'POST',
          path: '/reactors/:id/react-async',
          status: 202,
          summary: 'Invoke a reactor asynchronously',
          description: 'token:use. Read the result at GET /reactors/{id}/results/{request id}.',
          params: [REACTOR_ID],
          body: ReactAsyncRequest,
          reply: { type: ReactAsyncAccepted, description: 'accepted: the job is stored' },
        },
      }),
    },
    proxies: {
      create: op<CreateProxyRequest, ProxyView>()({
        subject: SUBJECTS.reactor.proxies.create,
        payload: CreateProxyRequest,
        access: ['proxy:create'],
        idempotency: 'transaction',
        http: {
          method: 'POST',
          path: '/proxies',
          status: 201,
          summary: 'Create a proxy',
          description:
            'proxy:create. The reply carries the generated `key` that invokes it (BT-PROXY-KEY). `configuration` is stored encrypted; tokenize transforms need an `application` with token:create.',
          body: CreateProxyRequest,
          reply: { type: ProxyView },
          problems: { 404: 'The application does not exist' },
        },
      }),
      list: op<ListQueryMessage, Page<ProxyView>>()({
        subject: SUBJECTS.reactor.proxies.list,
        payload: ListQueryMessage,
        access: ['proxy:read'],
        http: {
          method: 'GET',
          path: '/proxies',
          payloadFrom: 'params+query',
          status: 200,
          summary: 'List proxies',
          description: 'proxy:read. Newest first; `id` (repeatable) and `name` (wildcard `*`) filter.',
          query: [
            { name: 'id', required: false, type: [String] },
            { name: 'name', required: false },
          ],
          reply: { type: ProxyPage },
        },
      }),
      get: op<IdMessage, ProxyView>()({
        subject: SUBJECTS.reactor.proxies.get,
        payload: IdMessage,
        access: ['proxy:read'],
        validate: true,
        http: {
          method: 'GET',
          path: '/proxies/:id',
          status: 200,
          summary: 'Get a proxy',
          description: 'proxy:read.',
          params: [PROXY_ID],
          reply: { type: ProxyView },
        },
      }),
      update: op<IdBodyMessage, ProxyView>()({
        subject: SUBJECTS.reactor.proxies.update,
        payload: IdBodyMessage,
        access: ['proxy:update'],
        validate: true,
        idempotency: 'transaction',
        http: {
          method: 'PUT',
          path: '/proxies/:id',
          status: 200,
          summary: 'Update a proxy',
          description: 'proxy:update. Everything but the key is replaced; absent optional members take their defaults.',
          params: [PROXY_ID],
          body: CreateProxyRequest,
          reply: { type: ProxyView },
        },
      }),
      patch: op<IdBodyMessage, ProxyView>()({
        subject: SUBJECTS.reactor.proxies.patch,
        payload: IdBodyMessage,
        access: ['proxy:update'],
        validate: true,
        idempotency: 'transaction',
        http: {
          method: 'PATCH',
          path: '/proxies/:id',
          consumes: ['application/merge-patch+json', 'application/json'],
          status: 204,
          summary: 'Patch a proxy (JSON merge patch)',
          description: 'proxy:update. The merged proxy is validated as a PUT. Answers 204, as the mirrored service does: GET the proxy to read it.',
          params: [PROXY_ID],
          body: { schema: { type: 'object', additionalProperties: true } },
          reply: { description: 'patched' },
          problems: { 415: 'The Content-Type is neither application/merge-patch+json nor application/json' },
        },
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.reactor.proxies.delete,
        payload: IdMessage,
        access: ['proxy:delete'],
        validate: true,
        http: {
          method: 'DELETE',
          path: '/proxies/:id',
          status: 204,
          summary: 'Delete a proxy',
          description: 'proxy:delete. Its key stops working at once.',
          params: [PROXY_ID],
          reply: { description: 'deleted' },
        },
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
        http: {
          method: 'POST',
          path: '/webhooks',
          status: 201,
          summary: 'Create a webhook',
          description:
            'webhook:create. At most five per tenant (a sixth is a 422). The URL obeys the callback egress policy. The reply holds the webhook’s own signing secret (`signing_secret`), shown only here.',
          body: CreateWebhookRequest,
          reply: { type: CreatedWebhookView },
        },
      }),
      list: op<ListQueryMessage, Page<WebhookView>>()({
        subject: SUBJECTS.webhook.webhooks.list,
        payload: ListQueryMessage,
        access: ['webhook:read'],
        http: {
          method: 'GET',
          path: '/webhooks',
          payloadFrom: 'params+query',
          status: 200,
          summary: 'List webhooks',
          description: 'webhook:read. Newest first.',
          reply: { type: WebhookPage },
        },
      }),
      get: op<IdMessage, WebhookView>()({
        subject: SUBJECTS.webhook.webhooks.get,
        payload: IdMessage,
        access: ['webhook:read'],
        validate: true,
        http: {
          method: 'GET',
          path: '/webhooks/:id',
          status: 200,
          summary: 'Get a webhook',
          description: 'webhook:read.',
          params: [WEBHOOK_ID],
          reply: { type: WebhookView },
        },
      }),
      update: op<IdBodyMessage, WebhookView>()({
        subject: SUBJECTS.webhook.webhooks.update,
        payload: IdBodyMessage,
        access: ['webhook:update'],
        validate: true,
        idempotency: 'transaction',
        http: {
          method: 'PUT',
          path: '/webhooks/:id',
          status: 200,
          summary: 'Update a webhook',
          description: 'webhook:update. Name, URL, notify_email and events are replaced; `status: enabled` re-enables a disabled webhook.',
          params: [WEBHOOK_ID],
          body: UpdateWebhookRequest,
          reply: { type: WebhookView },
        },
      }),
      delete: op<IdMessage, Deleted>()({
        subject: SUBJECTS.webhook.webhooks.delete,
        payload: IdMessage,
        access: ['webhook:delete'],
        validate: true,
        http: {
          method: 'DELETE',
          path: '/webhooks/:id',
          status: 204,
          summary: 'Delete a webhook',
          description: 'webhook:delete. Its pending deliveries are dropped.',
          params: [WEBHOOK_ID],
          reply: { description: 'deleted' },
        },
      }),
      deliveries: op<WebhookDeliveriesMessage, Page<WebhookDeliveryView>>()({
        subject: SUBJECTS.webhook.webhooks.deliveries,
        payload: WebhookDeliveriesMessage,
        access: ['webhook:read'],
        validate: true,
        http: {
          method: 'GET',
          path: '/webhooks/:id/deliveries',
          payloadFrom: 'params+query',
          paramsAs: { id: 'webhookId' },
          status: 200,
          summary: "A webhook's deliveries (Coffer extension)",
          description: 'webhook:read. Newest first; `status` filters.',
          params: [WEBHOOK_ID],
          query: [{ name: 'status', required: false, enum: DELIVERY_STATUSES }],
          reply: { type: WebhookDeliveryPage },
        },
      }),
      resend: op<WebhookDeliveryMessage, WebhookDeliveryView>()({
        subject: SUBJECTS.webhook.webhooks.resend,
        payload: WebhookDeliveryMessage,
        access: ['webhook:update'],
        validate: true,
        http: {
          method: 'POST',
          path: '/webhooks/:id/deliveries/:deliveryId/resend',
          paramsAs: { id: 'webhookId' },
          status: 202,
          summary: 'Send a delivery again (Coffer extension)',
          description: 'webhook:update. A failed (or delivered) delivery is queued again with a fresh retry schedule; a pending one is a 409.',
          params: [WEBHOOK_ID, { name: 'deliveryId', format: 'uuid', description: 'the delivery id (its webhook-id header)' }],
          reply: { type: WebhookDeliveryView, description: 'queued again: the delivery, pending with no attempts yet' },
        },
      }),
    },
  },
  proxy: {
    /**
     * /proxy and /proxy/**: the ephemeral proxy (destination given). The mirrored service accepts proxy:invoke or its
     * older name token:use; detokenizing a token also needs the caller's access to it, as POST /detokenize does.
     * No `http`: ten routes (GET, POST, PUT, PATCH, DELETE on /proxy and /proxy/*) reach it through one handler that
     * passes the raw request on; apps/gateway proxy.controller keeps their plain decorators (the same access).
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
  [SUBJECTS.events.tenantSettingsChanged]: TenantSettingsChangedEvent,
} as const;
