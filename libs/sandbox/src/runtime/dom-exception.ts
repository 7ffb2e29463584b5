import { once } from './host';

/** The web platform's DOMException (a plain Error subclass: nothing of a host DOM). */
export const getDOMException = once(
  () =>
    class DOMException extends Error {
      constructor(message?: unknown, name?: unknown) {
        super(message === undefined ? '' : String(message));
        Object.defineProperty(this, 'name', { value: name === undefined ? 'Error' : String(name), writable: true, configurable: true });
      }
    },
);

export function domException(message: string, name: string): Error {
  const D = getDOMException();
  return new D(message, name);
}
