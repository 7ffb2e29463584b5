import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ProblemError, SUBJECTS, assertJsonLimits, notFound, type ListTokensRequest, type RpcEnvelope, type TokenIdRequest, type UpdateTokenRequest, type Principal } from '@coffer/contracts';
import { mayEver } from '@coffer/auth';
import { IdempotentWrites } from '@coffer/idempotency';
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
export function principalOf(env: RpcEnvelope<unknown>, ...permissions: string[]): Principal {
  const p = env.principal;
  if (!p?.tenantId) throw new ProblemError(401, 'A valid API key is required');
  if (!permissions.some((perm) => mayEver(p, perm))) throw new ProblemError(403, 'The API key does not grant access to this operation');
  return p;
}

/**
 * Bodies also arrive without the gateway (reactor formulas call through `svc`): the JSON limits of libs/contracts
 * (depth, finite numbers) are checked again here, before any recursive code (merge patch, structuredClone, liquid,
 * JSON.stringify) sees the body. Fields stored as text or jsonb refuse NUL; `data` is stored encrypted and may hold it.
 */
const STORED_FIELDS = { rejectNul: true, nulExempt: ['data'] } as const;

/** A token id holding NUL cannot exist (PostgreSQL cannot even compare it): not found, like any other impossible id. */
function tokenId(id: unknown): string {
  if (typeof id === 'string' && id.includes('\u0000')) throw notFound('token');
  return id as string;
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
    private readonly idempotency: IdempotentWrites,
  ) {}

  @MessagePattern(SUBJECTS.token.tokens.tokenize)
  onTokenize(@Payload() env: RpcEnvelope<{ payload: unknown }>) {
    const principal = principalOf(env, 'token:create');
    assertJsonLimits(env.body?.payload);
    const req = this.idempotency.request(SUBJECTS.token.tokens.tokenize, env);
    return this.tokenize.execute(principal, env.traceId, env.body?.payload, req);
  }

  /** POST /detokenize, and reactor-service for invocation args (`path` names the field in errors). */
  @MessagePattern(SUBJECTS.token.tokens.detokenize)
  onDetokenize(@Payload() env: RpcEnvelope<{ payload: unknown; path?: string }>) {
    const principal = principalOf(env, 'token:use', 'token:read');
    assertJsonLimits(env.body?.payload, {}, typeof env.body?.path === 'string' ? env.body.path : '');
    return this.detokenize.execute(principal, env.traceId, env.body?.payload, env.body?.path);
  }

  @MessagePattern(SUBJECTS.token.tokens.search)
  onSearch(@Payload() env: RpcEnvelope<unknown>) {
    const principal = principalOf(env, 'token:search');
    assertJsonLimits(env.body);
    return this.search.execute(principal, env.traceId, env.body);
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
    const principal = principalOf(env, 'token:create');
    assertJsonLimits(env.body, STORED_FIELDS);
    const idempotency = this.idempotency.request(SUBJECTS.token.tokens.create, env);
    return this.create.execute({ principal, traceId: env.traceId, body: env.body, idempotency });
  }

  @MessagePattern(SUBJECTS.token.tokens.get)
  onGet(@Payload() env: RpcEnvelope<TokenIdRequest>) {
    const principal = principalOf(env, 'token:read');
    return this.read.get(principal, env.traceId, tokenId(env.body?.id));
  }

  @MessagePattern(SUBJECTS.token.tokens.list)
  onList(@Payload() env: RpcEnvelope<ListTokensRequest>) {
    return this.read.list(principalOf(env, 'token:read'), env.traceId, env.body?.query ?? {});
  }

  @MessagePattern(SUBJECTS.token.tokens.update)
  onUpdate(@Payload() env: RpcEnvelope<UpdateTokenRequest>) {
    const principal = principalOf(env, 'token:update');
    const id = tokenId(env.body?.id);
    assertJsonLimits(env.body?.patch, STORED_FIELDS);
    const idempotency = this.idempotency.request(SUBJECTS.token.tokens.update, env);
    return this.update.execute({ principal, traceId: env.traceId, id, patch: env.body?.patch, idempotency });
  }

  @MessagePattern(SUBJECTS.token.tokens.delete)
  async onDelete(@Payload() env: RpcEnvelope<TokenIdRequest>) {
    const principal = principalOf(env, 'token:delete');
    await this.remove.execute(principal, env.traceId, tokenId(env.body?.id));
    return { deleted: true };
  }

  @MessagePattern(SUBJECTS.ping('token'))
  ping() {
    return { ok: true };
  }
}
