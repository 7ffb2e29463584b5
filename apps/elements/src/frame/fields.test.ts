// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { ElementUi } from './fields';

function setup(type: 'card' | 'cardNumber' | 'cardVerificationCode' | 'text', options: Record<string, unknown> = {}) {
  document.body.innerHTML = '<div id="root"></div>';
  const sent: { type: string; payload: Record<string, unknown> }[] = [];
  const brands: string[] = [];
  const ui = new ElementUi(
    type,
    document.getElementById('root') as HTMLElement,
    (t, payload) => sent.push({ type: t, payload }),
    (b) => brands.push(b),
  );
  ui.build(options);
  const input = (autocomplete: string) => document.querySelector(`input[autocomplete="${autocomplete}"]`) as HTMLInputElement;
  const type_ = (el: HTMLInputElement, text: string) => {
    for (const ch of text) {
      el.value += ch;
      el.dispatchEvent(new Event('input'));
    }
  };
  return { ui, sent, brands, input, type: type_ };
}

describe('the card frame', () => {
  it('has three labelled inputs for autofill', () => {
    const { input } = setup('card');
    for (const [ac, name] of [
      ['cc-number', 'cardnumber'],
      ['cc-exp', 'exp-date'],
      ['cc-csc', 'cvc'],
    ]) {
      const el = input(ac);
      expect(el.name).toBe(name);
      expect(el.getAttribute('aria-label')).toBeTruthy();
      expect(document.querySelector(`label[for="${el.id}"]`)?.textContent).toBe(el.getAttribute('aria-label'));
    }
  });

  it('formats, validates and reports without values', () => {
    const { ui, sent, brands, input, type } = setup('card');
    type(input('cc-number'), '378282246310005');
    expect(input('cc-number').value).toBe('3782 822463 10005');
    expect(brands.at(-1)).toBe('american-express');
    type(input('cc-exp'), '1230');
    type(input('cc-csc'), '12345');
    expect(input('cc-csc').value).toBe('1234');
    const change = sent.filter((m) => m.type === 'change').at(-1)?.payload.event as Record<string, unknown>;
    expect(change).toMatchObject({ complete: true, valid: true, cardBrand: 'american-express', cardLast4: '0005', cardBin: '378282' });
    expect(JSON.stringify(sent)).not.toContain('378282246310005');
    expect(JSON.stringify(sent)).not.toContain('1234"');
    expect(ui.value().value).toEqual({ number: '378282246310005', expiration_month: 12, expiration_year: 2030, cvc: '1234' });
  });

  it('gives no value while incomplete, naming each field', () => {
    const { ui, input, type } = setup('card');
    type(input('cc-number'), '4242');
    const r = ui.value();
    expect(r.value).toBeUndefined();
    expect(r.state.errors.map((e) => e.targetId)).toEqual(['cardNumber', 'cardExpirationDate', 'cardVerificationCode']);
  });

  it('reports Enter and Escape only', () => {
    const { sent, input } = setup('card');
    for (const key of ['4', 'a', 'Enter', 'Tab', 'Escape']) input('cc-number').dispatchEvent(new KeyboardEvent('keydown', { key }));
    expect(sent.filter((m) => m.type === 'keydown').map((m) => m.payload.key)).toEqual(['Enter', 'Escape']);
  });

  it('applies options: placeholders, labels, disabled, styles', () => {
    const { ui, input } = setup('card', {
      placeholder: { cardNumber: 'Number' },
      ariaLabel: { cardSecurityCode: 'CVV' },
      disabled: true,
      style: { base: { color: 'red', backgroundColor: 'url(https://x)' } },
    });
    expect(input('cc-number').placeholder).toBe('Number');
    expect(input('cc-csc').getAttribute('aria-label')).toBe('CVV');
    expect(input('cc-exp').disabled).toBe(true);
    expect(input('cc-number').style.getPropertyValue('color')).toBe('red');
    expect(input('cc-number').style.getPropertyValue('background-color')).toBe('');
    ui.update({ disabled: false, style: { base: { color: 'blue' } } });
    expect(input('cc-exp').disabled).toBe(false);
    expect(input('cc-number').style.getPropertyValue('color')).toBe('blue');
  });

  it('clears', () => {
    const { ui, input, type } = setup('card');
    type(input('cc-number'), '4242');
    ui.clear();
    expect(input('cc-number').value).toBe('');
    expect(ui.changeEvent().empty).toBe(true);
  });
});

describe('single elements', () => {
  it('a security code follows a linked brand', () => {
    const { ui, input, type } = setup('cardVerificationCode');
    type(input('cc-csc'), '1234');
    expect(ui.value().value).toBe('1234');
    ui.setLinkedBrand('visa');
    expect(input('cc-csc').value).toBe('123');
    ui.setLinkedBrand('american-express');
    expect(ui.changeEvent().complete).toBe(false);
  });

  it('a text element takes a mask and a validation', () => {
    const { ui, input, type } = setup('text', { targetId: 'ssn', mask: [/\d/, /\d/, /\d/, '-', /\d/, /\d/], ariaLabel: 'SSN' });
    const el = input('off');
    expect(el.getAttribute('aria-label')).toBe('SSN');
    type(el, '12345');
    expect(el.value).toBe('123-45');
    expect(ui.changeEvent()).toMatchObject({ complete: true, maskSatisfied: true });
    expect(ui.value().value).toBe('123-45');
  });
});
