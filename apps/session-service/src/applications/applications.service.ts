import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  CreateApplicationRequest,
  FieldErrors,
  SUBJECTS,
  UpdateApplicationRequest,
  notFound,
  offsetPage,
  parsePageRequest,
  validateContract,
  type ApplicationView,
  type Page,
  type Principal,
} from '@coffer/contracts';
import { validateGrants } from '@coffer/auth';
import { generateSecret, sha256Hex } from '@coffer/crypto';
import { EventBus } from '@coffer/messaging';
import { Prisma } from '@coffer/db';
import { ApplicationRepository } from './application.repository';
import { SessionRepository } from '../sessions/session.repository';
import { toApplicationView } from './application.view';

export const API_KEY_PREFIX = 'key';

@Injectable()
export class ApplicationsService {
  constructor(
    private readonly applications: ApplicationRepository,
    private readonly sessions: SessionRepository,
    private readonly events: EventBus,
  ) {}

  async create(principal: Principal, body: unknown): Promise<ApplicationView> {
    const errors = new FieldErrors();
    const req = validateContract(CreateApplicationRequest, body);
    const grants = validateGrants(req.type, req.permissions, req.rules, errors);
    errors.throwIfAny();
    const key = generateSecret(API_KEY_PREFIX);
    const app = await this.applications.create(principal.tenantId, {
      id: randomUUID(),
      name: req.name,
      type: req.type,
      permissions: grants.permissions,
      rules: grants.rules ? (grants.rules as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
      keyHash: sha256Hex(key),
      createdBy: principal.applicationId,
    });
    return toApplicationView(app, key);
  }

  async list(principal: Principal, query: Record<string, unknown>): Promise<Page<ApplicationView>> {
    const errors = new FieldErrors();
    const page = parsePageRequest(query, errors);
    errors.throwIfAny('The query is invalid');
    const { rows, total } = await this.applications.page(principal.tenantId, (page.page - 1) * page.size, page.size);
    return offsetPage(rows.map((r) => toApplicationView(r)), total, page);
  }

  async get(principal: Principal, id: string): Promise<ApplicationView> {
    const app = await this.applications.find(principal.tenantId, id);
    if (!app) throw notFound('application');
    return toApplicationView(app);
  }

  async update(principal: Principal, id: string, body: unknown): Promise<ApplicationView> {
    const existing = await this.applications.find(principal.tenantId, id);
    if (!existing) throw notFound('application');
    const req = validateContract(UpdateApplicationRequest, body);
    const errors = new FieldErrors();
    const grants = validateGrants(existing.type as never, req.permissions, req.rules, errors);
    errors.throwIfAny();
    const app = await this.applications.update(principal.tenantId, id, {
      name: req.name,
      permissions: grants.permissions,
      rules: grants.rules ? (grants.rules as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
      modifiedBy: principal.applicationId,
      modifiedAt: new Date(),
    });
    if (!app) throw notFound('application');
    await this.invalidate(principal.tenantId, id);
    return toApplicationView(app);
  }

  async delete(principal: Principal, id: string): Promise<void> {
    if (!(await this.applications.delete(principal.tenantId, id))) throw notFound('application');
    await this.sessions.deleteByApplication(principal.tenantId, id);
    await this.invalidate(principal.tenantId, id);
  }

  async regenerate(principal: Principal, id: string): Promise<ApplicationView> {
    const key = generateSecret(API_KEY_PREFIX);
    const app = await this.applications.update(principal.tenantId, id, {
      keyHash: sha256Hex(key),
      modifiedBy: principal.applicationId,
      modifiedAt: new Date(),
    });
    if (!app) throw notFound('application');
    await this.sessions.deleteByApplication(principal.tenantId, id);
    await this.invalidate(principal.tenantId, id);
    return toApplicationView(app, key);
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

  /** Drops cached principals of the application, of its sessions and of sessions it authorized. */
  private invalidate(tenantId: string, applicationId: string): Promise<void> {
    return this.events.publish(SUBJECTS.events.authInvalidated, { tenantId, applicationId });
  }
}
