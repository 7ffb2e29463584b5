import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SUBJECTS, type RpcEnvelope } from '@coffer/contracts';
import { SessionsService } from './sessions.service';
import { requirePrincipal } from '@coffer/auth';
import { IdempotentWrites } from '@coffer/idempotency';

@Controller()
export class SessionsHandler {
  constructor(
    private readonly sessions: SessionsService,
    private readonly idempotency: IdempotentWrites,
  ) {}

  @MessagePattern(SUBJECTS.session.sessions.create)
  create(@Payload() env: RpcEnvelope<unknown>) {
    const principal = requirePrincipal(env);
    return this.idempotency.run(SUBJECTS.session.sessions.create, env, () => this.sessions.create(principal));
  }

  @MessagePattern(SUBJECTS.session.sessions.authorize)
  async authorize(@Payload() env: RpcEnvelope<unknown>) {
    const principal = requirePrincipal(env);
    return this.idempotency.run(SUBJECTS.session.sessions.authorize, env, async () => {
      await this.sessions.authorize(principal, env.body);
      return {};
    });
  }
}
