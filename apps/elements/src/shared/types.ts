// The public option, event and style types (the shape of Basis Theory's @basis-theory/web-elements). They are declared
// once, in the published declarations (static/elements.d.ts, served as /elements/v1/elements.d.ts): the code is typed
// by what its users are promised, so a declaration that drifts from the code fails the typecheck. What is here is
// what the code needs besides: the lists the frames check styles against, and the options as a frame receives them.
import type {
  CardElementOptions,
  CardExpirationDateElementOptions,
  CardNumberElementOptions,
  CardVerificationCodeElementOptions,
  ElementEvent,
  ElementStyle,
  SafeStyle,
  TextElementOptions,
  VariantStyle,
} from '../../static/elements';

export type {
  BlurEvent,
  CardBrand,
  CardDetails,
  CardElementOptions,
  CardExpirationDateElementOptions,
  CardNumberElementOptions,
  CardVerificationCodeElementOptions,
  ChangeEvent,
  CommonOptions,
  ElementEvent,
  ElementStyle,
  FieldError,
  FocusEvent,
  KeydownEvent,
  ReadyEvent,
  SafeStyle,
  TextElementOptions,
  VariantStyle,
} from '../../static/elements';
export type { TextMask } from './card';
export type { ElementType } from './protocol';

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
] as const satisfies readonly (keyof SafeStyle)[];
export type SafeCssProperty = (typeof SAFE_CSS_PROPERTIES)[number];

export const STYLE_SELECTORS = [':hover', ':focus', ':read-only', '::placeholder', '::selection', ':disabled'] as const satisfies readonly Exclude<
  keyof VariantStyle,
  SafeCssProperty
>[];
export type StyleSelector = (typeof STYLE_SELECTORS)[number];

export const STYLE_VARIANTS = ['base', 'container', 'complete', 'invalid', 'empty'] as const satisfies readonly Exclude<keyof ElementStyle, 'fonts'>[];
export type StyleVariant = (typeof STYLE_VARIANTS)[number];

/** The lists above name every property, selector and variant the published types allow (none is left unchecked). */
type Missing<All, Listed> = Exclude<All, Listed> extends never ? true : ['not in the list:', Exclude<All, Listed>];
export const LISTS_ARE_COMPLETE: [
  Missing<keyof SafeStyle, SafeCssProperty>,
  Missing<Exclude<keyof VariantStyle, SafeCssProperty>, StyleSelector>,
  Missing<Exclude<keyof ElementStyle, 'fonts'>, StyleVariant>,
] = [true, true, true];

export type ElementEventType = ElementEvent['type'];

/**
 * The options as a frame receives them: any element's, the card element's aria label also as one string (the frame
 * applies it to each of its inputs), and the card number element as its id (the loader sends the id, not the element).
 */
export type AnyElementOptions = Omit<
  CardElementOptions & CardNumberElementOptions & CardExpirationDateElementOptions & CardVerificationCodeElementOptions & TextElementOptions,
  'ariaLabel' | 'cardNumberElement'
> & {
  ariaLabel?: CardElementOptions['ariaLabel'] | string;
  cardNumberElement?: string;
};
