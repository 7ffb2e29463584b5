// Card rules, run inside the frames only: brand detection, Luhn, number formatting, expiry and security code.
// Brand names and ranges follow Basis Theory's (and credit-card-type's) so change events carry the same names.

import { luhnValid } from '@coffer/checksums';
import type { CardBrand } from '../../static/elements';

export type { CardBrand };

const brand = (
  type: string,
  niceType: string,
  patterns: CardBrand['patterns'],
  gaps: number[],
  lengths: number[],
  codeName: string,
  codeSize = 3,
): CardBrand => ({ type, niceType, patterns, gaps, lengths, code: { name: codeName, size: codeSize } });

const G4 = [4, 8, 12];

export const CARD_BRANDS: readonly CardBrand[] = [
  brand('visa', 'Visa', [4], G4, [16, 18, 19], 'CVV'),
  brand('mastercard', 'Mastercard', [[51, 55], [2221, 2229], [223, 229], [23, 26], [270, 271], 2720], G4, [16], 'CVC'),
  brand('american-express', 'American Express', [34, 37], [4, 10], [15], 'CID', 4),
  brand('diners-club', 'Diners Club', [[300, 305], 36, 38, 39], [4, 10], [14, 16, 19], 'CVV'),
  brand('discover', 'Discover', [6011, [644, 649], 65], G4, [16, 19], 'CID'),
  brand('jcb', 'JCB', [2131, 1800, [3528, 3589]], G4, [16, 17, 18, 19], 'CVV'),
  brand(
    'unionpay',
    'UnionPay',
    [
      620,
      [62100, 62182],
      [62184, 62187],
      [62185, 62197],
      [62200, 62205],
      [622010, 622999],
      622018,
      [62207, 62209],
      [623, 626],
      6270,
      6272,
      6276,
      [627700, 627779],
      [627781, 627799],
      [6282, 6289],
      6291,
      6292,
      810,
      [8110, 8171],
    ],
    G4,
    [14, 15, 16, 17, 18, 19],
    'CVN',
  ),
  brand('maestro', 'Maestro', [493698, [500000, 504174], [504176, 506698], [506779, 508999], [56, 59], 63, 67, 6], G4, [12, 13, 14, 15, 16, 17, 18, 19], 'CVC'),
  brand(
    'elo',
    'Elo',
    [
      401178,
      401179,
      438935,
      457631,
      457632,
      431274,
      451416,
      457393,
      504175,
      [506699, 506778],
      [509000, 509999],
      627780,
      636297,
      636368,
      [650031, 650033],
      [650035, 650051],
      [650405, 650439],
      [650485, 650538],
      [650541, 650598],
      [650700, 650718],
      [650720, 650727],
      [650901, 650978],
      [651652, 651679],
      [655000, 655019],
      [655021, 655058],
    ],
    G4,
    [16],
    'CVE',
  ),
  brand('mir', 'Mir', [[2200, 2204]], G4, [16, 17, 18, 19], 'CVP2'),
  brand('hiper', 'Hiper', [637095, 63737423, 63743358, 637568, 637599, 637609, 637612], G4, [16], 'CVC'),
  brand('hipercard', 'Hipercard', [606282], G4, [16], 'CVC'),
];

export const UNKNOWN_BRAND = 'unknown';

/** The brand list an element uses: the `cardTypes` option (brand ids or full definitions), else every brand. */
/**
 * A page may name brands of its own (`cardTypes`), but the brand of a number is reported to the page as it is typed,
 * so a brand's prefixes may not be longer than the BIN the page is told anyway (8 digits): a brand for every longer
 * prefix would read the number out digit by digit. At most this many brands of a page's own are taken.
 */
export const MAX_CUSTOM_BRANDS = 20;
export const MAX_CUSTOM_PREFIX_DIGITS = 8;

function prefixOk(p: unknown): boolean {
  const ok = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0 && String(n).length <= MAX_CUSTOM_PREFIX_DIGITS;
  return Array.isArray(p) ? p.length === 2 && ok(p[0]) && ok(p[1]) && String(p[0]).length === String(p[1]).length : ok(p);
}

function customBrand(t: CardBrand): CardBrand | undefined {
  if (typeof t.type !== 'string' || !Array.isArray(t.patterns) || !Array.isArray(t.lengths)) return undefined;
  if (!t.patterns.length || !t.patterns.every(prefixOk)) return undefined;
  if (!t.lengths.every((n) => Number.isInteger(n) && n >= 12 && n <= 19)) return undefined;
  const size = t.code && Number.isInteger(t.code.size) && t.code.size >= 3 && t.code.size <= 4 ? t.code.size : 3;
  return {
    type: t.type,
    niceType: typeof t.niceType === 'string' ? t.niceType : t.type,
    patterns: t.patterns,
    lengths: t.lengths,
    gaps: Array.isArray(t.gaps) && t.gaps.every((n) => Number.isInteger(n) && n > 0 && n < 19) ? t.gaps : G4,
    code: { name: typeof t.code?.name === 'string' ? t.code.name : 'CVC', size },
  };
}

export function brandsFor(cardTypes?: readonly (string | CardBrand)[]): readonly CardBrand[] {
  if (!cardTypes || cardTypes.length === 0) return CARD_BRANDS;
  const out: CardBrand[] = [];
  let custom = 0;
  for (const t of cardTypes) {
    if (typeof t === 'string') {
      const known = CARD_BRANDS.find((b) => b.type === t);
      if (known) out.push(known);
    } else if (t && typeof t === 'object' && custom < MAX_CUSTOM_BRANDS) {
      const b = customBrand(t);
      if (b) {
        out.push(b);
        custom++;
      }
    }
  }
  return out;
}

export const digitsOnly = (s: string): string => s.replace(/\D+/g, '');

/** 'full': the number starts with the pattern; 'partial': the number is shorter than the pattern and could still match. */
function matchPattern(digits: string, pattern: number | [number, number]): { kind: 'full' | 'partial'; strength: number } | null {
  const [min, max] = typeof pattern === 'number' ? [String(pattern), String(pattern)] : [String(pattern[0]), String(pattern[1])];
  const len = min.length;
  if (digits.length >= len) {
    const head = Number(digits.slice(0, len));
    return head >= Number(min) && head <= Number(max) ? { kind: 'full', strength: len } : null;
  }
  const n = digits.length;
  const head = Number(digits);
  return head >= Number(min.slice(0, n)) && head <= Number(max.slice(0, n)) ? { kind: 'partial', strength: len } : null;
}

/**
 * The brand of a (partial) number: the candidate matching the most typed digits (a prefix pattern counts its length,
 * a pattern longer than the digits typed so far counts those digits); on a tie, a complete prefix wins.
 */
export function detectBrand(number: string, brands: readonly CardBrand[] = CARD_BRANDS): CardBrand | undefined {
  const digits = digitsOnly(number);
  if (!digits) return undefined;
  let best: { brand: CardBrand; strength: number; full: boolean } | undefined;
  for (const b of brands) {
    for (const p of b.patterns) {
      const m = matchPattern(digits, p);
      if (!m) continue;
      const strength = Math.min(m.strength, digits.length);
      const full = m.kind === 'full';
      if (!best || strength > best.strength || (strength === best.strength && full && !best.full)) best = { brand: b, strength, full };
    }
  }
  return best?.brand;
}

/** A number of digits only (no separators) whose Luhn check digit is right. */
export function luhn(number: string): boolean {
  return /^\d+$/.test(number) && luhnValid(number);
}

const DEFAULT_GAPS = G4;
const UNKNOWN_MAX = 19;

export function maxNumberLength(b?: CardBrand): number {
  return b ? Math.max(...b.lengths) : UNKNOWN_MAX;
}

/** Digits grouped with spaces at the brand's gaps, cut at its longest length. */
export function formatCardNumber(input: string, b?: CardBrand): string {
  const digits = digitsOnly(input).slice(0, maxNumberLength(b));
  const gaps = b?.gaps ?? DEFAULT_GAPS;
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && gaps.includes(i)) out += ' ';
    out += digits[i];
  }
  return out;
}

export type FieldErrorType = 'incomplete' | 'invalid';

export interface FieldState {
  empty: boolean;
  complete: boolean;
  /** no error: complete, or incomplete so far without a known mistake */
  valid: boolean;
  error?: FieldErrorType;
}

export interface NumberState extends FieldState {
  digits: string;
  brand: string;
  brandInfo?: CardBrand;
  last4?: string;
  bin?: string;
}

export interface NumberRules {
  cardTypes?: readonly (string | CardBrand)[];
  skipLuhnValidation?: boolean;
}

/** The state of a card number. With `cardTypes`, a number of another brand is invalid. */
export function checkCardNumber(input: string, rules: NumberRules = {}): NumberState {
  const digits = digitsOnly(input);
  const restricted = !!rules.cardTypes && rules.cardTypes.length > 0;
  const brands = brandsFor(rules.cardTypes);
  const b = detectBrand(digits, brands);
  const base = { digits, brand: b?.type ?? UNKNOWN_BRAND, brandInfo: b };
  if (!digits) return { ...base, empty: true, complete: false, valid: true };
  const lengths = b ? b.lengths : [13, 14, 15, 16, 17, 18, 19];
  const max = Math.max(...lengths);
  const luhnOk = rules.skipLuhnValidation || luhn(digits);
  const lengthOk = lengths.includes(digits.length);
  const complete = lengthOk && luhnOk && (!restricted || !!b);
  const details = complete ? { last4: digits.slice(-4), bin: digits.slice(0, digits.length >= 16 ? 8 : 6) } : {};
  let error: FieldErrorType | undefined;
  if (!complete) {
    const invalid = (restricted && !b && digits.length >= 1) || digits.length > max || (digits.length === max && !luhnOk);
    error = invalid ? 'invalid' : 'incomplete';
  }
  return { ...base, ...details, empty: false, complete, valid: error !== 'invalid', error };
}

/** Typing help for MM/YY: "4" → "04/", "1/" → "01/", "12" → "12/", and autofilled "12/2030" → "12/30". */
export function formatExpiry(input: string, previous = ''): string {
  const deleting = input.length < previous.length;
  const long = /^\s*(\d{1,2})\s*[/-]\s*(\d{4})\s*$/.exec(input);
  if (long) return `${long[1].padStart(2, '0')}/${long[2].slice(2)}`;
  let digits = digitsOnly(input);
  if (/^\s*\d\s*[/-]/.test(input) || (digits.length === 1 && digits > '1')) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  if (digits.length < 2) return digits;
  if (digits.length === 2) return deleting ? digits : `${digits}/`;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

export interface ExpiryState extends FieldState {
  month?: number;
  year?: number;
}

/** MM/YY (or MM/YYYY) not before the current month, at most 50 years ahead. */
export function checkExpiry(input: string, now: Date = new Date()): ExpiryState {
  const trimmed = input.trim();
  if (!trimmed) return { empty: true, complete: false, valid: true };
  const m = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(trimmed);
  const monthDigits = digitsOnly(trimmed.split('/')[0] ?? '');
  if (monthDigits.length === 2 && (Number(monthDigits) < 1 || Number(monthDigits) > 12)) {
    return { empty: false, complete: false, valid: false, error: 'invalid' };
  }
  if (!m) return { empty: false, complete: false, valid: true, error: 'incomplete' };
  const month = Number(m[1]);
  const year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  const curYear = now.getFullYear();
  const curMonth = now.getMonth() + 1;
  const past = year < curYear || (year === curYear && month < curMonth);
  if (month < 1 || month > 12 || past || year > curYear + 50) {
    return { empty: false, complete: false, valid: false, error: 'invalid' };
  }
  return { empty: false, complete: true, valid: true, month, year };
}

/** The security code lengths a brand accepts: its code size, or 3–4 when the brand is not known. */
export function cvcLengths(brandId?: string, brands: readonly CardBrand[] = CARD_BRANDS): number[] {
  const b = brandId ? (brands.find((x) => x.type === brandId) ?? CARD_BRANDS.find((x) => x.type === brandId)) : undefined;
  return b ? [b.code.size] : [3, 4];
}

export function checkCvc(input: string, brandId?: string, brands?: readonly CardBrand[]): FieldState {
  const digits = digitsOnly(input);
  if (!digits) return { empty: true, complete: false, valid: true };
  const lengths = cvcLengths(brandId, brands);
  if (digits !== input || digits.length > Math.max(...lengths)) return { empty: false, complete: false, valid: false, error: 'invalid' };
  if (lengths.includes(digits.length)) return { empty: false, complete: true, valid: true };
  return { empty: false, complete: false, valid: true, error: 'incomplete' };
}

/**
 * Text masks (as Basis Theory's and text-mask's): one entry per character, a literal string or a RegExp the typed
 * character must match. Typed characters that fit nowhere are dropped; literals are inserted as the user types.
 */
export type TextMask = readonly (string | RegExp)[];

export function conformToMask(input: string, mask: TextMask): { value: string; satisfied: boolean } {
  let out = '';
  let i = 0;
  let pos = 0;
  for (; pos < mask.length; pos++) {
    const slot = mask[pos];
    if (typeof slot === 'string') {
      if (i >= input.length) break;
      out += slot;
      if (input[i] === slot) i++;
      continue;
    }
    let placed = false;
    while (i < input.length) {
      const ch = input[i++];
      slot.lastIndex = 0;
      if (slot.test(ch)) {
        out += ch;
        placed = true;
        break;
      }
    }
    if (!placed) break;
  }
  return { value: out, satisfied: pos === mask.length };
}

export interface TextRules {
  mask?: TextMask;
  validation?: RegExp;
}

export interface TextState extends FieldState {
  maskSatisfied?: boolean;
}

export function checkText(value: string, rules: TextRules = {}): TextState {
  if (!value) return { empty: true, complete: false, valid: true, ...(rules.mask ? { maskSatisfied: false } : {}) };
  let maskSatisfied: boolean | undefined;
  if (rules.mask) maskSatisfied = conformToMask(value, rules.mask).satisfied && conformToMask(value, rules.mask).value === value;
  let matches = true;
  if (rules.validation) {
    rules.validation.lastIndex = 0;
    matches = rules.validation.test(value);
  }
  const complete = matches && maskSatisfied !== false;
  const error: FieldErrorType | undefined = !matches ? 'invalid' : maskSatisfied === false ? 'incomplete' : undefined;
  return { empty: false, complete, valid: error !== 'invalid', error, ...(maskSatisfied !== undefined ? { maskSatisfied } : {}) };
}
