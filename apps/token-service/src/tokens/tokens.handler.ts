import { Controller } from '@nestjs/common';
import {
  OPS,
  notFound,
  type AuditRecordMessage,
  type ListTokensRequest,
  type PayloadMessage,
  type TokenIdRequest,
  type UpdateTokenRequest,
} from '@coffer/contracts';
import { AuditLog } from '@coffer/db';
import { Operation, OperationDispatcher, caller, type Command } from '@coffer/operations';
import { CreateTokenUseCase } from './create/create-token.use-case';
import { ReadTokensUseCase } from './read/read-tokens.use-case';
import { UpdateTokenUseCase } from './update/update-token.use-case';
import { DeleteTokenUseCase } from './delete-token.use-case';
import { TokenizeUseCase } from './tokenize/tokenize.use-case';
import { DetokenizeUseCase } from './detokenize/detokenize.use-case';
import { SearchTokensUseCase } from './search/search-tokens.use-case';
import { ListLogsUseCase } from '../audit/logs.use-case';
import { ConvertTokenIntentUseCase, namesTokenIntent } from '../token-intents/convert-token-intent.use-case';

/** A token id holding NUL cannot exist (PostgreSQL cannot even compare it): not found, like any other impossible id. */
function tokenId(id: unknown): string {
  if (typeof id === 'string' && id.includes('\u0000')) throw notFound('token');
  return id as string;
}

/**
 * The token operations (OPS.token): the dispatcher has checked the caller, the JSON limits (the stored fields refuse
 * NUL) and, for idempotent writes, looked the key up; create and tokenize record it in their own transaction. The
 * handlers run as their caller: the use cases read who acts (caller()) and the trace id where they start.
 */
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
    private readonly audit: AuditLog,
    private readonly convert: ConvertTokenIntentUseCase,
    dispatcher: OperationDispatcher,
  ) {
    // repeats are rendered again for what the caller may see now; create and tokenize look settings up before opening
    // their transaction, so they open it themselves and record the key in it. The dispatcher builds a codec in the
    // request: each captures its caller when built.
    dispatcher.handle(OPS.token.tokens.create, {
      recordsItself: true,
      codec: (cmd) => (namesTokenIntent(cmd.body) ? this.convert.replayCodec() : this.create.replayCodec(cmd.body)),
    });
    dispatcher.handle(OPS.token.tokens.tokenize, {
      recordsItself: true,
      codec: (cmd) => this.tokenize.replayCodec(cmd.body?.payload, cmd.body?.rendered === true),
    });
    dispatcher.handle(OPS.token.tokens.update, { codec: (cmd) => this.update.replayCodec(tokenId(cmd.body?.id)) });
  }

  @Operation(OPS.token.tokens.tokenize)
  onTokenize(cmd: Command<PayloadMessage | undefined>) {
    return this.tokenize.execute(cmd.body?.payload, cmd.idempotency, cmd.body?.rendered === true);
  }

  /** POST /detokenize, and reactor-service for invocation args (`path` names the field in errors). */
  @Operation(OPS.token.tokens.detokenize)
  onDetokenize(cmd: Command<PayloadMessage | undefined>) {
    return this.detokenize.execute(cmd.body?.payload, cmd.body?.path);
  }

  @Operation(OPS.token.tokens.search)
  onSearch(cmd: Command) {
    return this.search.execute(cmd.body, cmd.deadline);
  }

  @Operation(OPS.token.audit.record)
  async onAuditRecord(cmd: Command<AuditRecordMessage>) {
    // the sending service's caller: its tenant, and the actor of events that name none
    const p = caller();
    const records = cmd.body.events.map((e) => ({
      tenantId: p.tenantId,
      actorApplicationId: e.actorApplicationId ?? p.applicationId,
      operation: e.operation,
      entityType: e.entityType,
      entityId: e.entityId,
      traceId: e.traceId,
      changes: e.changes,
    }));
    await this.audit.append(...records);
    return { recorded: records.length };
  }

  @Operation(OPS.token.logs.list)
  onLogs(cmd: Command<Record<string, unknown> | undefined>) {
    return this.logs.execute(cmd.body ?? {});
  }

  @Operation(OPS.token.tokens.create)
  onCreate(cmd: Command) {
    const create = { body: cmd.body, idempotency: cmd.idempotency };
    // with token_intent_id instead of data: a token intent made into a token (docs/token-intents.md)
    return namesTokenIntent(cmd.body) ? this.convert.execute(create) : this.create.execute(create);
  }

  @Operation(OPS.token.tokens.get)
  onGet(cmd: Command<TokenIdRequest | undefined>) {
    return this.read.get(tokenId(cmd.body?.id));
  }

  @Operation(OPS.token.tokens.list)
  onList(cmd: Command<ListTokensRequest | undefined>) {
    return this.read.list(cmd.body?.query ?? {}, cmd.deadline);
  }

  @Operation(OPS.token.tokens.update)
  onUpdate(cmd: Command<UpdateTokenRequest | undefined>) {
    return this.update.execute({ id: tokenId(cmd.body?.id), patch: cmd.body?.patch });
  }

  @Operation(OPS.token.tokens.delete)
  async onDelete(cmd: Command<TokenIdRequest | undefined>) {
    await this.remove.execute(tokenId(cmd.body?.id));
    return { deleted: true };
  }

  @Operation(OPS.ping.token)
  ping() {
    return { ok: true };
  }
}
