import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { FieldErrors, ProblemError, conflict, forbidden, type Principal, type TokenView, type Transform } from '@coffer/contracts';
import { decideTokenAccess, writeReplyTransform } from '@coffer/auth';
import { evaluate, type ExpressionBudget } from '@coffer/expression';
import { AuditLog, PrismaService, type AuditRecordInput } from '@coffer/db';
import type { IdempotentWrite, ReplayCodec } from '@coffer/idempotency';
import { caller, asCaller } from '@coffer/operations';
import { tokenActs } from '../../audit/audit.repository';
import { TokenRepository, type TokenRow } from '../token.repository';
import { TokenInserts } from './token-inserts';
import { TokenVault, expressionMessage, renderExpressions, type RenderedExpressions } from '../token-vault';
import { validateTokenFields, validateTokenId, type TokenFields } from '../token-fields';
import { toLimitedView, toTokenView, type Premasked } from '../token.view';
import { checkMaskEvaluates } from '../mask-check';
import { tokenCreated } from '../token-events';
import { readBudget, writeBudget } from '../expression-budgets';
import { TenantSettingsClient } from '@coffer/bus';
import { currentTraceparent } from '@coffer/observability';

const ALIAS_ATTEMPTS = 5;
/**
 * Every way round the write loop: the alias draws, the UUID fallbacks and a dedup key freed by an expiring holder.
 * More than this means something keeps racing the write; it fails with a problem instead of spinning.
 */
const WRITE_ATTEMPTS = ALIAS_ATTEMPTS + 3;
/** A create as its handler passes it on; who creates is the operation's caller (caller()), read where the create starts. */
export interface CreateTokenCommand {
  body: unknown;
  /** SVC-IDEMPOTENCY-KEY: the key is recorded in the token's transaction (the operation dispatcher replays repeats) */
  idempotency?: IdempotentWrite;
}

/** What an idempotency record keeps of a written token: enough to render it again for the caller of a retry. */
export interface WrittenToken {
  id: string;
  /** false when deduplication answered with an existing token */
  created: boolean;
}

/** A written token as shown to its writer, with the transform it was rendered at (redact: the limited view). */
export interface RenderedToken {
  view: TokenView;
  transform: Transform;
}

/**
 * A token about to be written: validated fields, how its id is chosen, and every expression already evaluated —
 * under `budget`, the request's — so a write never starts for a token whose expressions do not fit.
 */
export interface PreparedToken {
  fields: TokenFields;
  id: { literal?: string; expression?: string };
  budget: ExpressionBudget;
  rendered: RenderedExpressions;
  /** the mask over the data, for the write's reply (absent without a mask) */
  masked?: Premasked;
  /** the id expression's first value (an alias is drawn again, under the same budget, only when it is taken) */
  alias?: string;
}

@Injectable()
export class CreateTokenUseCase {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly inserts: TokenInserts,
    private readonly vault: TokenVault,
    private readonly settings: TenantSettingsClient,
    private readonly audit: AuditLog,
    private readonly prisma: PrismaService,
  ) {}

  /**
   * Validates a create request and evaluates its expressions (mask, fingerprint, search indexes, id) under `budget`
   * (tokenize passes one budget for all its tokens); every bad field is reported, with `pathPrefix` for tokenize's
   * nested requests. An expression that does not fit in the budget is a bad field like any other.
   */
  prepare(principal: Principal, body: unknown, errors: FieldErrors, pathPrefix = '', budget: ExpressionBudget = writeBudget()): PreparedToken | null {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      errors.add(pathPrefix || 'body', 'must be a JSON object');
      return null;
    }
    const input = body as Record<string, unknown>;
    const local = new FieldErrors();
    const id = input['id'] === undefined || input['id'] === null ? {} : validateTokenId(input['id'], local);
    const fields = validateTokenFields(input, local);
    let masked: Premasked | undefined;
    let rendered: RenderedExpressions | null = null;
    let alias: string | undefined;
    if (fields && local.empty) masked = checkMaskEvaluates(fields.mask, fields.data, local, budget);
    if (fields && local.empty) rendered = renderExpressions(fields, budget, local);
    if (fields && local.empty && id.expression !== undefined) alias = aliasOf(id.expression, fields.data, budget, local);
    for (const [path, messages] of Object.entries(local.toRecord())) for (const m of messages) errors.add(pathPrefix ? `${pathPrefix}.${path}` : path, m);
    if (!fields || !local.empty || !rendered) return null;
    const decision = decideTokenAccess(principal, 'token:create', { id: id.literal ?? '', container: fields.container });
    if (!decision.allowed) throw forbidden('The API key may not create tokens in this container');
    return { fields, id, budget, rendered, masked, alias };
  }

  async execute(cmd: CreateTokenCommand): Promise<TokenView> {
    // Who creates, read once here, where the create starts: from here on the principal and the trace id are data. The
    // stored row (created_by), its event and its audit record carry them into the group commit (TokenInserts), which
    // writes the creates of many requests in whichever one's async context flushes it: nothing past here asks the
    // context who acts.
    const { principal, traceId } = asCaller();
    const prepared = this.validated(principal, cmd.body);
    if (!cmd.idempotency) return (await this.write(principal, traceId, prepared)).view;
    return this.writeOnce(principal, traceId, prepared, cmd.idempotency);
  }

  /**
   * How a repeat of an idempotent create is answered: the request is checked as the first one was (a caller who may
   * no longer create in the container gets 403), then the recorded token is shown as the caller may see it now. The
   * caller is the one the codec is built for (the dispatcher builds it in the request), captured now, not at replay.
   */
  replayCodec(body: unknown): ReplayCodec<TokenView, TokenView> {
    const principal = caller();
    return {
      reply: (view) => view,
      record: (view) => view,
      replay: async (recorded) => {
        this.validated(principal, body);
        return (await this.rerender(principal, [recorded as WrittenToken]))[0];
      },
    };
  }

  private validated(principal: Principal, body: unknown): PreparedToken {
    const errors = new FieldErrors();
    const prepared = this.prepare(principal, body, errors) as PreparedToken;
    errors.throwIfAny();
    return prepared;
  }

  /**
   * SVC-IDEMPOTENCY-KEY: the token and the key's record commit together, so a retry after a lost reply gets the same
   * token (rendered for what the caller may see now) instead of a second one.
   */
  private async writeOnce(principal: Principal, traceId: string | undefined, prepared: PreparedToken, idempotency: IdempotentWrite): Promise<TokenView> {
    // keys are resolved before the transaction opens: it then holds its connection only for its own statements
    await this.vault.keyring.warm(principal.tenantId);
    const tenantDeduplicates = await this.tenantDeduplicates(principal, traceId);
    if (meetsNoConflict(prepared, tenantDeduplicates)) {
      const view = await this.writeInOneStatement(principal, traceId, prepared, idempotency);
      if (view) return view;
    }
    // the token, its audit event and the key's record commit together (one unit of work: libs/db/README.md)
    const written = await this.prisma.transactional(async () => {
      await idempotency.hold();
      const result = await this.write(principal, traceId, prepared, tenantDeduplicates);
      const recipe: WrittenToken = { id: result.row.id, created: result.created };
      await idempotency.record(recipe);
      return result;
    });
    return written.view;
  }

  /**
   * Written tokens as a retry shows them: what the caller may see now, never more than the first reply (a created
   * token by the write rule, a deduplicated one by the read rule). A token deleted since is a 409.
   */
  async rerender(principal: Principal, written: WrittenToken[]): Promise<TokenView[]> {
    return (await this.rerenderWithTransforms(principal, written)).map((r) => r.view);
  }

  /** `rerender`, with the transform each view was rendered at. */
  async rerenderWithTransforms(principal: Principal, written: WrittenToken[]): Promise<RenderedToken[]> {
    const budget = readBudget();
    const rows = new Map(
      (
        await this.tokens.findMany(
          principal.tenantId,
          written.map((w) => w.id),
        )
      ).map((r) => [r.id, r]),
    );
    return Promise.all(
      written.map(async (w) => {
        const row = rows.get(w.id);
        if (!row) throw conflict('The token this idempotency key created no longer exists');
        if (!w.created) return this.viewFor(principal, row, budget);
        const data = await this.vault.decrypt(row.tenant_id, row.id, row.data_key_id, row.data_ciphertext);
        const transform = writeReplyTransform(principal, 'token:create', { id: row.id, container: row.container });
        return { view: toTokenView(row, data, transform, budget), transform };
      }),
    );
  }

  /**
   * Writes one prepared token (deduplicating when asked) and audits its creation; returns what the caller may see and
   * the transform it is rendered at: a created token by the write reply rule, a deduplicated one by the read rule
   * (docs/tokens.md). Inside a unit of work (tokenize, an idempotent create) every statement, the deduplication
   * lookups and the audit event included, runs in it.
   *
   * `principal` and `traceId` are taken as data, never read from the context: they are the ones the calling use case
   * (create, tokenize, a conversion) read where it started, and they go into the row, its event and its audit record,
   * which a group commit may write in another request's async context.
   */
  async write(
    principal: Principal,
    traceId: string | undefined,
    p: PreparedToken,
    /** the tenant's `deduplicate_tokens`, looked up before the transaction opened (else here) */
    tenantDeduplicates?: boolean,
    /** collects the creation's audit event for the caller to record with the others of its unit of work (tokenize) */
    audits?: AuditRecordInput[],
  ): Promise<{ view: TokenView; row: TokenRow; created: boolean; transform: Transform }> {
    const tenantId = principal.tenantId;
    const f = p.fields;
    const { fingerprint, searchDigests } = await this.vault.digests(tenantId, f.type, p.rendered);
    const deduplicate = f.deduplicate ?? tenantDeduplicates ?? (await this.tenantDeduplicates(principal, traceId));
    const dedupKey = deduplicate ? `${f.type}:${fingerprint}` : null;
    if (deduplicate) {
      const existing = await this.tokens.findByFingerprint(tenantId, f.type, fingerprint);
      if (existing) return { ...(await this.viewFor(principal, existing, p.budget)), row: existing, created: false };
    }

    for (let attempt = 0; ; attempt++) {
      if (attempt >= WRITE_ATTEMPTS)
        throw new ProblemError(503, 'The token could not be written: concurrent writes kept conflicting with it; retry the request');
      const id = this.chooseId(p, attempt);
      const row = await this.rowOf(principal, p, id, fingerprint, dedupKey);
      const outcome = await this.inserts.insert(tenantId, row, searchDigests, audits ? undefined : { traceId }, tokenCreated(principal, traceId, row));
      if (outcome === 'created' || outcome === 'created-audited') {
        if (outcome === 'created') {
          const created = tokenActs(principal, traceId, 'create', 'token', id);
          if (audits) audits.push(...created);
          else await this.audit.append(...created);
        }
        return this.createdView(principal, p, row);
      }
      if (outcome === 'duplicate' && dedupKey) {
        const holder = await this.tokens.findByDedupKey(tenantId, dedupKey);
        if (holder) return { ...(await this.viewFor(principal, holder, p.budget)), row: holder, created: false };
        // the holder expired and released its key meanwhile: write again (bounded by WRITE_ATTEMPTS)
        continue;
      }
      // id taken: a literal id is the caller's conflict; a random alias is drawn again, then falls back to a UUID
      if (p.id.literal !== undefined) throw conflict(`A token with id "${p.id.literal}" already exists`);
      if (attempt > ALIAS_ATTEMPTS + 1) throw new ProblemError(500, 'Could not allocate a token id');
    }
  }

  /**
   * The common idempotent create, a token with a fresh id and no deduplication, as one statement: the key's record,
   * the token, its search digests, its audit record and its event commit together, with no transaction of the ORM's
   * around them, group-committed with the creates that arrive with it (TokenInserts.insertRecorded). Null when the
   * statement could not write the token after all (only a clash of random UUIDs would do it): its record is
   * withdrawn, and the create goes the transactional way.
   */
  private async writeInOneStatement(
    principal: Principal,
    traceId: string | undefined,
    p: PreparedToken,
    idempotency: IdempotentWrite,
  ): Promise<TokenView | null> {
    const tenantId = principal.tenantId;
    const { fingerprint, searchDigests } = await this.vault.digests(tenantId, p.fields.type, p.rendered);
    const row = await this.rowOf(principal, p, randomUUID(), fingerprint, null);
    const recipe: WrittenToken = { id: row.id, created: true };
    const record = await idempotency.inStatement(recipe);
    const outcome = await this.inserts.insertRecorded(tenantId, row, searchDigests, traceId, tokenCreated(principal, traceId, row), record.record);
    record.settle(outcome);
    if (outcome.created) return this.createdView(principal, p, row).view;
    await record.withdraw();
    return null;
  }

  /**
   * Tokens that meet no conflict (`meetsNoConflict`: a tokenize's common call), written all together by one statement
   * (TokenRepository.insertAll): the tokens, their search digests, audit records and events and, with `idempotency`,
   * the key's record, with no transaction of the ORM's around them. All or nothing. Null when the statement wrote
   * nothing because a random UUID was taken: the caller writes them the careful way. A key in flight elsewhere is a
   * 409 and a key recorded meanwhile the replay of its reply, as for a lone create (RecordInStatement.settle).
   */
  async writeAllFresh(
    principal: Principal,
    traceId: string | undefined,
    prepared: PreparedToken[],
    idempotency?: IdempotentWrite,
  ): Promise<Array<{ view: TokenView; row: TokenRow; created: true; transform: Transform }> | null> {
    const tenantId = principal.tenantId;
    const traceparent = currentTraceparent();
    const entries = await Promise.all(
      prepared.map(async (p) => {
        const { fingerprint, searchDigests } = await this.vault.digests(tenantId, p.fields.type, p.rendered);
        const token = await this.rowOf(principal, p, randomUUID(), fingerprint, null);
        return { tenantId, token, searchDigests, traceId, event: tokenCreated(principal, traceId, token), traceparent };
      }),
    );
    const recipe: WrittenToken[] = entries.map((e) => ({ id: e.token.id, created: true }));
    const record = idempotency ? await idempotency.inStatement(recipe) : undefined;
    const outcome = await this.tokens.insertAll(entries, record?.record);
    if (!outcome) return null;
    record?.settle(outcome);
    return entries.map((e, i) => this.createdView(principal, prepared[i], e.token));
  }

  /** The token as it is stored: written, shown in its event and rendered for the reply from this one row. */
  private async rowOf(principal: Principal, p: PreparedToken, id: string, fingerprint: string, dedupKey: string | null): Promise<TokenRow> {
    const f = p.fields;
    const { keyId, ciphertext } = await this.vault.encrypt(principal.tenantId, id, f.data);
    return {
      tenant_id: principal.tenantId,
      id,
      type: f.type,
      data_ciphertext: ciphertext,
      data_key_id: keyId,
      mask: f.mask,
      fingerprint,
      fingerprint_expression: f.fingerprintExpression,
      container: f.container,
      metadata: f.metadata,
      search_indexes: f.searchIndexes,
      dedup_key: dedupKey,
      expires_at: f.expiresAt,
      created_by: principal.applicationId,
      created_at: new Date(),
      modified_by: null,
      modified_at: null,
    };
  }

  /** A created token as its writer sees it (the write reply rule). */
  private createdView(principal: Principal, p: PreparedToken, row: TokenRow): { view: TokenView; row: TokenRow; created: true; transform: Transform } {
    const transform = writeReplyTransform(principal, 'token:create', { id: row.id, container: p.fields.container });
    return { view: toTokenView(row, p.fields.data, transform, p.budget, p.masked), row, created: true, transform };
  }

  /**
   * The tenant's deduplication setting (an RPC to session-service, cached a few seconds). Writes in a transaction
   * look it up before opening it: a transaction must never hold its connection while waiting on another service.
   */
  tenantDeduplicates(principal: Principal, traceId: string | undefined): Promise<boolean> {
    return this.settings.get(principal, traceId ?? '').then((s) => s.deduplicate_tokens);
  }

  private chooseId(p: PreparedToken, attempt: number): string {
    if (p.id.literal !== undefined) return p.id.literal;
    if (p.id.expression === undefined || attempt >= ALIAS_ATTEMPTS) return randomUUID();
    if (attempt === 0 && p.alias !== undefined) return p.alias;
    const errors = new FieldErrors();
    const alias = aliasOf(p.id.expression, p.fields.data, p.budget, errors);
    // a redraw that no longer fits in the budget takes the UUID a taken alias ends with anyway
    if (alias === undefined && p.budget.exhausted) return randomUUID();
    errors.throwIfAny();
    return alias as string;
  }

  /** A deduplicated token: full view for callers who may read it, otherwise the limited view. */
  private async viewFor(principal: Principal, row: TokenRow, budget: ExpressionBudget): Promise<RenderedToken> {
    const ref = { id: row.id, container: row.container };
    const read = decideTokenAccess(principal, 'token:read', ref);
    if (!read.allowed) return { view: toLimitedView(row), transform: 'redact' };
    const data = await this.vault.decrypt(row.tenant_id, row.id, row.data_key_id, row.data_ciphertext);
    return { view: toTokenView(row, data, read.transform, budget), transform: read.transform };
  }
}

/**
 * A token written with a fresh random id and not deduplicated: it cannot meet a conflict with a stored token (but for
 * a clash of random UUIDs), so it needs none of the careful path's lookups and can be written in one statement.
 */
export function meetsNoConflict(p: PreparedToken, tenantDeduplicates: boolean): boolean {
  return p.id.literal === undefined && p.id.expression === undefined && !(p.fields.deduplicate ?? tenantDeduplicates);
}

/** The id an id expression gives for the data, or undefined with the problem added at `id`. */
function aliasOf(expression: string, data: unknown, budget: ExpressionBudget, errors: FieldErrors): string | undefined {
  let value: unknown;
  try {
    value = evaluate(expression, { data }, 'data', budget);
  } catch (err) {
    errors.add('id', expressionMessage(err));
    return undefined;
  }
  const id = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (id.length < 3 || id.length > 400) {
    errors.add('id', 'the id expression must produce 3 to 400 characters');
    return undefined;
  }
  return id;
}
