import { Injectable } from '@nestjs/common';
import { apply as mergePatch } from 'json-merge-patch';
import { FieldErrors, badRequest, forbidden, notFound, type Principal, type TokenView } from '@coffer/contracts';
import { decideTokenAccess } from '@coffer/auth';
import { validateMask } from '@coffer/expression';
import { TenantSettingsClient } from '../../tenant-settings/tenant-settings.client';
import { AuditRepository } from '../../audit/audit.repository';
import { TokenRepository, type TokenRow } from '../token.repository';
import { TokenVault } from '../token-vault';
import { validateTokenFields } from '../token-fields';
import { TOKEN_TYPES } from '../token-types';
import { toRedactedView, toTokenView } from '../token.view';

const MERGED = ['data', 'mask', 'metadata'] as const;
const REPLACED = ['containers', 'search_indexes', 'fingerprint_expression', 'deduplicate_token', 'expires_at'] as const;

export interface UpdateTokenCommand {
  principal: Principal;
  traceId: string;
  id: string;
  patch: unknown;
}

/** PATCH /tokens/{id}: RFC 7386 merge for data, mask and metadata; replace for the rest (spec table). */
@Injectable()
export class UpdateTokenUseCase {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly vault: TokenVault,
    private readonly settings: TenantSettingsClient,
    private readonly audit: AuditRepository,
  ) {}

  async execute(cmd: UpdateTokenCommand): Promise<TokenView> {
    const { principal } = cmd;
    const tenantId = principal.tenantId;
    if (typeof cmd.patch !== 'object' || cmd.patch === null || Array.isArray(cmd.patch))
      throw badRequest('The merge patch must be a JSON object');
    const patch = cmd.patch as Record<string, unknown>;
    const row = await this.tokens.find(tenantId, cmd.id);
    if (!row) throw notFound('token');
    if (!decideTokenAccess(principal, 'token:update', { id: row.id, container: row.container }).allowed)
      throw forbidden('The API key may not update this token');

    const errors = new FieldErrors();
    for (const key of Object.keys(patch)) {
      if (key === 'type' && patch['type'] !== row.type) errors.add('type', 'cannot be changed');
      else if (key === 'id' && patch['id'] !== row.id) errors.add('id', 'cannot be changed');
      else if (!['type', 'id', ...MERGED, ...REPLACED].includes(key)) errors.add(key, 'is not a field that can be updated');
    }

    const data = await this.vault.decrypt(tenantId, row.id, row.data_key_id, row.data_ciphertext);
    const input: Record<string, unknown> = {
      data: 'data' in patch ? mergePatch(structuredClone(data), patch['data']) : data,
      metadata: 'metadata' in patch ? mergePatch(structuredClone(row.metadata ?? {}), patch['metadata']) : row.metadata,
      containers: 'containers' in patch ? patch['containers'] : [row.container],
      search_indexes: 'search_indexes' in patch ? patch['search_indexes'] : row.search_indexes,
      fingerprint_expression: 'fingerprint_expression' in patch ? patch['fingerprint_expression'] : row.fingerprint_expression,
      deduplicate_token: 'deduplicate_token' in patch ? patch['deduplicate_token'] : row.dedup_key !== null ? true : null,
    };
    if ('expires_at' in patch) input['expires_at'] = patch['expires_at'];
    // an unchanged expiry is kept as stored (it may be an instant the text formats cannot express exactly)
    const fields = validateTokenFields(input, errors, row.type);
    let mask: unknown = row.mask;
    if ('mask' in patch) {
      mask = patch['mask'] === null ? null : mergePatch(structuredClone(row.mask ?? {}), patch['mask']);
      if (mask !== null) for (const e of validateMask(mask)) errors.add(e.path, e.message);
    }
    errors.throwIfAny();
    if (!fields) throw badRequest('The request is invalid');
    fields.mask = mask;
    if (!('expires_at' in patch)) fields.expiresAt = row.expires_at;
    if (!('search_indexes' in patch) && !row.search_indexes.length) fields.searchIndexes = TOKEN_TYPES[row.type]?.searchIndexes ?? [];

    const { fingerprint, searchDigests } = await this.vault.digests(tenantId, fields);
    const deduplicate = fields.deduplicate ?? (await this.settings.get(principal, cmd.traceId)).deduplicate_tokens;
    if (deduplicate) {
      const other = await this.tokens.findByFingerprint(tenantId, row.type, fingerprint);
      if (other && other.id !== row.id) return this.duplicateView(principal, other);
    }
    const { keyId, ciphertext } = await this.vault.encrypt(tenantId, row.id, fields.data);
    const outcome = await this.tokens.update(
      tenantId,
      {
        id: row.id,
        type: row.type,
        dataCiphertext: ciphertext,
        dataKeyId: keyId,
        mask: fields.mask,
        fingerprint,
        fingerprintExpression: fields.fingerprintExpression,
        container: fields.container,
        metadata: fields.metadata,
        searchIndexes: fields.searchIndexes,
        dedupKey: deduplicate ? `${row.type}:${fingerprint}` : null,
        expiresAt: fields.expiresAt,
        createdBy: row.created_by,
        createdAt: row.created_at,
        modifiedBy: principal.applicationId,
      },
      searchDigests,
    );
    if (outcome === 'missing') throw notFound('token');
    if (outcome === 'duplicate') {
      const other = await this.tokens.findByDedupKey(tenantId, `${row.type}:${fingerprint}`);
      if (other) return this.duplicateView(principal, other);
      throw notFound('token');
    }
    await this.audit.record(tenantId, [{ actorApplicationId: principal.applicationId, operation: 'update', entityType: 'token', entityId: row.id, traceId: cmd.traceId }]);
    const updated = (await this.tokens.find(tenantId, row.id)) as TokenRow;
    const decision = decideTokenAccess(principal, 'token:update', { id: row.id, container: updated.container });
    return toTokenView(updated, fields.data, decision.allowed ? decision.transform : 'redact');
  }

  /** conventions §5: the update is not applied; the reply is the other token, redacted unless the caller may read it. */
  private async duplicateView(principal: Principal, other: TokenRow): Promise<TokenView> {
    const read = decideTokenAccess(principal, 'token:read', { id: other.id, container: other.container });
    if (!read.allowed) return toRedactedView(other);
    const data = await this.vault.decrypt(other.tenant_id, other.id, other.data_key_id, other.data_ciphertext);
    return toTokenView(other, data, read.transform);
  }
}
