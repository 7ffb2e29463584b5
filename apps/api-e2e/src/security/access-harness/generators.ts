/**
 * What the model-based security test generates: the vocabulary of its worlds (containers, token types, masks, search
 * indexes, fingerprint expressions, metadata patches, the `data:` probes), the specs of a run's world with their
 * fast-check arbitraries, and the fresh plaintexts of new tokens. No I/O.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import {
  DEFAULT_MASK,
  PUBLIC_PERMISSIONS,
  TOKEN_PERMISSIONS,
  TRANSFORMS,
  type Condition,
  type Grants,
  type Rule,
  type TokenPermission,
  type TokenState,
  type TokenType,
} from '../access-model';

// ---------------------------------------------------------------------------------------------------------------
// vocabulary of the generated worlds

export const RULE_CONTAINERS = ['/', '/a/', '/a/x/', '/b/', '/pci/', '/pci/high/', '/general/', '/pii/high/'];
export const TOKEN_CONTAINERS = ['/a/', '/a/x/', '/b/', '/pci/high/', '/general/high/', '/pii/high/'];
export const TOKEN_TYPES: TokenType[] = ['token', 'card', 'social_security_number'];
/** masks per type; index 0 = none given (the type's default) */
export const MASKS: Record<TokenType, unknown[]> = {
  token: [undefined, '{{ data | reveal_last: 2 }}', '{{ data }}', 'XXXX-{{ data | reveal_last: 3 }}'],
  card: [
    undefined,
    { number: '{{ data.number | reveal_last: 2 }}' },
    { number: '{{ data.number }}' },
    { number: '{{ data.number | reveal_last: 4 }}', expiration_year: '{{ data.expiration_year }}' },
  ],
  social_security_number: [undefined, '{{ data | reveal_last: 2 }}', '{{ data }}', 'XXX-XX-XXXX'],
};
export const effectiveMask = (type: TokenType, i: number) => MASKS[type][i % MASKS[type].length] ?? DEFAULT_MASK[type];
/**
 * Search indexes and fingerprint expressions per type, chosen at create or sent by a PATCH: expressions that try to
 * reach the plaintext (whole, a prefix, the last four) — what a key without reveal must not gain an oracle on.
 */
const PLAIN: Record<TokenType, string> = { token: 'data', card: 'data.number', social_security_number: 'data' };
export const INDEXES = Object.fromEntries(
  TOKEN_TYPES.map((type) => [type, [[], [`{{ ${PLAIN[type]} }}`], [`{{ ${PLAIN[type]} | slice: 0, 6 }}`], [`{{ ${PLAIN[type]} | last4 }}`]]]),
) as Record<TokenType, string[][]>;
export const FINGERPRINTS = Object.fromEntries(
  TOKEN_TYPES.map((type) => [type, [`{{ ${PLAIN[type]} | slice: 0, 6 }}`, `{{ metadata.note }}{{ ${PLAIN[type]} }}`, `{{ ${PLAIN[type]} | last4 }}`]]),
) as Record<TokenType, string[]>;
/** metadata patches: text that looks like an expression is stored literally, never evaluated; null removes the key */
export const METADATA_PATCHES: Array<Record<string, string | null>> = [
  { note: '{{ data }}' },
  { note: '{{ data | slice: 0, 6 }}' },
  { note: null },
  { note: 'plain note' },
];
/** what a `data:` search probes: the plaintext, a prefix, the last four, without dashes */
export type Probe = 'full' | 'slice6' | 'last4' | 'nodash';
export const PROBES: Probe[] = ['full', 'slice6', 'last4', 'nodash'];
export function probeValue(t: TokenState, probe: Probe): string {
  const plain = t.type === 'card' ? String((t.data as { number: string }).number) : String(t.data);
  if (probe === 'slice6') return plain.slice(0, 6);
  if (probe === 'last4') return plain.slice(-4);
  if (probe === 'nodash') return plain.split('-').join('');
  return plain;
}

export type SearchKind = 'all' | 'type:card' | 'type:token' | 'container:/a/';

export type ConditionSpec = Condition | { attribute: 'id'; operator: 'equals' | 'starts_with'; tokenRef: number };
export interface RuleSpec extends Omit<Rule, 'conditions'> {
  conditions?: ConditionSpec[];
}
export type GrantsSpec = { permissions: TokenPermission[] } | { rules: RuleSpec[] };

export interface AppSpec {
  type: 'public' | 'private';
  grants: Grants;
}
export interface TokenSpec {
  type: TokenType;
  container?: string;
  mask: number;
  /** index into INDEXES; undefined = none sent (the type's default) */
  indexes?: number;
  /** index into FINGERPRINTS; undefined = none sent (the default) */
  fingerprint?: number;
}
export interface WorldSpec {
  apps: AppSpec[];
  seeds: TokenSpec[];
  otherSeed: boolean;
  pendingSessions: number;
  /** sessions of app0 authorized at setup (through the same checks as the authorize command) */
  authorizedSessions: Array<{ by: number; grants: GrantsSpec }>;
}

/** grants as the trace prints them */
export const grantsText = (g: Grants | GrantsSpec) =>
  'permissions' in g
    ? `permissions ${JSON.stringify(g.permissions)}`
    : `rules ${(g.rules as Array<Rule | RuleSpec>)
        .map((r) => `{p${r.priority} ${r.container ?? JSON.stringify(r.conditions)} ${r.transform} ${r.permissions.join(',')}}`)
        .join(' ')}`;

// ---------------------------------------------------------------------------------------------------------------
// arbitraries

const ruleArb = (allowed: readonly TokenPermission[]) =>
  fc.record({
    priority: fc.integer({ min: 1, max: 40 }),
    container: fc.constantFrom(...RULE_CONTAINERS),
    transform: fc.constantFrom(...TRANSFORMS),
    permissions: fc.subarray([...allowed], { minLength: 1 }),
  });

export const grantsArb = (type: 'public' | 'private'): fc.Arbitrary<Grants> => {
  const allowed = type === 'public' ? PUBLIC_PERMISSIONS : TOKEN_PERMISSIONS;
  return fc.oneof(
    fc.record({ permissions: fc.subarray([...allowed]) }),
    fc.record({ rules: fc.uniqueArray(ruleArb(allowed), { minLength: 1, maxLength: 3, selector: (r) => r.priority }) }),
  );
};

const conditionArb: fc.Arbitrary<ConditionSpec> = fc.oneof(
  fc.record({
    attribute: fc.constant('container' as const),
    operator: fc.constantFrom('equals' as const, 'starts_with' as const),
    value: fc.constantFrom(...RULE_CONTAINERS, ...TOKEN_CONTAINERS),
  }),
  fc.record({ attribute: fc.constant('id' as const), operator: fc.constantFrom('equals' as const, 'starts_with' as const), tokenRef: fc.nat(50) }),
);

export const sessionGrantsArb: fc.Arbitrary<GrantsSpec> = fc.oneof(
  fc.record({ permissions: fc.subarray([...TOKEN_PERMISSIONS], { minLength: 1 }) }),
  fc.record({ rules: fc.uniqueArray(ruleArb(TOKEN_PERMISSIONS), { minLength: 1, maxLength: 3, selector: (r) => r.priority }) }),
  fc.record({
    rules: fc.uniqueArray(
      fc.record({
        priority: fc.integer({ min: 1, max: 40 }),
        conditions: fc.array(conditionArb, { minLength: 1, maxLength: 2 }),
        transform: fc.constantFrom(...TRANSFORMS),
        permissions: fc.subarray([...TOKEN_PERMISSIONS], { minLength: 1 }),
      }),
      { minLength: 1, maxLength: 2, selector: (r) => r.priority },
    ),
  }),
);

export const appSpecArb = (type: 'public' | 'private'): fc.Arbitrary<AppSpec> => grantsArb(type).map((grants) => ({ type, grants }));

export const tokenSpecArb: fc.Arbitrary<TokenSpec> = fc.record({
  type: fc.constantFrom(...TOKEN_TYPES),
  container: fc.option(fc.constantFrom(...TOKEN_CONTAINERS), { nil: undefined }),
  mask: fc.nat(3),
  // often explicit: `[]` on a type with default indexes is what a later patch must not undo
  indexes: fc.option(fc.nat(3), { nil: undefined, freq: 2 }),
  fingerprint: fc.option(fc.nat(2), { nil: undefined }),
});

export const worldSpecArb: fc.Arbitrary<WorldSpec> = fc.record({
  apps: fc
    .tuple(appSpecArb('public'), appSpecArb('private'), fc.array(fc.oneof(appSpecArb('public'), appSpecArb('private')), { maxLength: 2 }))
    .map(([a, b, rest]) => [a, b, ...rest]),
  seeds: fc.array(tokenSpecArb, { minLength: 1, maxLength: 3 }),
  otherSeed: fc.boolean(),
  pendingSessions: fc.nat(1),
  authorizedSessions: fc.array(fc.record({ by: fc.nat(3999), grants: sessionGrantsArb }), { maxLength: 2 }),
});

// ---------------------------------------------------------------------------------------------------------------
// the plaintexts of new tokens

function luhn16(prefix: string): string {
  let body = prefix;
  while (body.length < 15) body += String(randomBytes(1)[0] % 10);
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    let d = Number(body[14 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

export function newData(type: TokenType): unknown {
  const n = (max: number) => randomBytes(4).readUInt32BE(0) % max;
  if (type === 'card') return { number: luhn16('4'), expiration_month: 1 + n(12), expiration_year: 2030 + n(6) };
  if (type === 'social_security_number') {
    const area = String(100 + n(500)).padStart(3, '0');
    return `${area === '666' ? '667' : area}-${String(10 + n(90))}-${String(1000 + n(9000))}`;
  }
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return `sec${Array.from({ length: 12 }, () => alphabet[n(alphabet.length)]).join('')}`;
}

/** the strings that must never appear outside a checked `data` */
export function secretsOf(data: unknown): string[] {
  if (typeof data === 'string') return [data];
  if (data && typeof data === 'object' && typeof (data as { number?: unknown }).number === 'string') return [(data as { number: string }).number];
  return [];
}
