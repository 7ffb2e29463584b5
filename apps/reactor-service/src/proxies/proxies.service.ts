import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  applyMergePatch,
  CreateProxyRequest,
  FieldErrors,
  badRequest,
  isUuid,
  normalizeProxyTransforms,
  notFound,
  parseListWindow,
  validateContract,
  type Page,
  type ProxyView,
  type ResolvedProxy,
  SUBJECTS,
} from '@coffer/contracts';
import { mayEver } from '@coffer/auth';
import { redactedUrl } from '@coffer/egress';
import { sha256Hex } from '@coffer/crypto';
import { Prisma, changedFields } from '@coffer/db';
import { EventBus } from '@coffer/bus';
import { RecordedWrites, callerIfAny, caller, asCaller, type CallerContext } from '@coffer/operations';
import { many, namePattern } from '../shared/list-query';
import { ApplicationDirectory } from '../reactors/application-directory';
import { ProxyRepository, type ProxyListFilter, type ProxyRow } from './proxy.repository';
import { ProxyVault, type ProxySecrets } from './proxy-vault';
import { toProxyView } from './proxy.view';
import { proxyDeleted, proxyEvent } from './proxy-events';

/** What PUT (and a merged PATCH) stores besides the sealed secrets. */
interface ProxyFields {
  name: string;
  destinationUrl: string;
  requestTransforms: Prisma.InputJsonValue;
  responseTransforms: Prisma.InputJsonValue;
  applicationId: string | null;
  requireAuth: boolean;
  disableDetokenization: boolean;
}

/** Pre-configured proxies: their writes, each with its event and audit record in one transaction. */
@Injectable()
export class ProxiesService {
  constructor(
    private readonly proxies: ProxyRepository,
    private readonly vault: ProxyVault,
    private readonly applications: ApplicationDirectory,
    private readonly writes: RecordedWrites,
    private readonly bus: EventBus,
  ) {}

  /** Who caches a proxy by its key (proxy-service) drops it at once; published when the write commits. */
  private changed(tenantId: string, proxyId: string): Promise<void> {
    return this.bus.publish(SUBJECTS.events.proxyChanged, { tenantId, proxyId });
  }

  /** A proxy of the caller's tenant, created as the operation's caller. */
  async create(body: unknown): Promise<ProxyView> {
    const ctx = asCaller();
    const tenantId = ctx.principal.tenantId;
    const { fields, configuration } = await this.validated(ctx, body);
    const id = randomUUID();
    // 128 random bits: the key alone lets anyone call a proxy that does not require auth
    const key = randomBytes(16).toString('hex');
    const secrets: ProxySecrets = { key, configuration };
    const sealed = await this.vault.seal(tenantId, id, secrets);
    const row = await this.writes.commit(
      () =>
        this.proxies.create(tenantId, {
          id,
          ...fields,
          keyHash: sha256Hex(key),
          secretsCiphertext: sealed.ciphertext,
          secretsKeyId: sealed.keyId,
          createdBy: ctx.principal.applicationId,
        }),
      (r) => ({
        events: [proxyEvent('proxy.created', ctx.principal, ctx.traceId, r)],
        audit: { operation: 'create', entityType: 'proxy', entityId: r.id, changes: proxyChanges(null, r) },
      }),
    );
    return toProxyView(row, secrets);
  }

  async list(query: Record<string, unknown>): Promise<Page<ProxyView>> {
    const { tenantId } = caller();
    const window = parseListWindow(query, isUuid);
    const filter: ProxyListFilter = { name: namePattern(query) };
    const ids = many(query['id']);
    if (ids.length) filter.ids = ids.filter(isUuid);
    return this.proxies.list.pageOf(tenantId, filter, window, (rows) => this.views(rows));
  }

  get(id: string): Promise<ProxyView> {
    return this.view(caller().tenantId, id);
  }

  private async view(tenantId: string, id: string): Promise<ProxyView> {
    const row = await this.find(tenantId, id);
    return toProxyView(row, await this.secretsOf(row));
  }

  /** PUT: everything but the key is replaced (absent optional members: their defaults). */
  update(id: string, body: unknown): Promise<ProxyView> {
    return this.replace(asCaller(), id, body);
  }

  /** PUT's checks and write (PATCH's too, once merged), as `ctx`'s caller. */
  private async replace(ctx: CallerContext, id: string, body: unknown): Promise<ProxyView> {
    const tenantId = ctx.principal.tenantId;
    const before = await this.find(tenantId, id);
    const { fields, configuration } = await this.validated(ctx, body);
    const secrets: ProxySecrets = { key: (await this.secretsOf(before)).key, configuration };
    const sealed = await this.vault.seal(tenantId, id, secrets);
    const row = await this.writes.commit(
      async () => {
        const updated = await this.proxies.update(tenantId, id, {
          ...fields,
          secretsCiphertext: sealed.ciphertext,
          secretsKeyId: sealed.keyId,
          modifiedBy: ctx.principal.applicationId,
          modifiedAt: new Date(),
        });
        if (!updated) throw notFound('proxy');
        await this.changed(tenantId, id);
        return updated;
      },
      (r) => ({
        events: [proxyEvent('proxy.updated', ctx.principal, ctx.traceId, r)],
        audit: { operation: 'update', entityType: 'proxy', entityId: id, changes: { ...(proxyChanges(before, r) ?? {}), configuration: { redacted: true } } },
      }),
    );
    return toProxyView(row, secrets);
  }

  /** PATCH: an RFC 7386 merge patch of the proxy as PUT takes it, validated as a PUT once merged. */
  async patch(id: string, body: unknown): Promise<ProxyView> {
    const ctx = asCaller();
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The request body must be a JSON object');
    const spelled = new FieldErrors();
    const patch = CreateProxyRequest.normalize(body as Record<string, unknown>, spelled);
    spelled.throwIfAny();
    const current = await this.view(ctx.principal.tenantId, id);
    const merged = applyMergePatch(
      structuredClone({
        name: current.name,
        destination_url: current.destination_url,
        request_transforms: current.request_transforms,
        response_transforms: current.response_transforms,
        ...(current.application_id ? { application: { id: current.application_id } } : {}),
        configuration: current.configuration,
        require_auth: current.require_auth,
        disable_detokenization: current.disable_detokenization,
      }),
      patch,
    );
    return this.replace(ctx, id, merged);
  }

  async delete(id: string): Promise<void> {
    const { principal, traceId } = asCaller();
    if (!isUuid(id)) throw notFound('proxy');
    await this.writes.commit(
      async () => {
        if (!(await this.proxies.delete(principal.tenantId, id))) throw notFound('proxy');
        await this.changed(principal.tenantId, id);
      },
      () => ({ events: [proxyDeleted(principal, traceId, id)], audit: { operation: 'delete', entityType: 'proxy', entityId: id } }),
    );
  }

  /**
   * A proxy by its key, for an invocation. The operation is open to anyone (the gateway asks before authenticating
   * an anonymous call), so its caller is optional: with one (an authenticated caller, or proxy-service forwarding
   * one) only a proxy of its tenant is found: another tenant's key is as unknown as a wrong one.
   */
  async resolve(keyHash: string): Promise<ResolvedProxy | null> {
    // open to anyone (the anonymous inbound proxy has no caller); an authenticated caller finds only its tenant's proxy
    const callerTenant = callerIfAny()?.tenantId;
    const row = await this.proxies.byKeyHash(keyHash);
    if (!row || (callerTenant !== undefined && callerTenant !== row.tenantId)) return null;
    return {
      id: row.id,
      tenantId: row.tenantId,
      destinationUrl: row.destinationUrl,
      requireAuth: row.requireAuth,
      disableDetokenization: row.disableDetokenization,
      requestTransforms: (row.requestTransforms as unknown[]).length,
      responseTransforms: (row.responseTransforms as unknown[]).length,
    };
  }

  async find(tenantId: string, id: string): Promise<ProxyRow> {
    const row = isUuid(id) ? await this.proxies.find(tenantId, id) : null;
    if (!row) throw notFound('proxy');
    return row;
  }

  secretsOf(row: ProxyRow): Promise<ProxySecrets> {
    return this.vault.open(row.tenantId, row.id, row.secretsKeyId, row.secretsCiphertext);
  }

  private async views(rows: ProxyRow[]): Promise<ProxyView[]> {
    return Promise.all(rows.map(async (r) => toProxyView(r, await this.secretsOf(r))));
  }

  /**
   * The body as PUT and POST take it. The application must be public or private and of the tenant; tokenize
   * transforms create tokens as it, so it must hold token:create.
   */
  private async validated(ctx: CallerContext, body: unknown): Promise<{ fields: ProxyFields; configuration: Record<string, string | null> }> {
    const req = validateContract(CreateProxyRequest, body);
    const request = normalizeProxyTransforms(req.request_transforms);
    const response = normalizeProxyTransforms(req.response_transforms);
    const applicationId = req.application?.id ?? null;
    const errors = new FieldErrors();
    const tokenizes = [...request, ...response].some((t) => t.type === 'tokenize');
    if (applicationId) {
      const app = await this.applications.principalOf(ctx, applicationId);
      if (app.applicationType !== 'public' && app.applicationType !== 'private') errors.add('application.id', 'must be a public or private application');
      else if (tokenizes && !mayEver(app, 'token:create')) errors.add('application.id', 'must hold token:create: tokenize transforms create tokens as it');
    } else if (tokenizes) errors.add('application', 'is required by tokenize transforms: they create tokens as this application');
    errors.throwIfAny();
    return {
      fields: {
        name: req.name,
        destinationUrl: req.destination_url.trim(),
        requestTransforms: request as unknown as Prisma.InputJsonValue,
        responseTransforms: response as unknown as Prisma.InputJsonValue,
        applicationId,
        requireAuth: req.require_auth ?? true,
        disableDetokenization: req.disable_detokenization ?? false,
      },
      configuration: (req.configuration ?? {}) as Record<string, string | null>,
    };
  }
}

/** Name, destination, application, flags and transforms (code as changed only); never the key or configuration. */
function proxyChanges(before: ProxyRow | null, after: ProxyRow) {
  const view = (r: ProxyRow | null) =>
    r && {
      name: r.name,
      // its query often carries a credential (libs/egress redactedUrl)
      destination_url: redactedUrl(r.destinationUrl),
      application_id: r.applicationId,
      require_auth: r.requireAuth,
      disable_detokenization: r.disableDetokenization,
      request_transforms: r.requestTransforms,
      response_transforms: r.responseTransforms,
    };
  const fields = ['name', 'destination_url', 'application_id', 'require_auth', 'disable_detokenization', 'request_transforms', 'response_transforms'];
  // transforms may carry code and literal header values: recorded as changed, never shown
  return changedFields(view(before), view(after), fields, ['request_transforms', 'response_transforms']);
}
