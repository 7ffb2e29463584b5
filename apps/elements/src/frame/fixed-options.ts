import type { AnyElementOptions } from '../shared/types';

/**
 * What decides whether a value is valid, complete or of which brand is fixed when the element is created: the page is
 * told those states as the shopper types, so changing the rules afterwards (a pattern, a brand of its own, the linked
 * number) and watching the states change would read the value out one question at a time.
 */
export const FIXED_AT_CREATION = ['validation', 'mask', 'cardTypes', 'skipLuhnValidation', 'cardBrand', 'cardNumberElement', 'maxLength'] as const;

export function updatable(options: AnyElementOptions): AnyElementOptions {
  const out = { ...options } as Record<string, unknown>;
  for (const key of FIXED_AT_CREATION) delete out[key];
  return out as AnyElementOptions;
}
