import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SUBJECTS, type RpcEnvelope } from '@coffer/contracts';
import { SessionsService } from './sessions.service';
import { requirePrincipal } from '../principal';

@Controller()
export class SessionsHandler {
  constructor(private readonly sessions: SessionsService) {}

  @MessagePattern(SUBJECTS.session.sessions.create)
  create(@Payload() env: RpcEnvelope<unknown>) {
    return this.sessions.create(requirePrincipal(env));
  }

  @MessagePattern(SUBJECTS.session.sessions.authorize)
  async authorize(@Payload() env: RpcEnvelope<unknown>) {
    await this.sessions.authorize(requirePrincipal(env), env.body);
    return {};
  }
}
