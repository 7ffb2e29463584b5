import { Injectable } from '@nestjs/common';
import { FieldErrors, applyMergePatch, badRequest, conflict, forbidden, notFound, type Principal, type TokenView, UpdateTokenPatch } from '@coffer/contracts';
import type { ReplayCodec } from '@coffer/idempotency';
import { asCaller, caller } from '@coffer/operations';
import { decideTokenAccess, mayReveal, writeReplyTransform } from '@coffer/auth';
import { validateMask, type ExpressionBudget } from '@coffer/expression';
import { tokenUpdated } from '../token-events';
import { TokenRepository, type TokenRow } from '../token.repository';
import { TokenVault, renderExpressions } from '../token-vault';
import { readBudget, writeBudget } from '../expression-budgets';
import { DEFAULT_FINGERPRINT_EXPRESSION, validateTokenFields, type TokenFields } from '../token-fields';
import { TOKEN_TYPES } from '../token-types';
import { toRedactedView, toTokenView } from '../token.view';
import { checkMaskEvaluates } from '../mask-check';
import { TenantSettingsClient } from '@coffer/bus';

/** An update as its handler passes it on; who updates is the operation's caller (caller()), read where it starts. */
export interface UpdateTokenCommand {
  id: string;
  patch: unknown;
}

/** What an idempotency record keeps of an update: the token the reply showed. */
interface UpdatedToken {
  id: string;
  /** deduplication answered with another token and the update was not applied */
  duplicate: boolean;
}

/** PATCH /tokens/{id}: RFC 7386 merge for data, mask and metadata; replace for the rest (spec table). */
@Injectable()
export class UpdateTokenUseCase {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly vault: TokenVault,
    private readonly settings: TenantSettingsClient,
  ) {}

  /**
   * With SVC-IDEMPOTENCY-KEY the operation dispatcher runs this in one transaction with the key's record (the
   * repository's transaction joins the ambient one); a retry gets the token as the caller may see it now (replayCodec).
   */
  execute(cmd: UpdateTokenCommand): Promise<TokenView> {
    const { principal, traceId } = asCaller();
    return this.apply(principal, traceId, cmd);
  }

  /**
   * What an idempotent update records (the token its reply showed) and how a repeat shows it now, to the caller the
   * codec is built for (in the request, by the dispatcher), captured now rather than read at replay.
   */
  replayCodec(id: string): ReplayCodec<TokenView, TokenView> {
    const principal = caller();
    return {
      reply: (view) => view,
      record: (view): UpdatedToken => ({ id: view.id, duplicate: view.id !== id }),
      replay: (recorded) => this.rerender(principal, recorded as UpdatedToken),
    };
  }

  private async rerender(principal: Principal, updated: UpdatedToken): Promise<TokenView> {
    const row = await this.tokens.find(principal.tenantId, updated.id);
    if (!row) throw conflict('The token this idempotency key updated no longer exists');
    if (updated.duplicate) return this.duplicateView(principal, row, readBudget());
    const data = await this.vault.decrypt(row.tenant_id, row.id, row.data_key_id, row.data_ciphertext);
    return toTokenView(row, data, writeReplyTransform(principal, 'token:update', { id: row.id, container: row.container }), readBudget());
  }

  private async apply(principal: Principal, traceId: string | undefined, cmd: UpdateTokenCommand): Promise<TokenView> {
    const tenantId = principal.tenantId;
    if (typeof cmd.patch !== 'object' || cmd.patch === null || Array.isArray(cmd.patch)) throw badRequest('The merge patch must be a JSON object');
    const patch = cmd.patch as Record<string, unknown>;
    const row = await this.tokens.find(tenantId, cmd.id);
    if (!row) throw notFound('token');
    const current = { id: row.id, container: row.container };
    if (!decideTokenAccess(principal, 'token:update', current).allowed) throw forbidden('The API key may not update this token');

    const errors = new FieldErrors();
    UpdateTokenPatch.check(patch, errors);
    if ('type' in patch && patch['type'] !== row.type) errors.add('type', 'cannot be changed');
    if ('id' in patch && patch['id'] !== row.id) errors.add('id', 'cannot be changed');
    let mask: unknown = row.mask;
    if ('mask' in patch) mask = patch['mask'] === null ? null : applyMergePatch(structuredClone(row.mask ?? {}), patch['mask'], 'mask');

    // Invariant 2: what others see of a token (its mask, container, fingerprint, search indexes) may only be changed
    // by a caller who may reveal it; otherwise an update-only key could read plaintext through a mask, or move a token
    // to where some reader reveals it.
    const exposure = exposureChanges(patch, row, mask);
    if (exposure.length && !mayReveal(principal, current))
      throw forbidden(`Changing ${exposure.join(', ')} needs the right to reveal this token (token:use, or token:read with reveal)`);

    const data = await this.vault.decrypt(tenantId, row.id, row.data_key_id, row.data_ciphertext);
    const input: Record<string, unknown> = {
      data: 'data' in patch ? applyMergePatch(structuredClone(data), patch['data'], 'data') : data,
      metadata: 'metadata' in patch ? applyMergePatch(structuredClone(row.metadata ?? {}), patch['metadata'], 'metadata') : row.metadata,
      containers: 'containers' in patch ? patch['containers'] : [row.container],
      search_indexes: 'search_indexes' in patch ? patch['search_indexes'] : row.search_indexes,
      fingerprint_expression: 'fingerprint_expression' in patch ? patch['fingerprint_expression'] : row.fingerprint_expression,
      deduplicate_token: 'deduplicate_token' in patch ? patch['deduplicate_token'] : row.dedup_key !== null ? true : null,
    };
    if ('expires_at' in patch) input['expires_at'] = patch['expires_at'];
    // an unchanged expiry is kept as stored (it may be an instant the text formats cannot express exactly)
    const fields = validateTokenFields(input, errors, row.type);
    if ('mask' in patch && mask !== null) for (const e of validateMask(mask)) errors.add(e.path, e.message);
    // every expression is evaluated, under the request's budget, before anything is written
    const budget = writeBudget();
    const premasked = fields && errors.empty ? checkMaskEvaluates(mask, fields.data, errors, budget) : undefined;
    const rendered = fields && errors.empty ? renderExpressions(fields, budget, errors) : null;
    errors.throwIfAny();
    if (!fields || !rendered) throw badRequest('The request is invalid');
    if (fields.container !== row.container && !decideTokenAccess(principal, 'token:create', { id: row.id, container: fields.container }).allowed)
      throw forbidden('The API key may not create tokens in the target container');
    fields.mask = mask;
    if (!('expires_at' in patch)) fields.expiresAt = row.expires_at;
    // Invariant 2 again, on what the patch resolves to: `null` means the type's default, which may index a token
    // whose creator gave it none (a `data:` search oracle for every key with token:search). Stored indexes are kept
    // as they are when the patch does not name them.
    const resolved = resolvedExposureChanges(fields, row).filter((f) => !exposure.includes(f));
    if (resolved.length && !mayReveal(principal, current))
      throw forbidden(`Changing ${resolved.join(', ')} needs the right to reveal this token (token:use, or token:read with reveal)`);

    const { fingerprint, searchDigests } = await this.vault.digests(tenantId, row.type, rendered);
    const deduplicate = fields.deduplicate ?? (await this.settings.get(principal, traceId ?? '')).deduplicate_tokens;
    if (deduplicate) {
      const other = await this.tokens.findByFingerprint(tenantId, row.type, fingerprint);
      if (other && other.id !== row.id) return this.duplicateView(principal, other, budget);
    }
    const { keyId, ciphertext } = await this.vault.encrypt(tenantId, row.id, fields.data);
    const next: TokenRow = {
      ...row,
      data_ciphertext: ciphertext,
      data_key_id: keyId,
      mask: fields.mask,
      fingerprint,
      fingerprint_expression: fields.fingerprintExpression,
      container: fields.container,
      metadata: fields.metadata,
      search_indexes: fields.searchIndexes,
      dedup_key: deduplicate ? `${row.type}:${fingerprint}` : null,
      expires_at: fields.expiresAt,
      modified_by: principal.applicationId,
      modified_at: new Date(),
    };
    // the update, its token.updated event and its audit record commit together: never a change nobody recorded
    const outcome = await this.tokens.update(tenantId, next, searchDigests, tokenUpdated(principal, traceId, next), {
      actorApplicationId: principal.applicationId ?? null,
      traceId: traceId ?? null,
    });
    if (outcome === 'missing') throw notFound('token');
    if (outcome === 'duplicate') {
      const other = await this.tokens.findByDedupKey(tenantId, `${row.type}:${fingerprint}`);
      if (other) return this.duplicateView(principal, other, budget);
      throw notFound('token');
    }
    const updated = outcome;
    return toTokenView(updated, fields.data, writeReplyTransform(principal, 'token:update', { id: row.id, container: updated.container }), budget, premasked);
  }

  /** docs/tokens.md: the update is not applied; the reply is the other token, redacted unless the caller may read it. */
  private async duplicateView(principal: Principal, other: TokenRow, budget: ExpressionBudget): Promise<TokenView> {
    const read = decideTokenAccess(principal, 'token:read', { id: other.id, container: other.container });
    if (!read.allowed) return toRedactedView(other);
    const data = await this.vault.decrypt(other.tenant_id, other.id, other.data_key_id, other.data_ciphertext);
    return toTokenView(other, data, read.transform, budget);
  }
}

/** The fields of a patch that would change what other principals can learn of the token. */
function exposureChanges(patch: Record<string, unknown>, row: TokenRow, mask: unknown): string[] {
  const changed: string[] = [];
  if ('mask' in patch && !sameJson(mask, row.mask ?? null)) changed.push('mask');
  if ('containers' in patch && !sameContainers(patch['containers'], row.container)) changed.push('containers');
  // null is the default: sending what is stored is not a change
  const fingerprint = patch['fingerprint_expression'] ?? DEFAULT_FINGERPRINT_EXPRESSION;
  if ('fingerprint_expression' in patch && fingerprint !== (row.fingerprint_expression ?? DEFAULT_FINGERPRINT_EXPRESSION))
    changed.push('fingerprint_expression');
  const indexes = patch['search_indexes'] ?? TOKEN_TYPES[row.type]?.searchIndexes ?? [];
  if ('search_indexes' in patch && !sameJson(indexes, row.search_indexes ?? [])) changed.push('search_indexes');
  return changed;
}

/** The same, on the fields a patch resolved to (defaults applied): what would actually be stored. */
function resolvedExposureChanges(fields: TokenFields, row: TokenRow): string[] {
  const changed: string[] = [];
  if (fields.fingerprintExpression !== (row.fingerprint_expression ?? DEFAULT_FINGERPRINT_EXPRESSION)) changed.push('fingerprint_expression');
  if (!sameJson(fields.searchIndexes, row.search_indexes ?? [])) changed.push('search_indexes');
  return changed;
}

function sameContainers(value: unknown, container: string): boolean {
  return Array.isArray(value) && value.length === 1 && typeof value[0] === 'string' && value[0].toLowerCase() === container;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
