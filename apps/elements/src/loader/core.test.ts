// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { Coffer, makeCofferElements } from './core';

const BASE = 'https://elements.example/elements/v1/';

describe('the loader', () => {
  it('derives the elements base from its own script URL', async () => {
    const api = makeCofferElements(undefined);
    await expect(api.init('key')).rejects.toMatchObject({ name: 'CofferConfigurationError' });
    await expect(makeCofferElements(`${BASE}elements.js`).init('')).rejects.toMatchObject({ name: 'CofferConfigurationError' });
    expect(new Coffer(BASE, 'key', undefined, 'a'.repeat(64)).elementsOrigin).toBe('https://elements.example');
  });

  it('keeps only known, cloneable options and replaces a linked element by its id', () => {
    const coffer = new Coffer(BASE, 'key', undefined, 'a'.repeat(64));
    const num = coffer.createElement('cardNumber', {});
    const clean = coffer.sanitizeOptions({ placeholder: 'x', onChange: () => 1, unknown: 1, cardNumberElement: num });
    expect(clean).toEqual({ placeholder: 'x', cardNumberElement: num.id });
    const other = new Coffer(BASE, 'key', undefined, 'a'.repeat(64)).createElement('cardNumber', {});
    expect(() => coffer.sanitizeOptions({ cardNumberElement: other })).toThrow(/same instance/);
    expect(() => coffer.createElement('nope' as never)).toThrow(/Unknown element type/);
  });

  it('refuses elements that are not mounted or belong to another instance, before anything is sent', async () => {
    const coffer = new Coffer(BASE, 'key', undefined, 'a'.repeat(64));
    const card = coffer.createElement('card');
    await expect(coffer.tokens.create({ type: 'card', data: card })).rejects.toMatchObject({ name: 'CofferValidationError' });
    const foreign = new Coffer(BASE, 'key', undefined, 'a'.repeat(64)).createElement('card');
    await expect(coffer.tokens.create({ type: 'card', data: foreign })).rejects.toMatchObject({ name: 'CofferConfigurationError' });
    await expect(coffer.tokenize({ f: () => 1 })).rejects.toMatchObject({ name: 'CofferValidationError' });
  });

  it('gives month() and year() only on expiration date elements', () => {
    const coffer = new Coffer(BASE, 'key', undefined, 'a'.repeat(64));
    const exp = coffer.createElement('cardExpirationDate');
    expect(exp.month()).toMatchObject({ element: exp, method: 'month' });
    expect(exp.year()).toMatchObject({ element: exp, method: 'year' });
    expect(() => coffer.createElement('cardNumber').month()).toThrow();
  });

  it('ignores messages from other origins and windows', () => {
    const coffer = new Coffer(BASE, 'key', undefined, 'a'.repeat(64));
    const el = coffer.createElement('cardNumber');
    const seen: unknown[] = [];
    el.on('change', (e) => seen.push(e));
    const fakeWin = {} as Window;
    coffer.register(fakeWin, { id: el.id, onMessage: () => seen.push('delivered') });
    const data = { coffer: 1, instance: coffer.instance, element: el.id, type: 'change', event: {} };
    window.dispatchEvent(new MessageEvent('message', { data, origin: 'https://evil.example', source: fakeWin as never }));
    window.dispatchEvent(new MessageEvent('message', { data, origin: 'https://elements.example', source: window }));
    expect(seen).toEqual([]);
    window.dispatchEvent(new MessageEvent('message', { data, origin: 'https://elements.example', source: fakeWin as never }));
    expect(seen).toEqual(['delivered']);
  });
});
