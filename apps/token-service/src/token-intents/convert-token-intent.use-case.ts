import { Injectable } from '@nestjs/common';
import { FieldErrors, forbidden, type TokenView } from '@coffer/contracts';
import { decideTokenAccess } from '@coffer/auth';
import { PrismaService } from '@coffer/db';
import type { ReplayCodec } from '@coffer/idempotency';
import { caller, asCaller } from '@coffer/operations';
import { CreateTokenUseCase, type CreateTokenCommand, type WrittenToken } from '../tokens/create/create-token.use-case';
import { TokenRepository } from '../tokens/token.repository';
import { TokenVault } from '../tokens/token-vault';
import { TokenIntentsUseCase } from './token-intents.use-case';

/** Whether a token create names a token intent (`token_intent_id`) instead of carrying data. */
export function namesTokenIntent(body: unknown): boolean {
  const id = (body as { token_intent_id?: unknown } | null | undefined)?.token_intent_id;
  return typeof body === 'object' && body !== null && id !== undefined && id !== null;
}

/**
 * POST /tokens with `token_intent_id` (docs/token-intents.md): the intent's data becomes a token, created exactly as a
 * create with that data would be (the converting caller's token:create in the target container, its mask, container,
 * metadata, deduplication), and the intent is marked converted (its data cleared) in the token's transaction: a
 * second conversion, even a concurrent one, is a 409 and writes nothing.
 */
@Injectable()
export class ConvertTokenIntentUseCase {
  constructor(
    private readonly create: CreateTokenUseCase,
    private readonly intents: TokenIntentsUseCase,
    private readonly tokens: TokenRepository,
    private readonly vault: TokenVault,
    private readonly prisma: PrismaService,
  ) {}

  async execute(cmd: CreateTokenCommand): Promise<TokenView> {
    // who converts, read once where the conversion starts; the token's write gets them as data (CreateTokenUseCase.write)
    const { principal, traceId } = asCaller();
    const conversion = await this.intents.conversion(principal, cmd.body);
    if (!conversion) return this.create.execute(cmd);
    const errors = new FieldErrors();
    const prepared = this.create.prepare(principal, conversion.body, errors);
    errors.throwIfAny();
    if (!prepared) throw new Error('a prepared token is missing');
    // keys and the tenant's settings are resolved before the transaction opens (it then holds its connection only
    // for its own statements)
    await this.vault.keyring.warm(principal.tenantId);
    const tenantDeduplicates = await this.create.tenantDeduplicates(principal, traceId);
    const written = await this.prisma.transactional(async () => {
      if (cmd.idempotency) await cmd.idempotency.hold();
      // then: a concurrent conversion of the same intent waits here for this one's commit, then finds the marker
      await conversion.consume(principal, traceId);
      const result = await this.create.write(principal, traceId, prepared, tenantDeduplicates);
      const recipe: WrittenToken = { id: result.row.id, created: result.created };
      if (cmd.idempotency) await cmd.idempotency.record(recipe);
      return result;
    });
    return written.view;
  }

  /**
   * A repeat of an idempotent conversion: its intent is gone, so the request cannot be judged again as a create is;
   * the caller must still may create in the token's container (403 otherwise), and sees the token as it may now.
   * The caller is the one the codec is built for (in the request, by the dispatcher), captured now.
   */
  replayCodec(): ReplayCodec<TokenView, TokenView> {
    const principal = caller();
    return {
      reply: (view) => view,
      record: (view) => view,
      replay: async (recorded) => {
        const written = recorded as WrittenToken;
        const row = await this.tokens.find(principal.tenantId, written.id);
        if (row && written.created && !decideTokenAccess(principal, 'token:create', { id: row.id, container: row.container }).allowed)
          throw forbidden('The API key may not create tokens in this container');
        return (await this.create.rerender(principal, [written]))[0];
      },
    };
  }
}
