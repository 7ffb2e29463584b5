// From V8's precise coverage of a service's bundle to the hand-written source files whose functions ran
// (tools/bench/request-files.mjs): offsets → line and column → the bundle's source map → the repository path.
import path from 'node:path';
import { SourceMap } from 'node:module';

/** A function from an offset in `text` to its 0-based line and column (what SourceMap.findEntry takes). */
export function positionsOf(text) {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, column: offset - lineStarts[lo] };
  };
}

/**
 * The repository path of a bundle's source, or undefined for what is not Coffer's own hand-written code (libraries,
 * webpack's runtime, generated code). The bundle names its sources relative to the app's folder:
 * `webpack:///./src/…` and `webpack:///../../libs/…`.
 */
export function repositoryFileOf(source, app) {
  if (!source?.startsWith('webpack:///')) return undefined;
  const file = path.posix.normalize(path.posix.join('apps', app, source.slice('webpack:///'.length)));
  return /^(apps|libs)\/[^/]+\/src\//.test(file) && !file.includes('/generated/') && !file.includes('node_modules') ? file : undefined;
}

/**
 * The getter TypeScript writes for a re-export (`export { x } from './x'` becomes `get: function () { return x_1.x; }`,
 * `export *` a `return m[k];`): it maps to the barrel's line, yet nothing a maintainer wrote runs in it.
 */
const REEXPORT_GETTER = /^function\s*\(\)\s*\{\s*return [\w$]+(\.[\w$]+|\[[\w$]+\]);\s*\}$/;

export function isReexportGetter(name, text) {
  return name === 'get' && REEXPORT_GETTER.test(text);
}

/**
 * `Map<file, Set<function name>>` of the named functions of `bundleUrl` that ran at least once in `coverage`, the
 * compiler's re-export getters aside.
 */
export function filesThatRan({ coverage, bundleUrl, bundleText, sourceMap, app }) {
  const position = positionsOf(bundleText);
  const map = new SourceMap(sourceMap);
  const files = new Map();
  for (const script of coverage.result) {
    if (script.url !== bundleUrl) continue;
    for (const fn of script.functions) {
      const whole = fn.ranges[0];
      if (!whole || whole.count === 0 || !fn.functionName) continue;
      if (isReexportGetter(fn.functionName, bundleText.slice(whole.startOffset, whole.endOffset))) continue;
      const { line, column } = position(whole.startOffset);
      const file = repositoryFileOf(map.findEntry(line, column)?.originalSource, app);
      if (!file) continue;
      if (!files.has(file)) files.set(file, new Set());
      files.get(file).add(fn.functionName);
    }
  }
  return files;
}
