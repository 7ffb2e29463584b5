import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { MAX_KEYS_PER_APPLICATION, ProblemError, SUBJECTS, actorOf, newEvent, notFound, type ApplicationKeyView } from '@coffer/contracts';
import { generateSecret, sha256Hex } from '@coffer/crypto';
import { EventBus } from '@coffer/bus';
import { RecordedWrites, caller, asCaller } from '@coffer/operations';
import { type ApplicationKey } from '@coffer/db';
import { ApplicationRepository } from './application.repository';
import { ApplicationKeyRepository } from './application-key.repository';
import { assertWithinRole } from './role-ceiling';

export const API_KEY_PREFIX = 'key';

export function toApplicationKeyView(k: ApplicationKey, key?: string): ApplicationKeyView {
  const view: ApplicationKeyView = { id: k.id, created_at: k.createdAt.toISOString() };
  if (key) view.key = key;
  if (k.createdBy) view.created_by = k.createdBy;
  return view;
}

/** An application key as events show it (never the key, never its hash). */
export function applicationKeyEventView(k: ApplicationKey) {
  return { id: k.id, application_id: k.applicationId, created_at: k.createdAt.toISOString(), created_by: k.createdBy ?? undefined };
}

/**
 * Several API keys per application (`/applications/{id}/keys`): each authenticates as its application, is shown
 * once and stored as its SHA-256 only; deleting one revokes it at once (gateway principal caches are told).
 */
@Injectable()
export class ApplicationKeysService {
  constructor(
    private readonly applications: ApplicationRepository,
    private readonly keys: ApplicationKeyRepository,
    private readonly events: EventBus,
    private readonly writes: RecordedWrites,
  ) {}

  /** A new key for an application (also the key made with the application itself). */
  async issue(tenantId: string, applicationId: string, createdBy?: string): Promise<ApplicationKeyView> {
    const key = generateSecret(API_KEY_PREFIX);
    const row = await this.keys.create({ id: randomUUID(), tenantId, applicationId, keyHash: sha256Hex(key), createdBy });
    return toApplicationKeyView(row, key);
  }

  async create(applicationId: string): Promise<ApplicationKeyView> {
    const { principal, traceId } = asCaller();
    const app = await this.applications.find(principal.tenantId, applicationId);
    if (!app) throw notFound('application');
    assertWithinRole(principal, app.type, app.permissions);
    const key = generateSecret(API_KEY_PREFIX);
    const row = await this.writes.commit(
      async () => {
        const created = await this.keys.createWithin(MAX_KEYS_PER_APPLICATION, {
          id: randomUUID(),
          tenantId: principal.tenantId,
          applicationId,
          keyHash: sha256Hex(key),
          createdBy: principal.applicationId,
        });
        if (!created) throw new ProblemError(422, `An application holds at most ${MAX_KEYS_PER_APPLICATION} keys: delete one first`);
        return created;
      },
      (created) => ({
        events: [newEvent('application.key.created', principal.tenantId, traceId, actorOf(principal), { application_key: applicationKeyEventView(created) })],
        audit: {
          operation: 'create',
          entityType: 'application_key',
          entityId: created.id,
          changes: { application_id: { new: applicationId }, key: { redacted: true } },
        },
      }),
    );
    return toApplicationKeyView(row, key);
  }

  async list(applicationId: string): Promise<ApplicationKeyView[]> {
    const { tenantId } = caller();
    await this.requireApplication(tenantId, applicationId);
    return (await this.keys.list(tenantId, applicationId)).map((k) => toApplicationKeyView(k));
  }

  async get(applicationId: string, keyId: string): Promise<ApplicationKeyView> {
    const { tenantId } = caller();
    await this.requireApplication(tenantId, applicationId);
    const key = await this.keys.find(tenantId, applicationId, keyId);
    if (!key) throw notFound('application key');
    return toApplicationKeyView(key);
  }

  async delete(applicationId: string, keyId: string): Promise<void> {
    const { principal, traceId } = asCaller();
    await this.requireApplication(principal.tenantId, applicationId);
    await this.writes.commit(
      async () => {
        if (!(await this.keys.delete(principal.tenantId, applicationId, keyId))) throw notFound('application key');
      },
      () => ({
        events: [
          newEvent('application.key.deleted', principal.tenantId, traceId, actorOf(principal), {
            application_key: { id: keyId, application_id: applicationId },
          }),
        ],
        audit: { operation: 'delete', entityType: 'application_key', entityId: keyId, changes: { application_id: { old: applicationId } } },
      }),
    );
    // the gateway drops the application's cached principals: the deleted key is refused from now on (the
    // application's other keys simply authenticate again)
    await this.events.publish(SUBJECTS.events.authInvalidated, { tenantId: principal.tenantId, applicationId });
  }

  /** Regenerate: every key of the application is replaced by one new key (`view`, shown once); `deleted`: the old ones. */
  async replaceAll(
    tenantId: string,
    applicationId: string,
    createdBy?: string,
  ): Promise<{ view: ApplicationKeyView; created: ApplicationKey; deleted: Array<{ id: string }> }> {
    const key = generateSecret(API_KEY_PREFIX);
    const { created, deleted } = await this.keys.replaceAll(tenantId, applicationId, { id: randomUUID(), keyHash: sha256Hex(key), createdBy });
    return { view: toApplicationKeyView(created, key), created, deleted };
  }

  private async requireApplication(tenantId: string, applicationId: string): Promise<void> {
    if (!(await this.applications.find(tenantId, applicationId))) throw notFound('application');
  }
}
