import { Controller } from '@nestjs/common';
import { OPS, type ApplicationKeyRequest, type IdRequest } from '@coffer/contracts';
import { Operation, ResourceHandler, caller, type Command } from '@coffer/operations';
import { ApplicationsService } from './applications.service';
import { ApplicationKeysService } from './application-keys.service';

@Controller()
export class ApplicationsHandler extends ResourceHandler(ApplicationsService, OPS.session.applications) {
  constructor(
    applications: ApplicationsService,
    private readonly keys: ApplicationKeysService,
  ) {
    super(applications);
  }

  /** reactor-service's lookup: an application of the caller's own tenant */
  @Operation(OPS.session.applications.principal)
  principal(cmd: Command<IdRequest>) {
    return this.resource.principalOf(caller().tenantId, cmd.body.id);
  }

  @Operation(OPS.session.applications.regenerate)
  regenerate(cmd: Command<IdRequest>) {
    return this.resource.regenerate(cmd.body.id);
  }

  @Operation(OPS.session.applications.current)
  current() {
    return this.resource.current();
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
