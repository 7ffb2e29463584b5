import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { FieldErrors, actorOf, conflict, newEvent, notFound, type Principal, type TokenIntentView } from '@coffer/contracts';
import { AuditLog } from '@coffer/db';
import { asCaller } from '@coffer/operations';
import { tokenActs } from '../audit/audit.repository';
import { TokenVault, renderExpressions } from '../tokens/token-vault';
import { validateTokenFields } from '../tokens/token-fields';
import { writeBudget } from '../tokens/expression-budgets';
import { TokenIntentRepository, type TokenIntentRow } from './token-intent.repository';
import { intentDetails } from './intent-details';

/** The mirrored service's default, with no way to ask for another in a request (docs/token-intents.md). */
export const TOKEN_INTENT_TTL_MS = 24 * 60 * 60 * 1000;

/** A token create that names an intent: the create's body with the intent's type and data, and how to consume it. */
export interface IntentConversion {
  body: Record<string, unknown>;
  /**
   * marks the intent converted (its data cleared) and audits it as `principal`'s act, in the caller's transaction; 409
   * when another conversion won. The converting use case passes the caller and trace id it read where it started.
   */
  consume(principal: Principal, traceId: string | undefined): Promise<void>;
}

/**
 * Token intents (docs/token-intents.md): data validated as a token of the same type, encrypted under the tenant's
 * data key, with the fingerprint a token of that type gets by default; kept 24 hours unless converted or deleted.
 * No reply ever holds the data: only the card or bank details a token's mask would show anyway.
 */
@Injectable()
export class TokenIntentsUseCase {
  constructor(
    private readonly intents: TokenIntentRepository,
    private readonly vault: TokenVault,
    private readonly audit: AuditLog,
  ) {}

  async create(body: unknown): Promise<TokenIntentView> {
    const { principal, traceId } = asCaller();
    const errors = new FieldErrors();
    if (typeof body !== 'object' || body === null || Array.isArray(body)) errors.add('body', 'must be a JSON object');
    const input = (errors.empty ? body : {}) as Record<string, unknown>;
    // only the two members of the request: a token's other fields (mask, container, …) are chosen at conversion
    const fields = errors.empty ? validateTokenFields({ type: input['type'], data: input['data'] }, errors) : null;
    const rendered = fields ? renderExpressions(fields, writeBudget(), errors) : null;
    errors.throwIfAny();
    if (!fields || !rendered) throw new Error('validated intent fields are missing');

    const tenantId = principal.tenantId;
    const id = randomUUID();
    const { fingerprint } = await this.vault.digests(tenantId, fields.type, rendered);
    const { keyId, ciphertext } = await this.vault.encryptIntent(tenantId, id, fields.data);
    const createdAt = new Date();
    const row: TokenIntentRow = {
      tenant_id: tenantId,
      id,
      type: fields.type,
      data_ciphertext: ciphertext,
      data_key_id: keyId,
      fingerprint,
      created_by: principal.applicationId ?? null,
      created_at: createdAt,
      expires_at: new Date(createdAt.getTime() + TOKEN_INTENT_TTL_MS),
    };
    const view = intentView(row, fields.data);
    // the intent, its audit record and its event commit together (with the idempotency key's record, when there is
    // one); the event shows the view as its reply does: card or bank details, never data
    await this.intents.insert(
      row,
      tokenActs(principal, traceId, 'create', 'token_intent', id),
      newEvent('token-intent.created', tenantId, traceId, actorOf(principal), { token_intent: view }),
    );
    return view;
  }

  async get(id: string): Promise<TokenIntentView> {
    const { principal, traceId } = asCaller();
    const row = await this.intents.findLive(principal.tenantId, id);
    if (!row) throw notFound('token intent');
    const data = await this.vault.decryptIntent(row.tenant_id, row.id, row.data_key_id, row.data_ciphertext);
    await this.audit.append(...tokenActs(principal, traceId, 'read', 'token_intent', row.id));
    return intentView(row, data);
  }

  async delete(id: string): Promise<void> {
    const { principal, traceId } = asCaller();
    const deleted = await this.intents.deleteLive(
      principal.tenantId,
      id,
      tokenActs(principal, traceId, 'delete', 'token_intent', id),
      newEvent('token-intent.deleted', principal.tenantId, traceId, actorOf(principal), { token_intent: { id } }),
    );
    if (!deleted) throw notFound('token intent');
  }

  /**
   * A token create naming `token_intent_id` (null for any other body): the intent's type and data replace the body's,
   * which may not carry data of its own, nor a type other than the intent's. An intent already converted is a 409,
   * one that never existed, expired or was deleted a 404. The create is then judged as any other, under the
   * converting caller's access rules. `principal` is that caller, as the converting use case (a create, a tokenize)
   * read it where it started.
   */
  async conversion(principal: Principal, body: unknown): Promise<IntentConversion | null> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
    const input = body as Record<string, unknown>;
    const intentId = input['token_intent_id'];
    if (intentId === undefined || intentId === null) return null;
    const errors = new FieldErrors();
    if (typeof intentId !== 'string' || !intentId) errors.add('token_intent_id', 'must be the id of a token intent');
    if (input['data'] !== undefined && input['data'] !== null) errors.add('data', 'must not be given with token_intent_id: the data is the intent’s');
    errors.throwIfAny();
    const row = await this.intents.findLive(principal.tenantId, intentId as string);
    if (!row) throw (await this.intents.wasConverted(principal.tenantId, intentId as string)) ? alreadyConverted() : notFound('token intent');
    if (input['type'] !== undefined && input['type'] !== null && input['type'] !== row.type) {
      errors.add('type', `must be the token intent's type (${row.type})`);
      errors.throwIfAny();
    }
    const data = await this.vault.decryptIntent(row.tenant_id, row.id, row.data_key_id, row.data_ciphertext);
    const { token_intent_id: _consumed, ...rest } = input;
    return {
      body: { ...rest, type: row.type, data },
      consume: async (by, traceId) => {
        const outcome = await this.intents.consume(by.tenantId, row.id);
        if (outcome === 'already-converted') throw alreadyConverted();
        if (outcome === 'none') throw notFound('token intent');
        await this.audit.append(...tokenActs(by, traceId, 'convert', 'token_intent', row.id));
      },
    };
  }
}

/** The mirrored service's answer to a second conversion: a conflict with the intent's state (POST /tokens answers 409). */
const alreadyConverted = () => conflict('The token intent was already converted to a token');

/** An intent as replies show it: never its data, only the details a card or bank token's mask would show anyway. */
export function intentView(row: TokenIntentRow, data: unknown): TokenIntentView {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    type: row.type,
    fingerprint: row.fingerprint,
    ...intentDetails(row.type, data),
    created_by: row.created_by ?? undefined,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
  };
}
