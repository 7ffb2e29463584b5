import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SUBJECTS, type AuthenticateRequest, type RpcEnvelope } from '@coffer/contracts';
import { AuthenticateService } from './authenticate.service';

@Controller()
export class AuthenticateHandler {
  constructor(private readonly auth: AuthenticateService) {}

  @MessagePattern(SUBJECTS.session.authenticate)
  authenticate(@Payload() env: RpcEnvelope<AuthenticateRequest>) {
    return this.auth.authenticate(env.body?.keyHash);
  }

  @MessagePattern(SUBJECTS.ping('session'))
  ping() {
    return { ok: true };
  }
}
