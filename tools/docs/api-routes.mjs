// docs/api-reference.md against docs/openapi.json (generated from the gateway's controllers, `npm run openapi`): every
// route the gateway serves has a row in a route table, or is named in the text as `METHOD /path`, and every route the
// page names exists.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './sdk-calls.mjs';

export const PAGE = 'docs/api-reference.md';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Named by the page but served on each process's HEALTH_PORT, not by the API (so not in docs/openapi.json). */
const HEALTH_PORT_ROUTES = new Set(['GET /metrics']);

/** `Set<"METHOD /path">` of docs/openapi.json. */
export function servedRoutes(spec = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/openapi.json'), 'utf8'))) {
  const routes = new Set();
  for (const [p, ops] of Object.entries(spec.paths ?? {}))
    for (const m of Object.keys(ops)) if (METHODS.includes(m.toUpperCase())) routes.add(`${m.toUpperCase()} ${p}`);
  return routes;
}

/**
 * `Map<"METHOD /path", line>` the page names: table rows (`| \`GET\` | \`/tokens/{id}\` |`; "any of 5" is every
 * method; `/proxy/**` is `/proxy/{path}`) and inline code such as `GET /healthz`.
 */
export function documentedRoutes(text = fs.readFileSync(path.join(ROOT, PAGE), 'utf8')) {
  const routes = new Map();
  const add = (method, p, line) => routes.set(`${method} ${p.replace(/\/\*\*$/, '/{path}')}`, line);
  for (const [i, line] of text.split('\n').entries()) {
    const row = /^\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|/.exec(line);
    if (row) {
      const methods = /^any of \d+$/.test(row[1]) ? METHODS : [...row[1].matchAll(/`([A-Z]+)`/g)].map((m) => m[1]).filter((m) => METHODS.includes(m));
      const paths = [...row[2].matchAll(/`(\/[^`]*)`/g)].map((m) => m[1]);
      for (const method of methods) for (const p of paths) add(method, p, i + 1);
    }
    for (const m of line.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s]*)`/g)) add(m[1], m[2], i + 1);
  }
  return routes;
}

/** One sentence per route served but not documented, or documented but not served. */
export function apiRouteProblems(served = servedRoutes(), documented = documentedRoutes()) {
  return [
    ...[...served].filter((r) => !documented.has(r)).map((r) => `${r} is served (docs/openapi.json) but ${PAGE} does not list it`),
    ...[...documented]
      .filter(([r]) => !served.has(r) && !HEALTH_PORT_ROUTES.has(r))
      .map(([r, line]) => `${PAGE}:${line}: ${r} is not a route of docs/openapi.json`),
  ];
}
