import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SUBJECTS, type ApplicationKeyRequest, type CreateApplicationRequest, type IdRequest, type RpcEnvelope } from '@coffer/contracts';
import { ApplicationsService } from './applications.service';
import { ApplicationKeysService } from './application-keys.service';
import { requirePrincipal } from '@coffer/auth';
import { IdempotentWrites } from '@coffer/idempotency';

@Controller()
export class ApplicationsHandler {
  constructor(
    private readonly applications: ApplicationsService,
    private readonly keys: ApplicationKeysService,
    private readonly idempotency: IdempotentWrites,
  ) {}

  @MessagePattern(SUBJECTS.session.applications.create)
  create(@Payload() env: RpcEnvelope<CreateApplicationRequest>) {
    const principal = requirePrincipal(env, 'application:create');
    return this.idempotency.run(SUBJECTS.session.applications.create, env, () => this.applications.create(principal, env.body));
  }

  @MessagePattern(SUBJECTS.session.applications.list)
  list(@Payload() env: RpcEnvelope<Record<string, unknown>>) {
    return this.applications.list(requirePrincipal(env, 'application:read'), env.body ?? {});
  }

  @MessagePattern(SUBJECTS.session.applications.get)
  get(@Payload() env: RpcEnvelope<IdRequest>) {
    return this.applications.get(requirePrincipal(env, 'application:read'), env.body.id);
  }

  @MessagePattern(SUBJECTS.session.applications.update)
  update(@Payload() env: RpcEnvelope<IdRequest & { body: unknown }>) {
    const principal = requirePrincipal(env, 'application:update');
    return this.idempotency.run(SUBJECTS.session.applications.update, env, () => this.applications.update(principal, env.body.id, env.body.body));
  }

  @MessagePattern(SUBJECTS.session.applications.delete)
  async delete(@Payload() env: RpcEnvelope<IdRequest>) {
    await this.applications.delete(requirePrincipal(env, 'application:delete'), env.body.id);
    return { deleted: true };
  }

  @MessagePattern(SUBJECTS.session.applications.principal)
  principal(@Payload() env: RpcEnvelope<IdRequest>) {
    return this.applications.principalOf(requirePrincipal(env).tenantId, env.body.id);
  }

  @MessagePattern(SUBJECTS.session.applications.regenerate)
  regenerate(@Payload() env: RpcEnvelope<IdRequest>) {
    const principal = requirePrincipal(env, 'application:update');
    return this.idempotency.run(SUBJECTS.session.applications.regenerate, env, () => this.applications.regenerate(principal, env.body.id));
  }

  @MessagePattern(SUBJECTS.session.applications.current)
  current(@Payload() env: RpcEnvelope<unknown>) {
    return this.applications.current(requirePrincipal(env));
  }

  @MessagePattern(SUBJECTS.session.applications.keys.create)
  createKey(@Payload() env: RpcEnvelope<ApplicationKeyRequest>) {
    const principal = requirePrincipal(env, 'application:update');
    return this.idempotency.run(SUBJECTS.session.applications.keys.create, env, () => this.keys.create(principal, env.body.applicationId));
  }

  @MessagePattern(SUBJECTS.session.applications.keys.list)
  listKeys(@Payload() env: RpcEnvelope<ApplicationKeyRequest>) {
    return this.keys.list(requirePrincipal(env, 'application:read'), env.body.applicationId);
  }

  @MessagePattern(SUBJECTS.session.applications.keys.get)
  getKey(@Payload() env: RpcEnvelope<ApplicationKeyRequest>) {
    return this.keys.get(requirePrincipal(env, 'application:read'), env.body.applicationId, String(env.body.keyId));
  }

  @MessagePattern(SUBJECTS.session.applications.keys.delete)
  async deleteKey(@Payload() env: RpcEnvelope<ApplicationKeyRequest>) {
    await this.keys.delete(requirePrincipal(env, 'application:update'), env.body.applicationId, String(env.body.keyId));
    return { deleted: true };
  }
}
