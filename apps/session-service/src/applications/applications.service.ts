import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  APPLICATION_TYPES,
  CreateApplicationRequest,
  FieldErrors,
  MAX_LIST_FILTER_VALUES,
  ProblemError,
  SUBJECTS,
  UpdateApplicationRequest,
  isUuid,
  notFound,
  offsetList,
  validateContract,
  actorOf,
  newEvent,
  type ApplicationView,
  type Page,
  type Principal,
} from '@coffer/contracts';
import { validateGrants } from '@coffer/auth';
import { generateSecret, sha256Hex } from '@coffer/crypto';
import { EventBus } from '@coffer/bus';
import { RecordedWrites, caller, asCaller } from '@coffer/operations';
import { Prisma, changedFields } from '@coffer/db';
import { ApplicationRepository, type ApplicationFilter } from './application.repository';
import { SessionRepository } from '../sessions/session.repository';
import { toApplicationView } from './application.view';
import { API_KEY_PREFIX, ApplicationKeysService, applicationKeyEventView, toApplicationKeyView } from './application-keys.service';
import { assertWithinRole } from './role-ceiling';

@Injectable()
export class ApplicationsService {
  constructor(
    private readonly applications: ApplicationRepository,
    private readonly sessions: SessionRepository,
    private readonly keys: ApplicationKeysService,
    private readonly events: EventBus,
    private readonly writes: RecordedWrites,
  ) {}

  /** `req` was validated against the contract at the edge (the gateway's pipe); the grants are this service's check. */
  async create(req: CreateApplicationRequest): Promise<ApplicationView> {
    const { principal, traceId } = asCaller();
    const errors = new FieldErrors();
    const grants = validateGrants(req.type, req.permissions, req.rules, errors);
    errors.throwIfAny();
    assertWithinRole(principal, req.type, grants.permissions);
    // create_key: false makes an application without a key (keys come from POST /applications/{id}/keys)
    const key = req.create_key === false ? undefined : generateSecret(API_KEY_PREFIX);
    // the application and its application.created event commit together (docs/events.md)
    const actor = actorOf(principal);
    const app = await this.writes.commit(
      () =>
        this.applications.create(
          principal.tenantId,
          {
            id: randomUUID(),
            name: req.name,
            type: req.type,
            permissions: grants.permissions,
            rules: grants.rules ? (grants.rules as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
            createdBy: principal.applicationId,
          },
          key ? { id: randomUUID(), keyHash: sha256Hex(key) } : undefined,
        ),
      (created) => ({
        events: [
          newEvent('application.created', principal.tenantId, traceId, actor, { application: toApplicationView(created) }),
          ...created.keys.map((k) => newEvent('application.key.created', principal.tenantId, traceId, actor, { application_key: applicationKeyEventView(k) })),
        ],
        audit: { operation: 'create', entityType: 'application', entityId: created.id, changes: applicationChanges(null, created, !!key) },
      }),
    );
    const view = toApplicationView(app, key);
    if (key) view.keys = app.keys.map((k) => toApplicationKeyView(k, key));
    return view;
  }

  async list(query: Record<string, unknown>): Promise<Page<ApplicationView>> {
    const { tenantId } = caller();
    return offsetList(
      query,
      listFilter,
      (offset, size, filter) => this.applications.page(tenantId, offset, size, filter),
      // not `toApplicationView` itself: map would pass the row's index as its second parameter, the key to show
      (row) => toApplicationView(row),
    );
  }

  async get(id: string): Promise<ApplicationView> {
    return this.view(caller().tenantId, id);
  }

  async update(id: string, body: unknown): Promise<ApplicationView> {
    const { principal, traceId } = asCaller();
    const existing = await this.applications.find(principal.tenantId, id);
    if (!existing) throw notFound('application');
    const req = validateContract(UpdateApplicationRequest, body);
    const errors = new FieldErrors();
    const grants = validateGrants(existing.type as never, req.permissions, req.rules, errors);
    errors.throwIfAny();
    assertWithinRole(principal, existing.type, grants.permissions);
    const app = await this.writes.commit(
      async () => {
        const updated = await this.applications.update(principal.tenantId, id, {
          name: req.name,
          permissions: grants.permissions,
          rules: grants.rules ? (grants.rules as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
          modifiedBy: principal.applicationId,
          modifiedAt: new Date(),
        });
        if (!updated) throw notFound('application');
        return updated;
      },
      (updated) => ({
        events: [newEvent('application.updated', principal.tenantId, traceId, actorOf(principal), { application: toApplicationView(updated) })],
        audit: { operation: 'update', entityType: 'application', entityId: id, changes: applicationChanges(existing, updated, false) },
      }),
    );
    await this.invalidate(principal.tenantId, id);
    return toApplicationView(app);
  }

  async delete(id: string): Promise<void> {
    const { principal, traceId } = asCaller();
    await this.writes.commit(
      async () => {
        if (!(await this.applications.delete(principal.tenantId, id))) throw notFound('application');
      },
      () => ({
        events: [newEvent('application.deleted', principal.tenantId, traceId, actorOf(principal), { application: { id } })],
        audit: { operation: 'delete', entityType: 'application', entityId: id },
      }),
    );
    await this.sessions.deleteByApplication(principal.tenantId, id);
    await this.invalidate(principal.tenantId, id);
  }

  /** Every key of the application is replaced by one new key (the old ones stop at once), its sessions end. */
  async regenerate(id: string): Promise<ApplicationView> {
    const { principal, traceId } = asCaller();
    const existing = await this.applications.find(principal.tenantId, id);
    if (!existing) throw notFound('application');
    assertWithinRole(principal, existing.type, existing.permissions);
    // the new key, the old keys' and sessions' end and the audit record commit together: never a key nobody recorded
    const { app, key } = await this.writes.commit(
      async () => {
        const app = await this.applications.update(principal.tenantId, id, { modifiedBy: principal.applicationId, modifiedAt: new Date() });
        if (!app) throw notFound('application');
        const key = await this.keys.replaceAll(principal.tenantId, id, principal.applicationId);
        await this.sessions.deleteByApplication(principal.tenantId, id);
        return { app, key };
      },
      ({ key }) => {
        const actor = actorOf(principal);
        return {
          // announced like any other key's end and creation (docs/events.md): a SIEM sees every key that appears
          events: [
            ...key.deleted.map((k) =>
              newEvent('application.key.deleted', principal.tenantId, traceId, actor, { application_key: { id: k.id, application_id: id } }),
            ),
            newEvent('application.key.created', principal.tenantId, traceId, actor, { application_key: applicationKeyEventView(key.created) }),
          ],
          audit: { operation: 'regenerate', entityType: 'application', entityId: id, changes: { key: { redacted: true } } },
        };
      },
    );
    await this.invalidate(principal.tenantId, id);
    const view = toApplicationView(app, key.view.key);
    view.keys = [key.view];
    return view;
  }

  /** GET /applications/key: the application whose key made the call. A session key is not an application key. */
  async current(): Promise<ApplicationView> {
    const principal = caller();
    if (principal.sessionId) throw new ProblemError(403, 'A session key does not identify an application: use an application key');
    return this.view(principal.tenantId, principal.applicationId);
  }

  /** Service-to-service: the principal a reactor acts as (its application, same tenant). No key material. */
  async principalOf(tenantId: string, id: string): Promise<Principal> {
    const app = await this.applications.find(tenantId, id);
    if (!app) throw notFound('application');
    const principal: Principal = {
      tenantId: app.tenantId,
      applicationId: app.id,
      applicationType: app.type as Principal['applicationType'],
      permissions: app.permissions,
    };
    if (app.rules) principal.rules = app.rules as unknown as Principal['rules'];
    return principal;
  }

  /** The tenant's application `id` as the API shows it (404 when the tenant has none such). */
  private async view(tenantId: string, id: string): Promise<ApplicationView> {
    const app = await this.applications.find(tenantId, id);
    if (!app) throw notFound('application');
    return toApplicationView(app);
  }

  /** Drops cached principals of the application, of its sessions and of sessions it authorized. */
  private invalidate(tenantId: string, applicationId: string): Promise<void> {
    return this.events.publish(SUBJECTS.events.authInvalidated, { tenantId, applicationId });
  }
}

/** What an application write changed: name, type, permissions and rules old and new; a key only as "changed". */
function applicationChanges(before: { name: string; type: string; permissions: string[]; rules: unknown } | null, after: typeof before, keyIssued: boolean) {
  const changes = changedFields(before, after, ['name', 'type', 'permissions', 'rules']) ?? {};
  if (keyIssued) changes['key'] = { redacted: true };
  return Object.keys(changes).length ? changes : undefined;
}

/** `id` (repeatable, UUIDs; others cannot exist and match nothing) and `type` (repeatable, an application type). */
function listFilter(query: Record<string, unknown>, errors: FieldErrors): ApplicationFilter {
  const many = (k: string): string[] | undefined => {
    const v = query[k];
    if (v === undefined) return undefined;
    const values = (Array.isArray(v) ? v : [v]).map(String);
    if (values.length > MAX_LIST_FILTER_VALUES) errors.add(k, `must be given at most ${MAX_LIST_FILTER_VALUES} times`);
    return values;
  };
  const filter: ApplicationFilter = {};
  const ids = many('id');
  if (ids) filter.ids = ids.filter((id) => isUuid(id));
  const types = many('type');
  if (types) {
    const bad = types.filter((t) => !(APPLICATION_TYPES as readonly string[]).includes(t));
    if (bad.length) errors.add('type', `must be one of ${APPLICATION_TYPES.join(', ')}`);
    filter.types = types;
  }
  return filter;
}
