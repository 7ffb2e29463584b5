import { Injectable } from '@nestjs/common';
import { FieldErrors, ProblemError, TOKENIZE_RENDERED, badRequest, type JsonValue, type Principal, type TokenView, type Transform } from '@coffer/contracts';
import { AuditLog, PrismaService, inTransaction, type AuditRecordInput } from '@coffer/db';
import type { ExpressionBudget } from '@coffer/expression';
import { writeBudget } from '../expression-budgets';
import type { IdempotentWrite, ReplayCodec } from '@coffer/idempotency';
import { caller, asCaller } from '@coffer/operations';
import { tokenActs } from '../../audit/audit.repository';
import { CreateTokenUseCase, meetsNoConflict, type PreparedToken, type WrittenToken } from '../create/create-token.use-case';
import { TokenVault } from '../token-vault';
import { TokenIntentsUseCase, type IntentConversion } from '../../token-intents/token-intents.use-case';

export const MAX_TOKENS_PER_CALL = 100;

/** A slot of the payload that becomes a token; `conversion`: made from a token intent, consumed in the transaction. */
type Slot = { path: string; prepared?: PreparedToken; asId: boolean; conversion?: IntentConversion };

/** The intents a payload names, looked up (and decrypted) before planning; none while a repeat is rebuilt. */
type Intents = { replaying: boolean; conversions: Map<object, IntentConversion> };

/** An object of the payload that names a token intent instead of carrying data (docs/token-intents.md). */
function namesIntent(obj: Record<string, unknown>): boolean {
  return 'token_intent_id' in obj && !('data' in obj);
}

/**
 * POST /tokenize (docs/tokens.md): walks any JSON. An object with `type` and `data` is a token request and becomes
 * the created token, as does an object with `token_intent_id` (and no `data`), a token intent converted as
 * POST /tokens converts it; any other primitive becomes a `token` of that value and is replaced by its id; other objects
 * and arrays are walked. All-or-nothing: everything is validated first, then written in one statement (the common
 * call) or one transaction.
 *
 * `rendered` (reactor-service only): each token view also carries TOKENIZE_RENDERED, the transform it was rendered
 * at — a deduplicated token is shown at the read level, not the write reply level, and reactor-service must know.
 */
@Injectable()
export class TokenizeUseCase {
  constructor(
    private readonly create: CreateTokenUseCase,
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
    private readonly vault: TokenVault,
    private readonly intents: TokenIntentsUseCase,
  ) {}

  async execute(payload: unknown, idempotency?: IdempotentWrite, rendered = false): Promise<JsonValue> {
    // who tokenizes, read once where the call starts; every token's write gets them as data (CreateTokenUseCase.write)
    const { principal, traceId } = asCaller();
    const conversions = await this.lookUpIntents(principal, payload);
    const { shape, slots } = this.planned(principal, payload, { replaying: false, conversions });
    // keys are resolved before the transaction opens: it then holds its connection only for its own statements
    if (slots.length) await this.vault.keyring.warm(principal.tenantId);
    const tenantDeduplicates = slots.length ? await this.create.tenantDeduplicates(principal, traceId) : false;
    const results =
      (await this.writtenInOneStatement(principal, traceId, slots, tenantDeduplicates, idempotency, rendered)) ??
      (await this.prisma.transactional(
        async () => {
          const out: unknown[] = [];
          const written: WrittenToken[] = [];
          const audits: AuditRecordInput[] = [];
          if (idempotency) await idempotency.hold();
          for (const slot of slots) {
            // an intent is consumed in the transaction that writes its token: used twice, even in one call, is a 409
            if (slot.conversion) await slot.conversion.consume(principal, traceId);
            const { view, row, created, transform } = await this.create.write(principal, traceId, slot.prepared!, tenantDeduplicates, audits);
            out.push(this.resultOf(slot, view, transform, rendered));
            written.push({ id: row.id, created });
          }
          // every slot is audited as a create, the ones deduplication answered too: one statement for the whole tokenize
          audits.push(...tokenActs(principal, traceId, 'create', 'token', ...written.filter((w) => !w.created).map((w) => w.id)));
          await this.audit.append(...audits);
          if (idempotency) await idempotency.record(written);
          return out;
        },
        { timeoutMs: 30_000 },
      ));
    let next = 0;
    // JSON in, JSON out: the request's shape with each value to tokenize replaced by its token
    return shape(() => results[next++]) as JsonValue;
  }

  /**
   * The common call — every token with a fresh id, none deduplicated, no intent to consume — written by one statement
   * (CreateTokenUseCase.writeAllFresh) instead of a transaction of a few statements per token: the slots' results,
   * or null when the call needs the transaction (or the statement met a taken id and wrote nothing). Outside a unit of
   * work only: a failed statement would abort the caller's transaction, leaving nothing to fall back on.
   */
  private async writtenInOneStatement(
    principal: Principal,
    traceId: string | undefined,
    slots: Slot[],
    tenantDeduplicates: boolean,
    idempotency: IdempotentWrite | undefined,
    rendered: boolean,
  ): Promise<unknown[] | null> {
    if (!slots.length || inTransaction() || slots.some((s) => s.conversion || !meetsNoConflict(s.prepared!, tenantDeduplicates))) return null;
    const written = await this.create.writeAllFresh(
      principal,
      traceId,
      slots.map((s) => s.prepared!),
      idempotency,
    );
    return written && written.map((w, i) => this.resultOf(slots[i], w.view, w.transform, rendered));
  }

  /**
   * How a repeat is answered (SVC-IDEMPOTENCY-KEY): it has the same payload (same hash), so its shape is rebuilt
   * around the recorded tokens, each shown as the caller may see it now: the caller the codec is built for (in the
   * request, by the dispatcher), captured now rather than read when the repeat is rendered.
   */
  replayCodec(payload: unknown, rendered: boolean): ReplayCodec<unknown, unknown> {
    const principal = caller();
    return {
      reply: (result) => result,
      record: (result) => result,
      replay: async (recorded) => {
        // the intents of the call were consumed by it: the repeat rebuilds the shape around the recorded tokens
        const { shape, slots } = this.planned(principal, payload, { replaying: true, conversions: new Map() });
        const views = await this.create.rerenderWithTransforms(principal, recorded as WrittenToken[]);
        let next = 0;
        return shape(() => this.resultOf(slots[next], views[next].view, views[next++].transform, rendered));
      },
    };
  }

  /** The payload validated and planned: every token request prepared, under one expression budget for the call. */
  private planned(principal: Principal, payload: unknown, intents: Intents): { shape: (take: () => unknown) => unknown; slots: Slot[] } {
    if (payload === undefined) throw badRequest('The request body is required');
    const errors = new FieldErrors();
    const slots: Slot[] = [];
    // one expression budget for every token of the call, spent before the transaction starts
    const shape = this.plan(principal, payload, '', slots, errors, writeBudget(), intents);
    if (slots.length > MAX_TOKENS_PER_CALL) throw badRequest(`At most ${MAX_TOKENS_PER_CALL} tokens may be created in one call`);
    errors.throwIfAny();
    return { shape, slots };
  }

  private resultOf(slot: Slot, view: TokenView, transform: Transform, rendered: boolean): unknown {
    if (slot.asId) return view.id;
    return rendered ? { ...view, [TOKENIZE_RENDERED]: transform } : view;
  }

  /**
   * The token intents the payload names (objects with `token_intent_id` and no `data`), in walk order: each looked up
   * and decrypted before the transaction opens. A bad id or type is a 400 naming its place in the payload; an intent
   * that is not live is a 404 and one already converted a 409, for the whole call (it is all-or-nothing). At most
   * MAX_TOKENS_PER_CALL are looked up; past that planning refuses the call anyway.
   */
  private async lookUpIntents(principal: Principal, payload: unknown): Promise<Map<object, IntentConversion>> {
    const found = new Map<object, IntentConversion>();
    const errors = new FieldErrors();
    const walk = async (value: unknown, path: string): Promise<void> => {
      if (value === null || typeof value !== 'object' || found.size > MAX_TOKENS_PER_CALL) return;
      if (Array.isArray(value)) {
        for (const [i, v] of value.entries()) await walk(v, `${path}[${i}]`);
        return;
      }
      const obj = value as Record<string, unknown>;
      if (namesIntent(obj)) {
        try {
          const conversion = await this.intents.conversion(principal, obj);
          if (conversion) found.set(obj, conversion);
          else errors.add(path ? `${path}.token_intent_id` : 'token_intent_id', 'must be the id of a token intent');
        } catch (err) {
          const fields = err instanceof ProblemError && err.problem.status === 400 ? err.problem.errors : undefined;
          if (!fields) throw err;
          for (const [field, messages] of Object.entries(fields)) for (const m of messages) errors.add(path ? `${path}.${field}` : field, m);
        }
        return;
      }
      if ('type' in obj && 'data' in obj) return;
      for (const [k, v] of Object.entries(obj)) await walk(v, path ? `${path}.${k}` : k);
    };
    await walk(payload, '');
    errors.throwIfAny();
    return found;
  }

  /** Returns a function that rebuilds the payload with results in walk order. */
  private plan(
    principal: Principal,
    value: unknown,
    path: string,
    slots: Slot[],
    errors: FieldErrors,
    budget: ExpressionBudget,
    intents: Intents,
  ): (take: () => unknown) => unknown {
    if (value === null) return () => null;
    if (typeof value !== 'object') {
      const prepared = this.create.prepare(principal, { type: 'token', data: value }, errors, path, budget);
      if (prepared) slots.push({ path, prepared, asId: true });
      return (take) => (prepared ? take() : value);
    }
    if (Array.isArray(value)) {
      const parts = value.map((v, i) => this.plan(principal, v, `${path}[${i}]`, slots, errors, budget, intents));
      return (take) => parts.map((p) => p(take));
    }
    const obj = value as Record<string, unknown>;
    // a token request naming a token intent: the intent's data becomes the token, as with POST /tokens
    if (namesIntent(obj)) {
      if (intents.replaying) {
        slots.push({ path, asId: false });
        return (take) => take();
      }
      // looked up before planning (lookUpIntents): every object that names one has its conversion or refused the call
      const conversion = intents.conversions.get(obj);
      const prepared = conversion ? this.create.prepare(principal, conversion.body, errors, path, budget) : undefined;
      if (prepared) slots.push({ path, prepared, asId: false, conversion });
      return (take) => (prepared ? take() : obj);
    }
    if ('type' in obj && 'data' in obj) {
      const prepared = this.create.prepare(principal, obj, errors, path, budget);
      if (prepared) slots.push({ path, prepared, asId: false });
      return (take) => (prepared ? take() : obj);
    }
    const entries = Object.entries(obj).map(([k, v]) => [k, this.plan(principal, v, path ? `${path}.${k}` : k, slots, errors, budget, intents)] as const);
    return (take) => Object.fromEntries(entries.map(([k, p]) => [k, p(take)]));
  }
}
