// elements.js: a classic script defining window.CofferElements. The elements origin is the origin of this script.
// window.CofferElements is typed by the published declarations (static/elements.d.ts): what is assigned must be what
// they promise.
import { makeCofferElements } from './core';

const src = (document.currentScript as HTMLScriptElement | null)?.src;
if (!window.CofferElements) window.CofferElements = makeCofferElements(src);
