import { FieldErrors, JSON_LIMIT_MESSAGES, RESERVED_KEYS, findJsonLimitViolation, unstorableText } from '@coffer/contracts';
import { CONTAINER_PATTERN } from '@coffer/auth';
import { ExpressionError, isExpression, validateMask, validateTemplate } from '@coffer/expression';
import { TOKEN_TYPES } from './token-types';
import { parseExpiresAt } from './expires-at';

/** docs/tokens.md limits */
export const LIMITS = {
  idMin: 3,
  idMax: 400,
  metadataKeys: 100,
  metadataKeyLength: 200,
  metadataValueLength: 2000,
  searchIndexes: 10,
  expressionLength: 400,
  dataBytes: 256 * 1024,
} as const;

export const DEFAULT_FINGERPRINT_EXPRESSION = '{{ data | stringify }}';
/**
 * PostgreSQL stores no U+0000 and no unpaired surrogate in text or jsonb: every stored field but the (encrypted) data
 * refuses them with a 400 (unstorableText says why).
 */
const FORBIDDEN_ID_CHARS = /[#/\\+?[\]|&=%<>{}^]/;

/** The validated, normalised fields of a token (create, or the result of a merge patch). */
export interface TokenFields {
  type: string;
  data: unknown;
  /** null: the token has no mask (mask transform → redact) */
  mask: unknown;
  container: string;
  metadata: Record<string, string>;
  searchIndexes: string[];
  fingerprintExpression: string;
  deduplicate: boolean | null;
  expiresAt: Date | null;
}

export function validateTokenId(id: unknown, errors: FieldErrors): { literal?: string; expression?: string } {
  if (typeof id !== 'string') {
    errors.add('id', 'must be a string');
    return {};
  }
  const unstorable = unstorableText(id);
  if (unstorable) {
    errors.add('id', unstorable);
    return {};
  }
  if (isExpression(id)) {
    if (id.length > LIMITS.idMax) errors.add('id', `must be at most ${LIMITS.idMax} characters`);
    else checkTemplate(id, 'data', 'id', errors);
    return { expression: id };
  }
  if (id.length < LIMITS.idMin || id.length > LIMITS.idMax) errors.add('id', `must be between ${LIMITS.idMin} and ${LIMITS.idMax} characters`);
  else if (FORBIDDEN_ID_CHARS.test(id) || /\s/.test(id)) errors.add('id', 'must not contain whitespace or any of # / \\ + ? [ ] | & = % < > { } ^');
  return { literal: id };
}

function checkTemplate(template: string, scope: 'data' | 'data+metadata', path: string, errors: FieldErrors) {
  try {
    validateTemplate(template, scope);
  } catch (err) {
    errors.add(path, err instanceof ExpressionError ? err.message : 'is not a valid expression');
  }
}

export function validateTokenFields(input: Record<string, unknown>, errors: FieldErrors, existingType?: string): TokenFields | null {
  const type = existingType ?? input['type'];
  const def = typeof type === 'string' ? TOKEN_TYPES[type] : undefined;
  if (!existingType) {
    if (typeof type !== 'string' || type === '') errors.add('type', 'is required');
    else if (!def) errors.add('type', `must be one of ${Object.keys(TOKEN_TYPES).join(', ')}`);
  }

  const data = input['data'];
  if (data === undefined || data === null) errors.add('data', 'is required');
  else {
    const size = Buffer.byteLength(JSON.stringify(data));
    if (size > LIMITS.dataBytes) errors.add('data', `must be at most ${LIMITS.dataBytes} bytes serialized`);
    else def?.validate(data, errors);
  }

  let mask: unknown = def?.mask ?? null;
  if (input['mask'] !== undefined && input['mask'] !== null) {
    mask = input['mask'];
    const nul = findJsonLimitViolation(mask, { rejectNul: true, rejectReservedKeys: true }, 'mask');
    if (nul) errors.add(nul.path, nul.message);
    else for (const e of validateMask(mask)) errors.add(e.path, e.message);
  }

  let container = def?.container ?? '/general/high/';
  const containers = input['containers'];
  if (containers !== undefined && containers !== null) {
    if (!Array.isArray(containers) || containers.length !== 1) errors.add('containers', 'must hold exactly one container path');
    else if (typeof containers[0] !== 'string' || !CONTAINER_PATTERN.test(containers[0]))
      errors.add('containers[0]', 'must be a path like /pci/high/ (letters, digits, _ and -, each segment followed by /)');
    else container = containers[0].toLowerCase();
  }

  // no prototype: a key is the client's (`toString`), never a member of Object.prototype
  const metadata: Record<string, string> = Object.create(null);
  const meta = input['metadata'];
  if (meta !== undefined && meta !== null) {
    if (typeof meta !== 'object' || Array.isArray(meta)) errors.add('metadata', 'must be an object of string values');
    else {
      const entries = Object.entries(meta as Record<string, unknown>);
      if (entries.length > LIMITS.metadataKeys) errors.add('metadata', `must have at most ${LIMITS.metadataKeys} keys`);
      for (const [k, v] of entries) {
        const badKey = unstorableText(k);
        if (badKey) errors.add('metadata', `keys ${badKey}`);
        else if (RESERVED_KEYS.has(k)) errors.add(`metadata.${k}`, JSON_LIMIT_MESSAGES['reserved-key']);
        else if (k.length === 0 || k.length > LIMITS.metadataKeyLength) errors.add(`metadata.${k}`, `keys must be 1 to ${LIMITS.metadataKeyLength} characters`);
        else if (typeof v !== 'string') errors.add(`metadata.${k}`, 'must be a string');
        else if (v.length > LIMITS.metadataValueLength) errors.add(`metadata.${k}`, `must be at most ${LIMITS.metadataValueLength} characters`);
        else if (unstorableText(v)) errors.add(`metadata.${k}`, unstorableText(v) as string);
        else metadata[k] = v;
      }
    }
  }

  let searchIndexes = def?.searchIndexes ?? [];
  const si = input['search_indexes'];
  if (si !== undefined && si !== null) {
    if (!Array.isArray(si)) errors.add('search_indexes', 'must be an array of expressions');
    else if (si.length > LIMITS.searchIndexes) errors.add('search_indexes', `must have at most ${LIMITS.searchIndexes} entries`);
    else {
      si.forEach((s, i) => {
        if (typeof s !== 'string' || !s) errors.add(`search_indexes[${i}]`, 'must be a non-empty string');
        else if (s.length > LIMITS.expressionLength) errors.add(`search_indexes[${i}]`, `must be at most ${LIMITS.expressionLength} characters`);
        else if (unstorableText(s)) errors.add(`search_indexes[${i}]`, unstorableText(s) as string);
        else checkTemplate(s, 'data', `search_indexes[${i}]`, errors);
      });
      searchIndexes = si as string[];
    }
  }

  let fingerprintExpression = DEFAULT_FINGERPRINT_EXPRESSION;
  const fe = input['fingerprint_expression'];
  if (fe !== undefined && fe !== null) {
    if (typeof fe !== 'string' || !fe) errors.add('fingerprint_expression', 'must be a non-empty string');
    else if (fe.length > LIMITS.expressionLength) errors.add('fingerprint_expression', `must be at most ${LIMITS.expressionLength} characters`);
    else if (unstorableText(fe)) errors.add('fingerprint_expression', unstorableText(fe) as string);
    else {
      checkTemplate(fe, 'data+metadata', 'fingerprint_expression', errors);
      fingerprintExpression = fe;
    }
  }

  let deduplicate: boolean | null = null;
  const dd = input['deduplicate_token'];
  if (dd !== undefined && dd !== null) {
    if (typeof dd !== 'boolean') errors.add('deduplicate_token', 'must be a boolean');
    else deduplicate = dd;
  }

  let expiresAt: Date | null = null;
  const ea = input['expires_at'];
  if (ea !== undefined && ea !== null) {
    const parsed = typeof ea === 'string' ? parseExpiresAt(ea) : null;
    if (!parsed) errors.add('expires_at', 'must be a date-time (M/D/YYYY h:mm:ss AM/PM +hh:mm), a date (M/D/YYYY) or ISO 8601');
    else if (parsed.getTime() <= Date.now()) errors.add('expires_at', 'must be in the future');
    else expiresAt = parsed;
  }

  if (!errors.empty || !def) return null;
  return {
    type: type as string,
    data,
    mask,
    container,
    metadata,
    searchIndexes,
    fingerprintExpression,
    deduplicate,
    expiresAt,
  };
}
