// React components over Coffer Elements (react.mjs). React is the page's own (a peer, external in the build); the
// `coffer` prop is the instance CofferElements.init() resolved to.
// no JSX: react.mjs imports 'react' only (one entry for an import map), not 'react/jsx-runtime'
import { createElement, forwardRef, useEffect, useImperativeHandle, useRef, useState, type ForwardedRef } from 'react';
import type { CofferElement } from '../../static/elements';
import type * as Published from '../../static/react';
import type {
  CardElementOptions,
  CardExpirationDateElementOptions,
  CardNumberElementOptions,
  CardVerificationCodeElementOptions,
  ElementType,
  TextElementOptions,
} from '../shared/types';

export interface CofferLike {
  createElement(type: ElementType, options?: Record<string, unknown>): CofferElement;
}

/** The props of the published declarations (static/react.d.ts), any instance that creates elements as `coffer`. */
export interface ElementProps extends Omit<Published.ElementProps, 'coffer'> {
  coffer?: CofferLike | null;
}

const HANDLERS = ['onReady', 'onChange', 'onFocus', 'onBlur', 'onKeyDown', 'coffer', 'id', 'className'] as const;

/** A key that changes when the options change: RegExps by their source, elements by their id. */
export function optionsKey(options: unknown): string {
  return JSON.stringify(options, (_k, v: unknown) => {
    if (v instanceof RegExp) return `/${v.source}/${v.flags}`;
    if (v && typeof v === 'object' && 'id' in v && 'type' in v && typeof (v as { mount?: unknown }).mount === 'function')
      return `element:${(v as { id: string }).id}`;
    return v;
  });
}

function useCofferElement(type: ElementType, props: ElementProps & Record<string, unknown>, ref: ForwardedRef<CofferElement | undefined>) {
  const container = useRef<HTMLDivElement>(null);
  const [element, setElement] = useState<CofferElement>();
  const options: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) if (!(HANDLERS as readonly string[]).includes(k) && v !== undefined) options[k] = v;
  const key = optionsKey(options);
  const latest = useRef({ props, options, key });
  latest.current = { props, options, key };
  // the options the element has: those it was created with, then those of its last update
  const sentKey = useRef('');
  const { coffer } = props;

  useEffect(() => {
    if (!coffer || !container.current) return undefined;
    const el = coffer.createElement(type, latest.current.options);
    sentKey.current = latest.current.key;
    const subs = [
      el.on('ready', (e) => latest.current.props.onReady?.(e)),
      el.on('change', (e) => latest.current.props.onChange?.(e)),
      el.on('focus', (e) => latest.current.props.onFocus?.(e)),
      el.on('blur', (e) => latest.current.props.onBlur?.(e)),
      el.on('keydown', (e) => latest.current.props.onKeyDown?.(e)),
    ];
    setElement(el);
    el.mount(container.current).catch(() => undefined);
    return () => {
      subs.forEach((s) => s.unsubscribe());
      el.unmount();
      setElement(undefined);
    };
  }, [coffer, type]);

  useEffect(() => {
    if (!element || sentKey.current === key) return;
    sentKey.current = key;
    void element.update(latest.current.options);
  }, [element, key]);

  useImperativeHandle(ref, () => element, [element]);
  return createElement('div', { id: props.id, className: props.className, ref: container });
}

function component<O>(type: ElementType, displayName: string) {
  const C = forwardRef<CofferElement | undefined, ElementProps & O>((props, ref) =>
    useCofferElement(type, props as ElementProps & Record<string, unknown>, ref),
  );
  C.displayName = displayName;
  return C;
}

// typed by the published declarations: a component that stops matching them fails the typecheck
export const CardElement: typeof Published.CardElement = component<CardElementOptions>('card', 'CardElement');
export const CardNumberElement: typeof Published.CardNumberElement = component<CardNumberElementOptions>('cardNumber', 'CardNumberElement');
export const CardExpirationDateElement: typeof Published.CardExpirationDateElement = component<CardExpirationDateElementOptions>(
  'cardExpirationDate',
  'CardExpirationDateElement',
);
export const CardVerificationCodeElement: typeof Published.CardVerificationCodeElement = component<CardVerificationCodeElementOptions>(
  'cardVerificationCode',
  'CardVerificationCodeElement',
);
export const TextElement: typeof Published.TextElement = component<TextElementOptions>('text', 'TextElement');
