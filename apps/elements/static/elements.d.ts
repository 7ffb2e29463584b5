// Coffer Elements — types of elements.js (window.CofferElements) and elements.mjs.
export type ElementType = 'card' | 'cardNumber' | 'cardExpirationDate' | 'cardVerificationCode' | 'text';
export type SafeStyle = Partial<
  Record<
    | 'backgroundColor'
    | 'color'
    | 'fontFamily'
    | 'fontSize'
    | 'fontSmooth'
    | 'fontStyle'
    | 'fontVariant'
    | 'fontWeight'
    | 'lineHeight'
    | 'letterSpacing'
    | 'textAlign'
    | 'padding'
    | 'textDecoration'
    | 'textShadow'
    | 'textTransform',
    string
  >
>;
export type VariantStyle = SafeStyle & Partial<Record<':hover' | ':focus' | ':read-only' | '::placeholder' | '::selection' | ':disabled', SafeStyle>>;
export interface ElementStyle {
  base?: VariantStyle;
  container?: VariantStyle;
  complete?: VariantStyle;
  invalid?: VariantStyle;
  empty?: VariantStyle;
  fonts?: string[];
}
export interface CardBrand {
  /** id reported as `cardBrand` (`visa`, `american-express`, …) */
  type: string;
  niceType: string;
  /** a prefix (number) or an inclusive range of prefixes of the same length ([min, max]) */
  patterns: (number | [number, number])[];
  /** positions after which the formatted number has a space */
  gaps: number[];
  lengths: number[];
  code: { name: string; size: number };
}
export interface CommonOptions {
  targetId?: string;
  style?: ElementStyle;
  disabled?: boolean;
  readOnly?: boolean;
  inputMode?: 'decimal' | 'email' | 'none' | 'numeric' | 'search' | 'tel' | 'text' | 'url';
  ariaLabel?: string;
  'aria-label'?: string;
  title?: string;
  autoComplete?: string;
}
export interface CardElementOptions extends Omit<CommonOptions, 'autoComplete' | 'ariaLabel'> {
  placeholder?: { cardNumber?: string; cardExpirationDate?: string; cardSecurityCode?: string };
  autoComplete?: { number?: string; expirationDate?: string; csc?: string };
  ariaLabel?: { cardNumber?: string; cardExpirationDate?: string; cardSecurityCode?: string };
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
  cardBrand?: string;
  cardNumberElement?: CofferElement;
}
export interface TextElementOptions extends CommonOptions {
  placeholder?: string;
  mask?: (string | RegExp)[];
  validation?: RegExp;
  maxLength?: number;
  password?: boolean;
}
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
export interface Subscription {
  unsubscribe(): void;
}
export interface ElementPart {
  readonly element: CofferElement;
  readonly method: 'month' | 'year';
}
export interface CofferElement {
  readonly id: string;
  readonly type: ElementType;
  readonly mounted: boolean;
  readonly metadata: { complete: boolean; valid: boolean; empty: boolean; errors: FieldError[]; maskSatisfied?: boolean };
  readonly cardMetadata?: { cardBrand: string; cardLast4?: string; cardBin?: string };
  mount(target: string | Element): Promise<void>;
  update(options: Record<string, unknown>): Promise<void>;
  clear(): void;
  focus(): void;
  blur(): void;
  unmount(): void;
  on<T extends ElementEvent['type']>(type: T, listener: (event: Extract<ElementEvent, { type: T }>) => void): Subscription;
  month(): ElementPart;
  year(): ElementPart;
}
export interface RequestOptions {
  /** another key for this call (a session key, say) */
  apiKey?: string;
  idempotencyKey?: string;
  correlationId?: string;
}
export interface CofferError extends Error {
  name: 'CofferApiError' | 'CofferValidationError' | 'CofferConfigurationError' | 'CofferError';
  status?: number;
  data?: unknown;
  details?: Record<string, { type: string }>;
  validation?: FieldError[];
}
export interface CardDetails {
  brand: string;
  last4: string;
  bin: string;
  expiration_month?: number;
  expiration_year?: number;
}
/** The API's reply without `data`; `card` for card tokens. */
export type TokenReply = Record<string, unknown> & { id: string; type: string; card?: CardDetails };
export interface Coffer {
  createElement(type: 'card', options?: CardElementOptions): CofferElement;
  createElement(type: 'cardNumber', options?: CardNumberElementOptions): CofferElement;
  createElement(type: 'cardExpirationDate', options?: CardExpirationDateElementOptions): CofferElement;
  createElement(type: 'cardVerificationCode', options?: CardVerificationCodeElementOptions): CofferElement;
  createElement(type: 'text', options?: TextElementOptions): CofferElement;
  tokens: { create(payload: Record<string, unknown>, options?: RequestOptions): Promise<TokenReply> };
  tokenIntents: { create(payload: { type: string; data: unknown }, options?: RequestOptions): Promise<TokenReply> };
  sessions: {
    create(options?: RequestOptions): Promise<{ session_key: string; nonce: string; expires_at: string; sessionKey: string; expiresAt: string }>;
  };
  tokenize(payload: unknown, options?: RequestOptions): Promise<unknown>;
}
export interface InitOptions {
  /** the API's base URL, used only when the server did not fill in the frames' coffer-api-url (local tests) */
  apiBaseUrl?: string;
  /** where frames/ lives; default: the directory of the elements.js / elements.mjs that was loaded */
  elementsBaseUrl?: string;
}
export interface CofferElementsApi {
  readonly version: number;
  init(apiKey: string, options?: InitOptions): Promise<Coffer>;
}
export declare const CofferElements: CofferElementsApi;
export default CofferElements;
declare global {
  interface Window {
    CofferElements?: CofferElementsApi;
  }
}
