// The inputs of an element frame. Values stay in these inputs; what leaves the frame is computed from them here.
import {
  brandsFor,
  checkCardNumber,
  checkCvc,
  checkExpiry,
  checkText,
  conformToMask,
  cvcLengths,
  digitsOnly,
  formatCardNumber,
  formatExpiry,
  maxNumberLength,
  type FieldState,
} from '../shared/card';
import type { ElementValue } from '../shared/template';
import type { AnyElementOptions, ChangeEvent, ElementType, FieldError } from '../shared/types';
import { applyDeclarations, inputDeclarations } from './style';

export type FieldKind = 'cardNumber' | 'cardExpirationDate' | 'cardVerificationCode' | 'text';

export interface Field {
  kind: FieldKind;
  targetId: string;
  input: HTMLInputElement;
  label: HTMLLabelElement;
  state: FieldState & { brand?: string; last4?: string; bin?: string; month?: number; year?: number; maskSatisfied?: boolean };
  hovered: boolean;
  focused: boolean;
}

const DEFAULTS: Record<FieldKind, { label: string; placeholder: string; autocomplete: string; name: string; inputMode: string }> = {
  cardNumber: { label: 'Card number', placeholder: '1234 1234 1234 1234', autocomplete: 'cc-number', name: 'cardnumber', inputMode: 'numeric' },
  cardExpirationDate: { label: 'Expiration date (MM/YY)', placeholder: 'MM/YY', autocomplete: 'cc-exp', name: 'exp-date', inputMode: 'numeric' },
  cardVerificationCode: { label: 'Security code', placeholder: 'CVC', autocomplete: 'cc-csc', name: 'cvc', inputMode: 'numeric' },
  text: { label: 'Text', placeholder: '', autocomplete: 'off', name: 'text', inputMode: 'text' },
};

const CARD_SUB: Record<string, 'cardNumber' | 'cardExpirationDate' | 'cardSecurityCode'> = {
  cardNumber: 'cardNumber',
  cardExpirationDate: 'cardExpirationDate',
  cardVerificationCode: 'cardSecurityCode',
};
const CARD_AUTOCOMPLETE: Record<string, 'number' | 'expirationDate' | 'csc'> = {
  cardNumber: 'number',
  cardExpirationDate: 'expirationDate',
  cardVerificationCode: 'csc',
};

export class ElementUi {
  readonly fields: Field[] = [];
  options: AnyElementOptions = {};
  /** the brand the security code follows (from cardBrand, the card number of this frame, or a linked element) */
  linkedBrand?: string;
  private lastChange = '';

  constructor(
    readonly type: ElementType,
    private readonly root: HTMLElement,
    private readonly emit: (type: string, payload: Record<string, unknown>) => void,
    private readonly onBrand: (brand: string) => void,
  ) {}

  build(options: AnyElementOptions): void {
    this.options = options;
    const kinds: FieldKind[] = this.type === 'card' ? ['cardNumber', 'cardExpirationDate', 'cardVerificationCode'] : [this.type as FieldKind];
    const row = document.createElement('div');
    row.className = this.type === 'card' ? 'row card' : 'row';
    for (const kind of kinds) {
      const targetId = this.type === 'card' ? kind : (options.targetId ?? kind);
      const wrap = document.createElement('div');
      wrap.className = `field ${kind}`;
      const label = document.createElement('label');
      label.className = 'visually-hidden';
      const input = document.createElement('input');
      input.id = `input-${kind}`;
      label.htmlFor = input.id;
      input.type = 'text';
      input.spellcheck = false;
      input.setAttribute('autocorrect', 'off');
      input.setAttribute('autocapitalize', 'off');
      input.setAttribute('aria-invalid', 'false');
      wrap.append(label, input);
      row.appendChild(wrap);
      const field: Field = { kind, targetId, input, label, state: { empty: true, complete: false, valid: true }, hovered: false, focused: false };
      this.fields.push(field);
      this.listen(field);
    }
    this.root.appendChild(row);
    this.configure();
    this.evaluate(false);
  }

  update(options: AnyElementOptions): void {
    this.options = { ...this.options, ...options };
    this.configure();
    for (const f of this.fields) this.reformat(f);
    this.evaluate(true);
  }

  private configure(): void {
    const o = this.options;
    for (const f of this.fields) {
      const d = DEFAULTS[f.kind];
      const card = this.type === 'card';
      // the card element takes { cardNumber, cardExpirationDate, cardSecurityCode }; a plain string goes to its number
      const sub = (v: unknown): string | undefined => {
        if (card && v && typeof v === 'object') {
          const x = (v as Record<string, unknown>)[CARD_SUB[f.kind]];
          return typeof x === 'string' ? x : undefined;
        }
        return typeof v === 'string' && (!card || f.kind === 'cardNumber') ? v : undefined;
      };
      const placeholder = sub(o.placeholder);
      f.input.placeholder = typeof placeholder === 'string' ? placeholder : d.placeholder;
      const aria = sub(o.ariaLabel ?? o['aria-label']);
      const label = typeof aria === 'string' && aria ? aria : typeof o.title === 'string' && !card ? o.title : d.label;
      f.label.textContent = label;
      f.input.setAttribute('aria-label', label);
      const ac = card ? (o.autoComplete as Record<string, string> | undefined)?.[CARD_AUTOCOMPLETE[f.kind]] : (o.autoComplete as string | undefined);
      f.input.autocomplete = (typeof ac === 'string' && ac ? ac : d.autocomplete) as AutoFill;
      f.input.name = d.name;
      if (typeof o.title === 'string' && o.title) f.input.title = o.title;
      else f.input.removeAttribute('title');
      f.input.inputMode = o.inputMode ?? d.inputMode;
      f.input.disabled = !!o.disabled;
      f.input.readOnly = !!o.readOnly;
      if (f.kind === 'text') {
        f.input.type = o.password ? 'password' : 'text';
        if (typeof o.maxLength === 'number' && o.maxLength > 0) f.input.maxLength = o.maxLength;
        else f.input.removeAttribute('maxlength');
        if (o.mask) f.input.maxLength = o.mask.length;
      } else if (f.kind === 'cardVerificationCode') {
        f.input.maxLength = 4;
      } else if (f.kind === 'cardExpirationDate') {
        f.input.maxLength = 7;
      }
    }
    if (typeof this.options.cardBrand === 'string') this.linkedBrand = this.options.cardBrand;
  }

  private listen(f: Field): void {
    let previous = '';
    f.input.addEventListener('input', () => {
      this.reformat(f, previous);
      previous = f.input.value;
      this.evaluate(true);
    });
    f.input.addEventListener('focus', () => {
      f.focused = true;
      this.paint();
      this.emit('focus', { targetId: f.targetId });
    });
    f.input.addEventListener('blur', () => {
      f.focused = false;
      this.paint();
      this.emit('blur', { targetId: f.targetId });
    });
    f.input.addEventListener('mouseenter', () => {
      f.hovered = true;
      this.paint();
    });
    f.input.addEventListener('mouseleave', () => {
      f.hovered = false;
      this.paint();
    });
    f.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === 'Escape') {
        this.emit('keydown', { targetId: f.targetId, key: e.key, altKey: e.altKey, ctrlKey: e.ctrlKey, shiftKey: e.shiftKey, metaKey: e.metaKey });
      }
    });
  }

  private numberRules() {
    return { cardTypes: this.options.cardTypes, skipLuhnValidation: !!this.options.skipLuhnValidation };
  }

  /** Formats the input's value in place, keeping the caret after the same number of significant characters. */
  private reformat(f: Field, previous = f.input.value): void {
    const input = f.input;
    const raw = input.value;
    let next = raw;
    if (f.kind === 'cardNumber') {
      const brand = checkCardNumber(raw, this.numberRules()).brandInfo;
      next = formatCardNumber(raw, brand);
      if (digitsOnly(raw).length > maxNumberLength(brand)) next = formatCardNumber(digitsOnly(raw).slice(0, maxNumberLength(brand)), brand);
    } else if (f.kind === 'cardExpirationDate') {
      next = formatExpiry(raw, previous);
    } else if (f.kind === 'cardVerificationCode') {
      next = digitsOnly(raw).slice(0, Math.max(...cvcLengths(this.brandForCvc(), brandsFor(this.options.cardTypes))));
    } else if (this.options.mask) {
      next = conformToMask(raw, this.options.mask).value;
    }
    if (next === raw) return;
    const caret = input.selectionStart ?? raw.length;
    const significant = (s: string) => (f.kind === 'text' ? s.length : digitsOnly(s).length);
    const before = significant(raw.slice(0, caret));
    input.value = next;
    let pos = 0;
    if (caret >= raw.length) pos = next.length;
    else {
      let count = 0;
      while (pos < next.length && count < before) {
        if (f.kind === 'text' || /\d/.test(next[pos])) count++;
        pos++;
      }
    }
    if (document.activeElement === input) input.setSelectionRange(pos, pos);
  }

  brandForCvc(): string | undefined {
    if (this.type === 'card') return this.fields[0]?.state.brand;
    return this.linkedBrand;
  }

  setLinkedBrand(brand: string): void {
    if (this.type !== 'cardVerificationCode' || brand === this.linkedBrand) return;
    this.linkedBrand = brand;
    for (const f of this.fields) this.reformat(f);
    this.evaluate(true);
  }

  private evaluate(emitChange: boolean): void {
    let brand: string | undefined;
    for (const f of this.fields) {
      const v = f.input.value;
      if (f.kind === 'cardNumber') {
        const s = checkCardNumber(v, this.numberRules());
        f.state = { empty: s.empty, complete: s.complete, valid: s.valid, error: s.error, brand: s.brand, last4: s.last4, bin: s.bin };
        brand = s.brand;
      } else if (f.kind === 'cardExpirationDate') {
        f.state = checkExpiry(v);
      } else if (f.kind === 'cardVerificationCode') {
        f.state = checkCvc(v, this.brandForCvc(), brandsFor(this.options.cardTypes));
      } else {
        f.state = checkText(v, { mask: this.options.mask, validation: this.options.validation });
      }
      f.input.setAttribute('aria-invalid', String(f.state.error === 'invalid'));
    }
    if (brand !== undefined) this.onBrand(brand);
    this.paint();
    if (emitChange) this.emitChange();
  }

  paint(): void {
    for (const f of this.fields) {
      const look = {
        empty: f.state.empty,
        complete: f.state.complete,
        invalid: f.state.error === 'invalid' || (!f.focused && !f.state.empty && f.state.error === 'incomplete' && f.input.dataset.touched === '1'),
        focused: f.focused,
        hovered: f.hovered,
        disabled: f.input.disabled,
        readOnly: f.input.readOnly,
      };
      if (!f.focused && !f.state.empty) f.input.dataset.touched = '1';
      f.input.classList.toggle('invalid', look.invalid);
      f.input.classList.toggle('complete', look.complete);
      applyDeclarations(f.input, inputDeclarations(this.options.style, look));
    }
  }

  changeEvent(): Omit<ChangeEvent, 'type'> {
    const errors: FieldError[] = [];
    for (const f of this.fields) if (f.state.error && !f.state.empty) errors.push({ targetId: f.targetId, type: f.state.error });
    const event: Omit<ChangeEvent, 'type'> = {
      empty: this.fields.every((f) => f.state.empty),
      complete: this.fields.every((f) => f.state.complete),
      valid: this.fields.every((f) => f.state.valid),
      errors,
    };
    const number = this.fields.find((f) => f.kind === 'cardNumber');
    if (number) {
      event.cardBrand = number.state.brand ?? 'unknown';
      if (number.state.complete) {
        event.cardLast4 = number.state.last4;
        event.cardBin = number.state.bin;
      }
    }
    if (this.type === 'text' && this.options.mask) event.maskSatisfied = !!this.fields[0].state.maskSatisfied;
    return event;
  }

  emitChange(force = false): void {
    const event = this.changeEvent();
    const key = JSON.stringify(event);
    if (!force && key === this.lastChange) return;
    this.lastChange = key;
    this.emit('change', { event });
  }

  clear(): void {
    for (const f of this.fields) {
      f.input.value = '';
      delete f.input.dataset.touched;
    }
    this.evaluate(true);
  }

  /** The value for a tokenization, with the state it is in: a value only when every field is complete. */
  value(): { state: Omit<ChangeEvent, 'type'>; value?: ElementValue } {
    for (const f of this.fields) f.input.dataset.touched = '1';
    this.paint();
    const state = this.changeEvent();
    // the tokenization asks for every field, empty or not
    state.errors = this.fields.filter((f) => !f.state.complete).map((f) => ({ targetId: f.targetId, type: f.state.error ?? 'incomplete' }));
    if (!state.complete) return { state };
    // every field is complete here: the number, expiry (month and year) and code are known
    const byKind = new Map(this.fields.map((f) => [f.kind, f]));
    const input = (k: FieldKind) => byKind.get(k)?.input.value ?? '';
    const exp = byKind.get('cardExpirationDate')?.state;
    switch (this.type) {
      case 'card':
        return {
          state,
          value: {
            number: digitsOnly(input('cardNumber')),
            expiration_month: exp?.month ?? 0,
            expiration_year: exp?.year ?? 0,
            cvc: input('cardVerificationCode'),
          },
        };
      case 'cardNumber':
        return { state, value: digitsOnly(input('cardNumber')) };
      case 'cardExpirationDate':
        return { state, value: { month: exp?.month ?? 0, year: exp?.year ?? 0 } };
      default:
        return { state, value: this.fields[0].input.value };
    }
  }

  focus(): void {
    const target = this.fields.find((f) => !f.state.complete) ?? this.fields[0];
    target?.input.focus();
  }

  blur(): void {
    for (const f of this.fields) f.input.blur();
  }
}
