/**
 * `require('@coffer/reactor-runtime')` (alias `@basis-theory/basis-theory-reactor-formulas-sdk-js`): the error classes
 * a formula throws to choose its answer, and the check digits the vault itself checks (libs/checksums), so a formula
 * judging a card number or a routing number agrees with the vault instead of carrying its own copy.
 */
import { abaRoutingValid, luhnValid } from '@coffer/checksums';
import { once } from './host';
import { CustomHttpResponseError, getErrorClasses } from './reactor-errors';

export const getRuntimeModule = once(() => {
  const m: Record<string, unknown> = {};
  for (const [name, C] of getErrorClasses()) m[name] = C;
  m['CustomHttpResponseError'] = CustomHttpResponseError;
  // formulas pass whatever they hold: anything but a string of ASCII digits is not a valid number
  m['luhnValid'] = (digits: unknown) => typeof digits === 'string' && /^\d+$/.test(digits) && luhnValid(digits);
  m['abaRoutingValid'] = (digits: unknown) => typeof digits === 'string' && abaRoutingValid(digits);
  return Object.freeze(m);
});
