/**
 * NATS subjects: `<service>.<resource>.<action>.v<n>`. A breaking change gets a new version next to the old one,
 * so old and new services run side by side during a rollout. Each service subscribes to its own prefix only.
 */
export const SUBJECTS = {
  session: {
    authenticate: 'session.auth.authenticate.v1',
    /** {tenantId} → {active}, 403 when suspended: whether a tenant may act (an anonymous proxy call carries no key) */
    tenantStanding: 'session.auth.tenant-standing.v1',
    applications: {
      create: 'session.applications.create.v1',
      list: 'session.applications.list.v1',
      get: 'session.applications.get.v1',
      update: 'session.applications.update.v1',
      delete: 'session.applications.delete.v1',
      regenerate: 'session.applications.regenerate.v1',
      /** the calling application itself (GET /applications/key): any application key, no permission */
      current: 'session.applications.current.v1',
      keys: {
        create: 'session.applications.keys.create.v1',
        list: 'session.applications.keys.list.v1',
        get: 'session.applications.keys.get.v1',
        delete: 'session.applications.keys.delete.v1',
      },
      /** service-to-service: the application a reactor acts as (no key material) */
      principal: 'session.applications.principal.v1',
    },
    tenants: {
      get: 'session.tenants.get.v1',
      update: 'session.tenants.update.v1',
      webhookSecret: 'session.tenants.webhook-secret.get.v1',
      rotateWebhookSecret: 'session.tenants.webhook-secret.rotate.v1',
    },
    sessions: {
      create: 'session.sessions.create.v1',
      authorize: 'session.sessions.authorize.v1',
    },
    /** tenant members, their owner and invitations (docs/members.md) */
    members: {
      list: 'session.members.list.v1',
      get: 'session.members.get.v1',
      update: 'session.members.update.v1',
      delete: 'session.members.delete.v1',
      owner: 'session.members.owner.get.v1',
      transferOwner: 'session.members.owner.transfer.v1',
    },
    invitations: {
      create: 'session.invitations.create.v1',
      list: 'session.invitations.list.v1',
      get: 'session.invitations.get.v1',
      resend: 'session.invitations.resend.v1',
      delete: 'session.invitations.delete.v1',
      /** gateway only: the tenant and email an invitation link names (the sign-in page shows them) */
      preview: 'session.invitations.preview.v1',
    },
    /** console sign-in, its sessions (in PostgreSQL: any gateway replica serves them) and sign-out */
    console: {
      signIn: 'session.console.sign-in.v1',
      authenticate: 'session.console.authenticate.v1',
      signOut: 'session.console.sign-out.v1',
    },
    /** gateway only: permits of a rate limit shared by every gateway replica (rate_limit_windows) */
    rateLimits: {
      lease: 'session.rate-limits.lease.v1',
    },
  },
  token: {
    tokens: {
      create: 'token.tokens.create.v1',
      get: 'token.tokens.get.v1',
      list: 'token.tokens.list.v1',
      update: 'token.tokens.update.v1',
      delete: 'token.tokens.delete.v1',
      search: 'token.tokens.search.v1',
      /** GET /v2/tokens and POST /v2/tokens/search: cursor pages only (`{data, pagination: {page_size, next?}}`) */
      listV2: 'token.tokens.list.v2',
      searchV2: 'token.tokens.search.v2',
      tokenize: 'token.tokens.tokenize.v1',
      detokenize: 'token.tokens.detokenize.v1',
      /** service-to-service: load tokens for detokenization with per-token access decisions */
    },
    /** POST /token-intents, GET and DELETE /token-intents/{id} (docs/token-intents.md) */
    intents: { create: 'token.intents.create.v1', get: 'token.intents.get.v1', delete: 'token.intents.delete.v1' },
    logs: { list: 'token.logs.list.v1' },
    /** GET /tenants/self/keys: the tenant's data key versions and a running re-encryption job's progress (no key material) */
    keys: { status: 'token.keys.status.v1' },
    /** proxy-service's audit events (it has no database; token-service writes them): {events: AuditEventMessage[]} */
    /** refusals: the gateway's refused authentications, counted per (tenant or global, reason, source, minute) */
    audit: { record: 'token.audit.record.v1', refusals: 'token.audit.refusals.v1' },
  },
  reactor: {
    formulas: {
      create: 'reactor.formulas.create.v1',
      list: 'reactor.formulas.list.v1',
      get: 'reactor.formulas.get.v1',
      update: 'reactor.formulas.update.v1',
      delete: 'reactor.formulas.delete.v1',
    },
    reactors: {
      create: 'reactor.reactors.create.v1',
      list: 'reactor.reactors.list.v1',
      get: 'reactor.reactors.get.v1',
      update: 'reactor.reactors.update.v1',
      delete: 'reactor.reactors.delete.v1',
      react: 'reactor.reactors.react.v1',
      result: 'reactor.reactors.result.v1',
      /** PATCH /reactors/{id}: {id, body} with body an RFC 7386 merge patch */
      patch: 'reactor.reactors.patch.v1',
      /** POST /reactors/{id}/react-async: {id, body}; answers {id, status: "pending"} */
      reactAsync: 'reactor.reactors.react-async.v1',
    },
    /** pre-configured proxies (/proxies), owned by reactor-service: it holds their secrets and runs their transforms */
    proxies: {
      create: 'reactor.proxies.create.v1',
      list: 'reactor.proxies.list.v1',
      get: 'reactor.proxies.get.v1',
      update: 'reactor.proxies.update.v1',
      patch: 'reactor.proxies.patch.v1',
      delete: 'reactor.proxies.delete.v1',
      /** a proxy by its key, for an invocation (the gateway for anonymous calls, proxy-service): ResolvedProxy */
      resolve: 'reactor.proxies.resolve.v1',
      /** one direction's transforms run on a proxied message (proxy-service) */
      transform: 'reactor.proxies.transform.v1',
      /** a proxy request's idempotency key, kept in reactor-service's ledger for proxy-service (which stores nothing) */
      idempotency: 'reactor.proxies.idempotency.v1',
    },
  },
  webhook: {
    wake: 'webhook.deliveries.wake.v1',
    /** the webhooks API (event subscriptions), owned by webhook-dispatcher */
    webhooks: {
      create: 'webhook.webhooks.create.v1',
      list: 'webhook.webhooks.list.v1',
      get: 'webhook.webhooks.get.v1',
      update: 'webhook.webhooks.update.v1',
      delete: 'webhook.webhooks.delete.v1',
      /** Coffer extensions: a webhook's deliveries, and sending a failed one again */
      deliveries: 'webhook.webhooks.deliveries.list.v1',
      resend: 'webhook.webhooks.deliveries.resend.v1',
    },
  },
  proxy: {
    /** one request through the proxy (/proxy, /proxy/**): ProxyInvocationMessage → ProxyReply */
    invoke: 'proxy.requests.invoke.v1',
  },
  events: {
    /** {applicationId?, sessionId?, tenantId}: drop cached principals at once */
    authInvalidated: 'events.auth.invalidated.v1',
    /** {tenantId, proxyId}: a pre-configured proxy changed or was deleted: drop what is cached of it */
    proxyChanged: 'events.proxies.changed.v1',
    /** {tenantId}: a tenant's settings changed: drop what is cached of them (TenantSettingsClient, the frame policy) */
    tenantSettingsChanged: 'events.tenants.settings-changed.v1',
  },
  /** every service answers this for readiness of the bus path (`<prefix>.health.ping.v1`) */
  ping: (service: 'token' | 'session' | 'reactor' | 'webhook' | 'proxy') => `${service}.health.ping.v1`,
} as const;
