// The public option, event and style types (the shape of Basis Theory's @basis-theory/web-elements).
import type { CardBrand, TextMask } from './card';
import type { ElementType } from './protocol';

export type { ElementType, CardBrand, TextMask };

/** CSS properties an element style may set (camelCase, as Basis Theory's SAFE_CSS_PROPERTIES). */
export const SAFE_CSS_PROPERTIES = [
  'backgroundColor',
  'color',
  'fontFamily',
  'fontSize',
  'fontSmooth',
  'fontStyle',
  'fontVariant',
  'fontWeight',
  'lineHeight',
  'letterSpacing',
  'textAlign',
  'padding',
  'textDecoration',
  'textShadow',
  'textTransform',
] as const;
export type SafeCssProperty = (typeof SAFE_CSS_PROPERTIES)[number];
export type SafeStyle = Partial<Record<SafeCssProperty, string>>;

export const STYLE_SELECTORS = [':hover', ':focus', ':read-only', '::placeholder', '::selection', ':disabled'] as const;
export type StyleSelector = (typeof STYLE_SELECTORS)[number];
export type VariantStyle = SafeStyle & Partial<Record<StyleSelector, SafeStyle>>;

export const STYLE_VARIANTS = ['base', 'container', 'complete', 'invalid', 'empty'] as const;
export type StyleVariant = (typeof STYLE_VARIANTS)[number];

export type ElementStyle = Partial<Record<StyleVariant, VariantStyle>> & {
  /** stylesheet URLs of web fonts (https): the frame's CSP must allow them (style-src and font-src) */
  fonts?: string[];
};

export type InputMode = 'decimal' | 'email' | 'none' | 'numeric' | 'search' | 'tel' | 'text' | 'url';

export interface CommonOptions {
  targetId?: string;
  style?: ElementStyle;
  disabled?: boolean;
  readOnly?: boolean;
  inputMode?: InputMode;
  ariaLabel?: string;
  'aria-label'?: string;
  title?: string;
  autoComplete?: string;
}

export interface CardElementOptions extends Omit<CommonOptions, 'autoComplete' | 'ariaLabel'> {
  placeholder?: { cardNumber?: string; cardExpirationDate?: string; cardSecurityCode?: string };
  autoComplete?: { number?: string; expirationDate?: string; csc?: string };
  ariaLabel?: { cardNumber?: string; cardExpirationDate?: string; cardSecurityCode?: string } | string;
  cardTypes?: (string | CardBrand)[];
  skipLuhnValidation?: boolean;
}

export interface CardNumberElementOptions extends CommonOptions {
  placeholder?: string;
  cardTypes?: (string | CardBrand)[];
  skipLuhnValidation?: boolean;
}

export interface CardExpirationDateElementOptions extends CommonOptions {
  placeholder?: string;
}

export interface CardVerificationCodeElementOptions extends CommonOptions {
  placeholder?: string;
  /** the brand whose code length applies (3, or 4 for american-express) */
  cardBrand?: string;
  /** a card number (or card) element of the same init(): the code length follows its brand as it is typed */
  cardNumberElement?: unknown;
}

export interface TextElementOptions extends CommonOptions {
  placeholder?: string;
  mask?: TextMask;
  validation?: RegExp;
  maxLength?: number;
  password?: boolean;
}

export type AnyElementOptions = CardElementOptions &
  CardNumberElementOptions &
  CardExpirationDateElementOptions &
  Omit<CardVerificationCodeElementOptions, 'cardNumberElement'> &
  TextElementOptions & { cardNumberElement?: string };

export interface FieldError {
  targetId: string;
  type: 'incomplete' | 'invalid';
}

export interface ChangeEvent {
  type: 'change';
  empty: boolean;
  complete: boolean;
  valid: boolean;
  maskSatisfied?: boolean;
  errors: FieldError[];
  cardBrand?: string;
  cardLast4?: string;
  cardBin?: string;
}

export interface ReadyEvent {
  type: 'ready';
}
export interface FocusEvent {
  type: 'focus';
  targetId: string;
}
export interface BlurEvent {
  type: 'blur';
  targetId: string;
}
export interface KeydownEvent {
  type: 'keydown';
  targetId: string;
  key: 'Enter' | 'Escape';
  altKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}
export type ElementEvent = ReadyEvent | ChangeEvent | FocusEvent | BlurEvent | KeydownEvent;
export type ElementEventType = ElementEvent['type'];

export interface CardDetails {
  brand: string;
  last4: string;
  bin: string;
  expiration_month?: number;
  expiration_year?: number;
}
