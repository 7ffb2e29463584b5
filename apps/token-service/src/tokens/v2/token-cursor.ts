import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { badRequest } from '@coffer/contracts';
import { open, seal } from '@coffer/crypto';
import type { KeysetPosition } from '../token.repository';
import { TokenVault } from '../token-vault';

/** Longer than any cursor this service writes (a 400-character id sealed and base64url-encoded stays under 700). */
export const MAX_CURSOR_LENGTH = 1024;

const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * The `start` / `next` cursors of the v2 token lists: the position of the last row of a page, sealed with
 * AES-256-GCM under a key derived from the tenant's index key. Opaque (nothing of a token is readable in it),
 * bound by the AAD to the tenant and to the exact list or search it came from (another query, tenant or a changed
 * byte is a 400, never a 500 and never a different result set), and valid on every replica (no server state).
 * Access is still decided on every page: a cursor only says where to continue, never what may be seen.
 */
@Injectable()
export class TokenCursors {
  constructor(private readonly vault: TokenVault) {}

  async seal(tenantId: string, scope: CursorScope, position: KeysetPosition): Promise<string> {
    const key = await this.key(tenantId);
    return seal(key, Buffer.from(JSON.stringify([position.at, position.id]), 'utf8'), aad(scope)).toString('base64url');
  }

  /** `''` (or absent) is the first page (null); anything that is not a cursor of this very list is a 400. */
  async open(tenantId: string, scope: CursorScope, start: string | undefined): Promise<KeysetPosition | null> {
    if (start === undefined || start === '') return null;
    const invalid = () => badRequest('The cursor is invalid', { start: ['is not a cursor of this list: start again without start'] });
    if (start.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(start)) throw invalid();
    const key = await this.key(tenantId);
    let parsed: unknown;
    try {
      parsed = JSON.parse(open(key, Buffer.from(start, 'base64url'), aad(scope)).toString('utf8'));
    } catch {
      throw invalid();
    }
    if (!Array.isArray(parsed) || parsed.length !== 2) throw invalid();
    const [at, id] = parsed as unknown[];
    if (typeof at !== 'string' || !ISO_MICROS.test(at) || typeof id !== 'string' || id.length > 400) throw invalid();
    return { at, id };
  }

  private async key(tenantId: string): Promise<Buffer> {
    const hmac = await this.vault.keyring.digester(tenantId);
    return Buffer.from(hmac('coffer:v2-token-cursor'), 'hex');
  }
}

/** What a cursor belongs to: the operation and its filters (never the page size, which may change between pages). */
export interface CursorScope {
  operation: 'list' | 'search';
  filter: unknown;
}

function aad(scope: CursorScope): Buffer {
  const digest = createHash('sha256')
    .update(JSON.stringify([scope.operation, scope.filter]))
    .digest('hex');
  return Buffer.from(`token-cursor\u0000${digest}`, 'utf8');
}
