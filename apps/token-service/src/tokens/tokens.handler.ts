import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ProblemError, SUBJECTS, type ListTokensRequest, type RpcEnvelope, type TokenIdRequest, type UpdateTokenRequest, type Principal } from '@coffer/contracts';
import { mayEver } from '@coffer/auth';
import { CreateTokenUseCase } from './create/create-token.use-case';
import { ReadTokensUseCase } from './read/read-tokens.use-case';
import { UpdateTokenUseCase } from './update/update-token.use-case';
import { DeleteTokenUseCase } from './delete-token.use-case';
import { TokenizeUseCase } from './tokenize/tokenize.use-case';
import { DetokenizeUseCase } from './detokenize/detokenize.use-case';
import { SearchTokensUseCase } from './search/search-tokens.use-case';
import { ListLogsUseCase } from '../audit/logs.use-case';
import { AuditRepository, type AuditEventInput } from '../audit/audit.repository';

/** Defence in depth: the service re-checks what the gateway checked (any one of `permissions`). */
function principalOf(env: RpcEnvelope<unknown>, ...permissions: string[]): Principal {
  const p = env.principal;
  if (!p?.tenantId) throw new ProblemError(401, 'A valid API key is required');
  if (!permissions.some((perm) => mayEver(p, perm))) throw new ProblemError(403, 'The API key does not grant access to this operation');
  return p;
}

@Controller()
export class TokensHandler {
  constructor(
    private readonly create: CreateTokenUseCase,
    private readonly read: ReadTokensUseCase,
    private readonly update: UpdateTokenUseCase,
    private readonly remove: DeleteTokenUseCase,
    private readonly tokenize: TokenizeUseCase,
    private readonly detokenize: DetokenizeUseCase,
    private readonly search: SearchTokensUseCase,
    private readonly logs: ListLogsUseCase,
    private readonly audit: AuditRepository,
  ) {}

  @MessagePattern(SUBJECTS.token.tokens.tokenize)
  onTokenize(@Payload() env: RpcEnvelope<{ payload: unknown }>) {
    return this.tokenize.execute(principalOf(env, 'token:create'), env.traceId, env.body?.payload);
  }

  /** POST /detokenize, and reactor-service for invocation args (`path` names the field in errors). */
  @MessagePattern(SUBJECTS.token.tokens.detokenize)
  onDetokenize(@Payload() env: RpcEnvelope<{ payload: unknown; path?: string }>) {
    return this.detokenize.execute(principalOf(env, 'token:use', 'token:read'), env.traceId, env.body?.payload, env.body?.path);
  }

  @MessagePattern(SUBJECTS.token.tokens.search)
  onSearch(@Payload() env: RpcEnvelope<unknown>) {
    return this.search.execute(principalOf(env, 'token:search'), env.traceId, env.body);
  }

  @MessagePattern(SUBJECTS.token.audit.record)
  async onAuditRecord(@Payload() env: RpcEnvelope<{ events: AuditEventInput[] }>) {
    const p = env.principal;
    if (!p?.tenantId) throw new ProblemError(401, 'A valid API key is required');
    const events = (env.body?.events ?? []).slice(0, 1000).map((e) => ({ ...e, actorApplicationId: e.actorApplicationId ?? p.applicationId }));
    await this.audit.record(p.tenantId, events);
    return { recorded: events.length };
  }

  @MessagePattern(SUBJECTS.token.logs.list)
  onLogs(@Payload() env: RpcEnvelope<Record<string, unknown>>) {
    return this.logs.execute(principalOf(env, 'log:read'), env.body ?? {});
  }

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
