// Where a service's CPU went, from a V8 CPU profile (.cpuprofile): each sample's self time given to the place its
// function was written — one of Coffer's own source files (through the bundle's source map), a library package,
// Node's own code — or to what V8 reports without a function: the garbage collector, (program) and idle.
import path from 'node:path';
import { SourceMap } from 'node:module';
import { repositoryFileOf } from './coverage-files.mjs';

/** Where a frame's code lives: a package under node_modules, node's own code, V8, or the app's bundle. */
export function packageOf(url) {
  if (!url) return '(native/V8)';
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const nm = url.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.includes('/dist/apps/')) return `app:${url.split('/dist/apps/')[1].split('/')[0]}`;
  return path.basename(url);
}

/**
 * The place a profile node's function was written, as a short label: for code of the app's bundle, the source file
 * (or library) the bundle's source map gives; otherwise its package (packageOf), or what V8 names a node without a
 * script ((garbage collector), (program), (idle), a native function).
 */
export function siteOf(callFrame, { bundleUrl, map, app }) {
  const { url, functionName, lineNumber, columnNumber } = callFrame;
  if (!url) return functionName?.startsWith('(') ? functionName : `(${functionName || 'native'})`;
  if (url === bundleUrl && map && lineNumber >= 0) {
    const source = map.findEntry(lineNumber, columnNumber)?.originalSource;
    const nm = source?.lastIndexOf('node_modules/') ?? -1;
    if (nm !== -1) return packageOf(source.slice(nm));
    return repositoryFileOf(source, app) ?? `app:${app} (webpack runtime, generated code)`;
  }
  return packageOf(url);
}

/**
 * Self time per site, in ms, from a profile (`nodes`, `samples`, `timeDeltas`), largest first; `idle` apart.
 * `sourceMap` is the bundle's map, `bundleUrl` the file URL V8 knows the bundle by.
 */
export function selfTimeBySite(profile, { bundleUrl, sourceMap, app }) {
  const map = sourceMap ? new SourceMap(sourceMap) : undefined;
  const siteOfNode = new Map(profile.nodes.map((n) => [n.id, siteOf(n.callFrame, { bundleUrl, map, app })]));
  const ms = new Map();
  profile.samples.forEach((id, i) => {
    const site = siteOfNode.get(id);
    ms.set(site, (ms.get(site) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const idle = ms.get('(idle)') ?? 0;
  ms.delete('(idle)');
  const busy = [...ms.values()].reduce((a, b) => a + b, 0);
  return { idleMs: idle, busyMs: busy, sites: [...ms].map(([site, t]) => ({ site, ms: t })).sort((a, b) => b.ms - a.ms) };
}
