import { Controller } from '@nestjs/common';
import { OPS, type AuthenticateRequest, type TenantStandingMessage } from '@coffer/contracts';
import { Operation, type Command } from '@coffer/operations';
import { AuthenticateService } from './authenticate.service';

@Controller()
export class AuthenticateHandler {
  constructor(private readonly auth: AuthenticateService) {}

  @Operation(OPS.session.authenticate)
  authenticate(cmd: Command<AuthenticateRequest>) {
    return this.auth.authenticate(cmd.body.keyHash);
  }

  @Operation(OPS.session.tenantStanding)
  standing(cmd: Command<TenantStandingMessage>) {
    return this.auth.standing(cmd.body.tenantId);
  }

  @Operation(OPS.ping.session)
  ping() {
    return { ok: true };
  }
}
