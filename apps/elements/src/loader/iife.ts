// elements.js: a classic script defining window.CofferElements. The elements origin is the origin of this script.
import { makeCofferElements, type CofferElementsApi } from './core';

declare global {
  interface Window {
    CofferElements?: CofferElementsApi;
  }
}

const src = (document.currentScript as HTMLScriptElement | null)?.src;
if (!window.CofferElements) window.CofferElements = makeCofferElements(src);
