import { Controller } from '@nestjs/common';
import { OPS, type ApplicationKeyRequest, type CreateApplicationRequest, type IdBodyMessage, type IdRequest } from '@coffer/contracts';
import { Operation, type Command } from '@coffer/operations';
import { ApplicationsService } from './applications.service';
import { ApplicationKeysService } from './application-keys.service';

@Controller()
export class ApplicationsHandler {
  constructor(
    private readonly applications: ApplicationsService,
    private readonly keys: ApplicationKeysService,
  ) {}

  @Operation(OPS.session.applications.create)
  create(cmd: Command<CreateApplicationRequest>) {
    return this.applications.create(cmd.principal, cmd.body, cmd.traceId);
  }

  @Operation(OPS.session.applications.list)
  list(cmd: Command<Record<string, unknown> | undefined>) {
    return this.applications.list(cmd.principal, cmd.body ?? {});
  }

  @Operation(OPS.session.applications.get)
  get(cmd: Command<IdRequest>) {
    return this.applications.get(cmd.principal, cmd.body.id);
  }

  @Operation(OPS.session.applications.update)
  update(cmd: Command<IdBodyMessage>) {
    return this.applications.update(cmd.principal, cmd.body.id, cmd.body.body, cmd.traceId);
  }

  @Operation(OPS.session.applications.delete)
  async delete(cmd: Command<IdRequest>) {
    await this.applications.delete(cmd.principal, cmd.body.id, cmd.traceId);
    return { deleted: true };
  }

  @Operation(OPS.session.applications.principal)
  principal(cmd: Command<IdRequest>) {
    return this.applications.principalOf(cmd.principal.tenantId, cmd.body.id);
  }

  @Operation(OPS.session.applications.regenerate)
  regenerate(cmd: Command<IdRequest>) {
    return this.applications.regenerate(cmd.principal, cmd.body.id);
  }

  @Operation(OPS.session.applications.current)
  current(cmd: Command) {
    return this.applications.current(cmd.principal);
  }

  @Operation(OPS.session.applications.keys.create)
  createKey(cmd: Command<ApplicationKeyRequest>) {
    return this.keys.create(cmd.principal, cmd.body.applicationId, cmd.traceId);
  }

  @Operation(OPS.session.applications.keys.list)
  listKeys(cmd: Command<ApplicationKeyRequest>) {
    return this.keys.list(cmd.principal, cmd.body.applicationId);
  }

  @Operation(OPS.session.applications.keys.get)
  getKey(cmd: Command<ApplicationKeyRequest>) {
    return this.keys.get(cmd.principal, cmd.body.applicationId, String(cmd.body.keyId));
  }

  @Operation(OPS.session.applications.keys.delete)
  async deleteKey(cmd: Command<ApplicationKeyRequest>) {
    await this.keys.delete(cmd.principal, cmd.body.applicationId, String(cmd.body.keyId), cmd.traceId);
    return { deleted: true };
  }
}
