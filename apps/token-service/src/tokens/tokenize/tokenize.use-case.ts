import { Injectable } from '@nestjs/common';
import { FieldErrors, TOKENIZE_RENDERED, badRequest, type Principal, type TokenView, type Transform } from '@coffer/contracts';
import { PrismaService } from '@coffer/db';
import type { ExpressionBudget } from '@coffer/expression';
import { writeBudget } from '../expression-budgets';
import type { IdempotentWrite, ReplayCodec } from '@coffer/idempotency';
import { AuditRepository, type AuditEventInput } from '../../audit/audit.repository';
import { CreateTokenUseCase, type PreparedToken, type WrittenToken } from '../create/create-token.use-case';
import { TokenVault } from '../token-vault';

export const MAX_TOKENS_PER_CALL = 100;

type Slot = { path: string; prepared: PreparedToken; asId: boolean };

/**
 * POST /tokenize (docs/tokens.md): walks any JSON. An object with `type` and `data` is a token request and becomes
 * the created token; any other primitive becomes a `token` of that value and is replaced by its id; other objects
 * and arrays are walked. All-or-nothing: everything is validated first, then written in one transaction.
 *
 * `rendered` (reactor-service only): each token view also carries TOKENIZE_RENDERED, the transform it was rendered
 * at — a deduplicated token is shown at the read level, not the write reply level, and reactor-service must know.
 */
@Injectable()
export class TokenizeUseCase {
  constructor(
    private readonly create: CreateTokenUseCase,
    private readonly prisma: PrismaService,
    private readonly audit: AuditRepository,
    private readonly vault: TokenVault,
  ) {}

  async execute(principal: Principal, traceId: string, payload: unknown, idempotency?: IdempotentWrite, rendered = false): Promise<unknown> {
    const { shape, slots } = this.planned(principal, payload);
    // keys are resolved before the transaction opens: it then holds its connection only for its own statements
    if (slots.length) await this.vault.keyring.warm(principal.tenantId);
    const tenantDeduplicates = slots.length ? await this.create.tenantDeduplicates(principal, traceId) : false;
    const results = await this.prisma.transactional(
      async () => {
        const out: unknown[] = [];
        const written: WrittenToken[] = [];
        const audits: AuditEventInput[] = [];
        for (const slot of slots) {
          const { view, row, created, transform } = await this.create.write(principal, traceId, slot.prepared, tenantDeduplicates, audits);
          out.push(this.resultOf(slot, view, transform, rendered));
          written.push({ id: row.id, created });
        }
        // every slot is audited as a create, the ones deduplication answered too: one statement for the whole tokenize
        for (const w of written.filter((w) => !w.created))
          audits.push({ actorApplicationId: principal.applicationId, operation: 'create', entityType: 'token', entityId: w.id, traceId });
        await this.audit.record(principal.tenantId, audits);
        if (idempotency) await idempotency.record(written);
        return out;
      },
      { timeoutMs: 30_000 },
    );
    let next = 0;
    return shape(() => results[next++]);
  }

  /**
   * How a repeat is answered (SVC-IDEMPOTENCY-KEY): it has the same payload (same hash), so its shape is rebuilt
   * around the recorded tokens, each shown as the caller may see it now.
   */
  replayCodec(principal: Principal, payload: unknown, rendered: boolean): ReplayCodec<unknown, unknown> {
    return {
      reply: (result) => result,
      record: (result) => result,
      replay: async (recorded) => {
        const { shape, slots } = this.planned(principal, payload);
        const views = await this.create.rerenderWithTransforms(principal, recorded as WrittenToken[]);
        let next = 0;
        return shape(() => this.resultOf(slots[next], views[next].view, views[next++].transform, rendered));
      },
    };
  }

  /** The payload validated and planned: every token request prepared, under one expression budget for the call. */
  private planned(principal: Principal, payload: unknown): { shape: (take: () => unknown) => unknown; slots: Slot[] } {
    if (payload === undefined) throw badRequest('The request body is required');
    const errors = new FieldErrors();
    const slots: Slot[] = [];
    // one expression budget for every token of the call, spent before the transaction starts
    const shape = this.plan(principal, payload, '', slots, errors, writeBudget());
    if (slots.length > MAX_TOKENS_PER_CALL) throw badRequest(`At most ${MAX_TOKENS_PER_CALL} tokens may be created in one call`);
    errors.throwIfAny();
    return { shape, slots };
  }

  private resultOf(slot: Slot, view: TokenView, transform: Transform, rendered: boolean): unknown {
    if (slot.asId) return view.id;
    return rendered ? { ...view, [TOKENIZE_RENDERED]: transform } : view;
  }

  /** Returns a function that rebuilds the payload with results in walk order. */
  private plan(
    principal: Principal,
    value: unknown,
    path: string,
    slots: Slot[],
    errors: FieldErrors,
    budget: ExpressionBudget,
  ): (take: () => unknown) => unknown {
    if (value === null) return () => null;
    if (typeof value !== 'object') {
      const prepared = this.create.prepare(principal, { type: 'token', data: value }, errors, path, budget);
      if (prepared) slots.push({ path, prepared, asId: true });
      return (take) => (prepared ? take() : value);
    }
    if (Array.isArray(value)) {
      const parts = value.map((v, i) => this.plan(principal, v, `${path}[${i}]`, slots, errors, budget));
      return (take) => parts.map((p) => p(take));
    }
    const obj = value as Record<string, unknown>;
    // a token request naming a token intent: tokenize does not convert intents (docs/token-intents.md), and walking it
    // would make tokens of its type and intent id instead
    if ('type' in obj && 'token_intent_id' in obj && !('data' in obj)) {
      errors.add(path ? `${path}.token_intent_id` : 'token_intent_id', 'is not taken by POST /tokenize: convert a token intent with POST /tokens');
      return () => obj;
    }
    if ('type' in obj && 'data' in obj) {
      const prepared = this.create.prepare(principal, obj, errors, path, budget);
      if (prepared) slots.push({ path, prepared, asId: false });
      return (take) => (prepared ? take() : obj);
    }
    const entries = Object.entries(obj).map(([k, v]) => [k, this.plan(principal, v, path ? `${path}.${k}` : k, slots, errors, budget)] as const);
    return (take) => Object.fromEntries(entries.map(([k, p]) => [k, p(take)]));
  }
}
