import { Controller } from '@nestjs/common';
import { OPS, type ApplicationKeyRequest, type CreateApplicationRequest, type IdBodyMessage, type IdRequest } from '@coffer/contracts';
import { Operation, caller, type Command } from '@coffer/operations';
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
    return this.applications.create(cmd.body);
  }

  @Operation(OPS.session.applications.list)
  list(cmd: Command<Record<string, unknown> | undefined>) {
    return this.applications.list(cmd.body ?? {});
  }

  @Operation(OPS.session.applications.get)
  get(cmd: Command<IdRequest>) {
    return this.applications.get(cmd.body.id);
  }

  @Operation(OPS.session.applications.update)
  update(cmd: Command<IdBodyMessage>) {
    return this.applications.update(cmd.body.id, cmd.body.body);
  }

  @Operation(OPS.session.applications.delete)
  async delete(cmd: Command<IdRequest>) {
    await this.applications.delete(cmd.body.id);
    return { deleted: true };
  }

  /** reactor-service's lookup: an application of the caller's own tenant */
  @Operation(OPS.session.applications.principal)
  principal(cmd: Command<IdRequest>) {
    return this.applications.principalOf(caller().tenantId, cmd.body.id);
  }

  @Operation(OPS.session.applications.regenerate)
  regenerate(cmd: Command<IdRequest>) {
    return this.applications.regenerate(cmd.body.id);
  }

  @Operation(OPS.session.applications.current)
  current() {
    return this.applications.current();
  }

  @Operation(OPS.session.applications.keys.create)
  createKey(cmd: Command<ApplicationKeyRequest>) {
    return this.keys.create(cmd.body.applicationId);
  }

  @Operation(OPS.session.applications.keys.list)
  listKeys(cmd: Command<ApplicationKeyRequest>) {
    return this.keys.list(cmd.body.applicationId);
  }

  @Operation(OPS.session.applications.keys.get)
  getKey(cmd: Command<ApplicationKeyRequest>) {
    return this.keys.get(cmd.body.applicationId, String(cmd.body.keyId));
  }

  @Operation(OPS.session.applications.keys.delete)
  async deleteKey(cmd: Command<ApplicationKeyRequest>) {
    await this.keys.delete(cmd.body.applicationId, String(cmd.body.keyId));
    return { deleted: true };
  }
}
