import { describe, expect, it } from 'vitest';
import {
  checkAliasId,
  collectRefs,
  containsValue,
  dropFingerprints,
  idsAt,
  REF_KEY,
  resolveTokenBody,
  resolveTokenizeBody,
  stripData,
  toTemplate,
  type ElementRef,
  type ElementValue,
} from './template';

class FakeElement {
  constructor(readonly id: string) {}
}
class FakePart {
  constructor(
    readonly element: FakeElement,
    readonly method: 'month' | 'year',
  ) {}
}
const refOf = (x: unknown): ElementRef | undefined =>
  x instanceof FakeElement ? { element: x.id } : x instanceof FakePart ? { element: x.element.id, part: x.method } : undefined;
const ref = (element: string, part?: 'month' | 'year') => ({ [REF_KEY]: part ? { element, part } : { element } });

const card = { number: '4242424242424242', expiration_month: 12, expiration_year: 2030, cvc: '123' };
const values = new Map<string, ElementValue>([
  ['card', card],
  ['num', '5555555555554444'],
  ['exp', { month: 3, year: 2031 }],
  ['cvc', '987'],
  ['ssn', '123-45-6789'],
]);

describe('page side: elements become references', () => {
  it('replaces elements and parts, keeps JSON, drops undefined', () => {
    const num = new FakeElement('num');
    const exp = new FakeElement('exp');
    const t = toTemplate(
      {
        type: 'card',
        data: { number: num, expiration_month: new FakePart(exp, 'month'), expiration_year: new FakePart(exp, 'year') },
        metadata: { a: 'b' },
        x: undefined,
      },
      refOf,
    );
    expect(t).toEqual({
      type: 'card',
      data: { number: ref('num'), expiration_month: ref('exp', 'month'), expiration_year: ref('exp', 'year') },
      metadata: { a: 'b' },
    });
    expect([...collectRefs(t)].sort()).toEqual(['exp', 'num']);
  });

  it('refuses what is neither an element nor JSON', () => {
    expect(() => toTemplate({ f: () => 1 }, refOf)).toThrow(/body\.f/);
    expect(() => toTemplate({ n: Number.NaN }, refOf)).toThrow(/finite/);
    expect(() => toTemplate({ m: new Map() }, refOf)).toThrow();
  });
});

describe('frame side: references become values', () => {
  it('puts a card element where data goes', () => {
    expect(resolveTokenBody({ type: 'card', data: ref('card'), metadata: { k: 'v' } }, values)).toEqual({
      type: 'card',
      data: card,
      metadata: { k: 'v' },
      deduplicate_token: false,
    });
  });

  it('puts split elements and expiry parts where their values go', () => {
    const body = { type: 'card', data: { number: ref('num'), expiration_month: ref('exp', 'month'), expiration_year: ref('exp', 'year'), cvc: ref('cvc') } };
    expect(resolveTokenBody(body, values)).toEqual({
      type: 'card',
      data: { number: '5555555555554444', expiration_month: 3, expiration_year: 2031, cvc: '987' },
      deduplicate_token: false,
    });
    // a token intent has no deduplication to turn off
    expect(resolveTokenBody(body, values, new Map(), false)).not.toHaveProperty('deduplicate_token');
  });

  it('refuses elements outside data (metadata, id … come back to the page)', () => {
    expect(() => resolveTokenBody({ type: 'token', data: 'x', metadata: { leak: ref('num') } }, values)).toThrow(/only stand in `data`/);
    expect(() => resolveTokenBody({ type: 'token', data: 'x', id: ref('num') }, values)).toThrow(/only stand in `data`/);
  });

  it('refuses an unknown element and a part of an element without parts', () => {
    expect(() => resolveTokenBody({ type: 'token', data: ref('nope') }, values)).toThrow(/no value/);
    expect(() => resolveTokenBody({ type: 'token', data: ref('num', 'month') }, values)).toThrow(/month/);
  });

  it('tokenize: token specs take elements in data; other elements become tokens of their own, shown by their ids', () => {
    const body = { card: { type: 'card', data: ref('card') }, ssn: ref('ssn'), list: [ref('num'), 'plain'], n: 1 };
    const bare: (string | number)[][] = [];
    const never = { deduplicate_token: false };
    expect(resolveTokenizeBody(body, values, new Map(), bare)).toEqual({
      card: { type: 'card', data: card, ...never },
      ssn: { type: 'token', data: '123-45-6789', ...never },
      list: [{ type: 'token', data: '5555555555554444', ...never }, 'plain'],
      n: 1,
    });
    expect(bare).toEqual([['ssn'], ['list', 0]]);
    const reply = { card: { id: 'c', type: 'card' }, ssn: { id: 's', type: 'token' }, list: [{ id: 'l', type: 'token' }, 'p'], n: 'n' };
    expect(idsAt(reply, bare)).toEqual({ card: { id: 'c', type: 'card' }, ssn: 's', list: ['l', 'p'], n: 'n' });
    expect(() => resolveTokenizeBody({ t: { type: 'token', data: 'x', metadata: { m: ref('ssn') } } }, values)).toThrow(/only stand in `data`/);
  });
});

describe('alias ids over element data', () => {
  it('allows alias filters that show at most the first 8 and last 4', () => {
    expect(() => checkAliasId('{{ data | alias_preserve_format: 0, 4 }}')).not.toThrow();
    expect(() => checkAliasId('{{ data.number | alias_preserve_length: 6, 4 }}')).not.toThrow();
    expect(() => checkAliasId('{{ data | alias_preserve_format }}')).not.toThrow();
    expect(() => checkAliasId('my-literal-id')).not.toThrow();
  });

  it('refuses expressions that would put the value in the id', () => {
    for (const id of [
      '{{ data.number }}',
      '{{ data | alias_preserve_format: 0, 19 }}',
      '{{ data.cvc | alias_preserve_format: 0, 3 }}',
      'x{{ data }}',
      '{{ data | slice: 0, 16 }}',
    ]) {
      expect(() => checkAliasId(id)).toThrow(/id expression/);
    }
    expect(() => resolveTokenBody({ type: 'card', data: ref('card'), id: '{{ data.number }}' }, values)).toThrow(/id expression/);
    expect(resolveTokenBody({ type: 'token', data: 'plain', id: '{{ data }}' }, values)).toMatchObject({ id: '{{ data }}' });
  });
});

describe('replies', () => {
  it('drops data from a token, keeps the rest', () => {
    const reply = { id: 't1', type: 'card', tenant_id: 'x', data: { number: 'XXXXXXXXXXXX4242' }, metadata: { data: 'kept' }, fingerprint: 'f' };
    expect(stripData(reply)).toEqual({ id: 't1', type: 'card', tenant_id: 'x', metadata: { data: 'kept' }, fingerprint: 'f' });
  });

  it('drops data from every token of a tokenize reply', () => {
    const reply = { card: { id: 't1', type: 'card', data: { number: 'XXXX' } }, ssn: 't2', list: [{ id: 't3', type: 'token', data: 'x' }] };
    expect(stripData(reply)).toEqual({ card: { id: 't1', type: 'card' }, ssn: 't2', list: [{ id: 't3', type: 'token' }] });
  });

  it('finds a value quoted in a reply', () => {
    expect(containsValue({ id: '4242424242424242' }, values.values())).toBe(true);
    expect(containsValue({ errors: { x: ['123-45-6789 is bad'] } }, values.values())).toBe(true);
    expect(containsValue({ id: 'a4b1', last4: '4242' }, values.values())).toBe(false);
    expect(containsValue(undefined, values.values())).toBe(false);
  });
});

describe('security codes', () => {
  const kinds = new Map([
    ['card', 'card'],
    ['num', 'cardNumber'],
    ['exp', 'cardExpirationDate'],
    ['cvc', 'cardVerificationCode'],
    ['ssn', 'text'],
  ]);

  it('refuses fingerprint expressions and search indexes over a request holding one', () => {
    expect(() => resolveTokenBody({ type: 'token', data: ref('cvc'), fingerprint_expression: '{{ data }}' }, values, kinds)).toThrow(/security code/);
    expect(() => resolveTokenBody({ type: 'card', data: ref('card'), search_indexes: ['{{ data.cvc }}'] }, values, kinds)).toThrow(/security code/);
    expect(resolveTokenBody({ type: 'token', data: ref('ssn'), fingerprint_expression: '{{ data }}' }, values, kinds)).toMatchObject({ data: '123-45-6789' });
  });

  it('never lets a token of element values be deduplicated (an existing token would answer a guess)', () => {
    expect(resolveTokenBody({ type: 'token', data: ref('cvc') }, values, kinds)).toEqual({ type: 'token', data: '987', deduplicate_token: false });
    expect(() => resolveTokenBody({ type: 'token', data: ref('cvc'), deduplicate_token: true }, values, kinds)).toThrow(/deduplicated/);
    expect(() => resolveTokenBody({ type: 'card', data: ref('card'), deduplicate_token: true }, values, kinds)).toThrow(/deduplicated/);
    // a request without element values is the page's own business
    expect(resolveTokenBody({ type: 'token', data: 'plain', deduplicate_token: true }, values, kinds)).toMatchObject({ deduplicate_token: true });
    expect(() => resolveTokenizeBody({ cvc: ref('cvc') }, values, kinds)).toThrow(/on its own/);
    expect(resolveTokenizeBody({ cvc: { type: 'token', data: ref('cvc') } }, values, kinds)).toEqual({
      cvc: { type: 'token', data: '987', deduplicate_token: false },
    });
  });

  it('takes fingerprints out of a reply', () => {
    expect(dropFingerprints({ id: 't', fingerprint: 'f', nested: [{ fingerprint: 'g', x: 1 }] })).toEqual({ id: 't', nested: [{ x: 1 }] });
  });
});
