/**
 * The Node 16 globals formula code sees. The sizeable ones are lazy: defined as getters that build the value on
 * first read and then replace themselves with a plain data property (assignable, like Node's).
 */
import { AbortController, AbortSignal } from './abort';
import { getBuffer } from './buffer';
import { getConsole } from './console';
import { getDOMException } from './dom-exception';
import { InertFinalizationRegistry, InertWeakRef } from './engine-work';
import { getFetch, Request, Response } from './fetch';
import { Headers } from './headers';
import { once } from './host';
import { atob, btoa, getTextCodecs } from './text-codec';
import { clearAnyTimer, queueMicrotask, setImmediate, setInterval, setTimeout } from './timers';
import { getUrlClasses } from './url';

const getPerformance = once(() => {
  const timeOrigin = Date.now();
  return { timeOrigin, now: () => Date.now() - timeOrigin };
});

function plainGlobal(name: string, value: unknown): void {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}

function lazyGlobal(name: string, factory: () => unknown): void {
  Object.defineProperty(globalThis, name, {
    configurable: true,
    enumerable: false,
    get: () => {
      const v = factory();
      plainGlobal(name, v);
      return v;
    },
    set: (v: unknown) => plainGlobal(name, v),
  });
}

export function installGlobals(): void {
  plainGlobal('global', globalThis);
  plainGlobal('atob', atob);
  plainGlobal('btoa', btoa);
  plainGlobal('setTimeout', setTimeout);
  plainGlobal('clearTimeout', clearAnyTimer);
  plainGlobal('setInterval', setInterval);
  plainGlobal('clearInterval', clearAnyTimer);
  plainGlobal('setImmediate', setImmediate);
  plainGlobal('clearImmediate', clearAnyTimer);
  plainGlobal('queueMicrotask', queueMicrotask);
  plainGlobal('WeakRef', InertWeakRef);
  plainGlobal('FinalizationRegistry', InertFinalizationRegistry);
  lazyGlobal('Buffer', getBuffer);
  lazyGlobal('URL', () => getUrlClasses().URL);
  lazyGlobal('URLSearchParams', () => getUrlClasses().URLSearchParams);
  lazyGlobal('TextEncoder', () => getTextCodecs().TextEncoder);
  lazyGlobal('TextDecoder', () => getTextCodecs().TextDecoder);
  lazyGlobal('console', getConsole);
  lazyGlobal('fetch', getFetch);
  lazyGlobal('Headers', () => Headers);
  lazyGlobal('Request', () => Request);
  lazyGlobal('Response', () => Response);
  lazyGlobal('AbortController', () => AbortController);
  lazyGlobal('AbortSignal', () => AbortSignal);
  lazyGlobal('DOMException', getDOMException);
  lazyGlobal('performance', getPerformance);
}
