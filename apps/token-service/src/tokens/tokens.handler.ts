import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ProblemError, SUBJECTS, type ListTokensRequest, type RpcEnvelope, type TokenIdRequest, type UpdateTokenRequest, type Principal } from '@coffer/contracts';
import { mayEver } from '@coffer/auth';
import { CreateTokenUseCase } from './create/create-token.use-case';
import { ReadTokensUseCase } from './read/read-tokens.use-case';
import { UpdateTokenUseCase } from './update/update-token.use-case';
import { DeleteTokenUseCase } from './delete-token.use-case';

function principalOf(env: RpcEnvelope<unknown>, permission: string): Principal {
  const p = env.principal;
  if (!p?.tenantId) throw new ProblemError(401, 'A valid API key is required');
  if (!mayEver(p, permission)) throw new ProblemError(403, 'The API key does not grant access to this operation');
  return p;
}

@Controller()
export class TokensHandler {
  constructor(
    private readonly create: CreateTokenUseCase,
    private readonly read: ReadTokensUseCase,
    private readonly update: UpdateTokenUseCase,
    private readonly remove: DeleteTokenUseCase,
  ) {}

  @MessagePattern(SUBJECTS.token.tokens.create)
  onCreate(@Payload() env: RpcEnvelope<unknown>) {
    return this.create.execute({ principal: principalOf(env, 'token:create'), traceId: env.traceId, body: env.body });
  }

  @MessagePattern(SUBJECTS.token.tokens.get)
  onGet(@Payload() env: RpcEnvelope<TokenIdRequest>) {
    return this.read.get(principalOf(env, 'token:read'), env.traceId, env.body?.id);
  }

  @MessagePattern(SUBJECTS.token.tokens.list)
  onList(@Payload() env: RpcEnvelope<ListTokensRequest>) {
    return this.read.list(principalOf(env, 'token:read'), env.traceId, env.body?.query ?? {});
  }

  @MessagePattern(SUBJECTS.token.tokens.update)
  onUpdate(@Payload() env: RpcEnvelope<UpdateTokenRequest>) {
    return this.update.execute({ principal: principalOf(env, 'token:update'), traceId: env.traceId, id: env.body?.id, patch: env.body?.patch });
  }

  @MessagePattern(SUBJECTS.token.tokens.delete)
  async onDelete(@Payload() env: RpcEnvelope<TokenIdRequest>) {
    await this.remove.execute(principalOf(env, 'token:delete'), env.traceId, env.body?.id);
    return { deleted: true };
  }

  @MessagePattern(SUBJECTS.ping('token'))
  ping() {
    return { ok: true };
  }
}
