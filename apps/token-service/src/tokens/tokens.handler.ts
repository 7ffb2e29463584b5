import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  SUBJECTS,
  assertJsonLimits,
  deadlineOf,
  notFound,
  type ListTokensRequest,
  type RpcEnvelope,
  type TokenIdRequest,
  type UpdateTokenRequest,
} from '@coffer/contracts';
import { requirePrincipal } from '@coffer/auth';
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
  onTokenize(@Payload() env: RpcEnvelope<{ payload: unknown; rendered?: boolean }>) {
    const principal = requirePrincipal(env, 'token:create');
    assertJsonLimits(env.body?.payload);
    const req = this.idempotency.request(SUBJECTS.token.tokens.tokenize, env);
    return this.tokenize.execute(principal, env.traceId, env.body?.payload, req, env.body?.rendered === true);
  }

  /** POST /detokenize, and reactor-service for invocation args (`path` names the field in errors). */
  @MessagePattern(SUBJECTS.token.tokens.detokenize)
  onDetokenize(@Payload() env: RpcEnvelope<{ payload: unknown; path?: string }>) {
    const principal = requirePrincipal(env, ['token:use', 'token:read']);
    assertJsonLimits(env.body?.payload, {}, typeof env.body?.path === 'string' ? env.body.path : '');
    return this.detokenize.execute(principal, env.traceId, env.body?.payload, env.body?.path);
  }

  @MessagePattern(SUBJECTS.token.tokens.search)
  onSearch(@Payload() env: RpcEnvelope<unknown>) {
    const principal = requirePrincipal(env, 'token:search');
    assertJsonLimits(env.body);
    return this.search.execute(principal, env.traceId, env.body, deadlineOf(env));
  }

  @MessagePattern(SUBJECTS.token.audit.record)
  async onAuditRecord(@Payload() env: RpcEnvelope<{ events: AuditEventInput[] }>) {
    const p = requirePrincipal(env);
    const events = (env.body?.events ?? []).slice(0, 1000).map((e) => ({ ...e, actorApplicationId: e.actorApplicationId ?? p.applicationId }));
    await this.audit.record(p.tenantId, events);
    return { recorded: events.length };
  }

  @MessagePattern(SUBJECTS.token.logs.list)
  onLogs(@Payload() env: RpcEnvelope<Record<string, unknown>>) {
    return this.logs.execute(requirePrincipal(env, 'log:read'), env.body ?? {});
  }

  @MessagePattern(SUBJECTS.token.tokens.create)
  onCreate(@Payload() env: RpcEnvelope<unknown>) {
    const principal = requirePrincipal(env, 'token:create');
    assertJsonLimits(env.body, STORED_FIELDS);
    const idempotency = this.idempotency.request(SUBJECTS.token.tokens.create, env);
    return this.create.execute({ principal, traceId: env.traceId, body: env.body, idempotency });
  }

  @MessagePattern(SUBJECTS.token.tokens.get)
  onGet(@Payload() env: RpcEnvelope<TokenIdRequest>) {
    const principal = requirePrincipal(env, 'token:read');
    return this.read.get(principal, env.traceId, tokenId(env.body?.id));
  }

  @MessagePattern(SUBJECTS.token.tokens.list)
  onList(@Payload() env: RpcEnvelope<ListTokensRequest>) {
    return this.read.list(requirePrincipal(env, 'token:read'), env.traceId, env.body?.query ?? {}, deadlineOf(env));
  }

  @MessagePattern(SUBJECTS.token.tokens.update)
  onUpdate(@Payload() env: RpcEnvelope<UpdateTokenRequest>) {
    const principal = requirePrincipal(env, 'token:update');
    const id = tokenId(env.body?.id);
    assertJsonLimits(env.body?.patch, STORED_FIELDS);
    const idempotency = this.idempotency.request(SUBJECTS.token.tokens.update, env);
    return this.update.execute({ principal, traceId: env.traceId, id, patch: env.body?.patch, idempotency });
  }

  @MessagePattern(SUBJECTS.token.tokens.delete)
  async onDelete(@Payload() env: RpcEnvelope<TokenIdRequest>) {
    const principal = requirePrincipal(env, 'token:delete');
    await this.remove.execute(principal, env.traceId, tokenId(env.body?.id));
    return { deleted: true };
  }

  @MessagePattern(SUBJECTS.ping('token'))
  ping() {
    return { ok: true };
  }
}
