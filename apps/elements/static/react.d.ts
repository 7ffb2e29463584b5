// Coffer Elements — React components (react.mjs). React is a peer.
import type { ForwardRefExoticComponent, RefAttributes } from 'react';
import type {
  BlurEvent,
  CardElementOptions,
  CardExpirationDateElementOptions,
  CardNumberElementOptions,
  CardVerificationCodeElementOptions,
  ChangeEvent,
  Coffer,
  CofferElement,
  FocusEvent,
  KeydownEvent,
  ReadyEvent,
  TextElementOptions,
} from './elements';

export interface ElementProps {
  coffer?: Coffer | null;
  /** the id of the container the iframe is mounted in */
  id?: string;
  className?: string;
  onReady?: (e: ReadyEvent) => void;
  onChange?: (e: ChangeEvent) => void;
  onFocus?: (e: FocusEvent) => void;
  onBlur?: (e: BlurEvent) => void;
  onKeyDown?: (e: KeydownEvent) => void;
}
type C<O> = ForwardRefExoticComponent<ElementProps & O & RefAttributes<CofferElement | undefined>>;
export declare const CardElement: C<CardElementOptions>;
export declare const CardNumberElement: C<CardNumberElementOptions>;
export declare const CardExpirationDateElement: C<CardExpirationDateElementOptions>;
export declare const CardVerificationCodeElement: C<CardVerificationCodeElementOptions>;
export declare const TextElement: C<TextElementOptions>;
