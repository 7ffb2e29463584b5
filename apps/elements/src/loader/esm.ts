// elements.mjs: the same API as an ES module. The elements origin is the origin of this module.
import { makeCofferElements } from './core';

export const CofferElements = makeCofferElements(import.meta.url);
export default CofferElements;
