// Facts the docs repeat that change under them: the Node version (`.node-version`) and the services `npm start` and
// the manifests run (tools/dev/system.mjs APPS). Each mention is checked; the few that are about something else (the
// reactors' Node 16 contract, the Node a past measurement ran on, a named subset of the services) are listed below
// with the reason, and an entry that no longer matches anything is reported too, so the list cannot go stale.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { docPages } from './doc-pages.mjs';
import { ROOT } from './sdk-calls.mjs';

// the list `npm start`, the test harness and the benchmark start from; tools/dev is no workspace project to import
// from statically, so it is loaded by its path
const { APPS } = await import(pathToFileURL(path.join(ROOT, 'tools/dev/system.mjs')).href);

export const NODE_VERSION = fs.readFileSync(path.join(ROOT, '.node-version'), 'utf8').trim();

/** Mentions of a Node version that are not the runtime's: `file` and a piece of the line, with the reason. */
export const OTHER_NODE_VERSIONS = [
  { file: 'docs/reactors.md', text: 'CommonJS module for Node.js 16', why: "the mirrored API's reactor contract (node-bt)" },
  { file: 'docs/reactors.md', text: '`node-bt` (Node.js 16, CommonJS)', why: "the mirrored API's reactor runtime" },
  { file: 'docs/reactors.md', text: 'It is Node.js 16 style CommonJS', why: "the mirrored API's reactor contract" },
  { file: 'README.md', text: 'CommonJS code for Node 16', why: "the mirrored API's reactor contract" },
  { file: 'README.md', text: 'Linux 6.18.44-fc-v669, Node v20.20.2', why: 'the conditions of a past benchmark run, as recorded' },
  { file: 'docs/scaling.md', text: 'development machine (AMD EPYC, Node 20,', why: 'the conditions of a past measurement, as recorded' },
  { file: 'docs/scaling.md', text: 'and on Node 20 each bind also builds deprecation wrappers', why: 'what a past profile found on Node 20' },
  { file: 'docs/runtime.md', text: '(`npx jest …` on Node 20)', why: 'an example of another Node than the pinned one' },
];

/** Mentions of fewer services than APPS that are meant as a subset. */
export const SERVICE_SUBSETS = [
  {
    file: 'docs/operations.md',
    text: '**Services with a database** (token-service, session-service, reactor-service, webhook-dispatcher',
    why: 'proxy-service and the gateway hold no database connection',
  },
  {
    file: 'docs/keys.md',
    text: 'Services that hold tenant keys (token-service, session-service, reactor-service, webhook-dispatcher)',
    why: 'the services that unwrap data keys',
  },
  {
    file: 'docs/deploying.md',
    text: 'name: token-service|session-service|reactor-service|webhook-dispatcher',
    why: 'a patch for the services with a database',
  },
  {
    file: 'docs/deploying.md',
    text: '`token-service-secrets`, `session-service-secrets`, `reactor-service-secrets`, `webhook-dispatcher-secrets`',
    why: 'the Secrets of the services with a database',
  },
  { file: 'docs/deploying.md', text: 'roll all four services that use it', why: 'the services that read KEY_ENCRYPTION_KEYS' },
  {
    file: 'docs/deploying.md',
    text: 'for svc in token-service session-service reactor-service webhook-dispatcher; do',
    why: 'the Secrets of the services with a database',
  },
  { file: 'CONTRIBUTING.md', text: 'about a minute for all four services', why: 'the services with a medium tier (int-test): those with a database' },
];

const NUMBERS = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };

function excepted(list, file, line, used) {
  const hit = list.find((e) => e.file === file && line.includes(e.text));
  if (hit) used.add(hit);
  return Boolean(hit);
}

function stale(list, used, what) {
  return list.filter((e) => !used.has(e)).map((e) => `${what} lists "${e.text}" in ${e.file}, which no longer says it: remove the entry`);
}

/** A Node version named in the docs must be (a prefix of) `.node-version`'s, and the other version files agree. */
export function nodeVersionProblems(pages = docPages()) {
  const problems = [];
  const used = new Set();
  const pinned = NODE_VERSION.split('.');
  for (const { file, text } of pages) {
    for (const [i, line] of text.split('\n').entries()) {
      for (const m of line.matchAll(/\bNode(?:\.js)?\s+v?(\d+(?:\.\d+){0,2})\b/g)) {
        const named = m[1].split('.');
        if (named.every((part, j) => part === pinned[j])) continue;
        if (!excepted(OTHER_NODE_VERSIONS, file, line, used)) problems.push(`${file}:${i + 1}: "${m[0]}", but .node-version is ${NODE_VERSION}`);
      }
    }
  }
  const nvmrc = path.join(ROOT, '.nvmrc');
  if (fs.existsSync(nvmrc) && fs.readFileSync(nvmrc, 'utf8').trim() !== NODE_VERSION) problems.push(`.nvmrc differs from .node-version (${NODE_VERSION})`);
  const engines = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines?.node ?? '';
  if (!engines.includes(`>=${pinned[0]}`)) problems.push(`package.json engines.node "${engines}" does not start at Node ${pinned[0]}`);
  return [...problems, ...stale(OTHER_NODE_VERSIONS, used, 'OTHER_NODE_VERSIONS')];
}

/** "N services" (or Deployments) must count APPS; a line naming several services but not all of them must be a listed subset. */
export function serviceListProblems(pages = docPages(), apps = APPS) {
  const problems = [];
  const used = new Set();
  for (const { file, text } of pages) {
    for (const [i, line] of text.split('\n').entries()) {
      for (const m of line.matchAll(
        /\b([Tt]wo|[Tt]hree|[Ff]our|[Ff]ive|[Ss]ix|[Ss]even|[Ee]ight|[Nn]ine|[Tt]en|\d+)\s+(?:NestJS\s+|Coffer\s+|built\s+)?(?:services|Deployments)\b/g,
      )) {
        const n = NUMBERS[m[1].toLowerCase()] ?? Number(m[1]);
        if (n !== apps.length && !excepted(SERVICE_SUBSETS, file, line, used))
          problems.push(`${file}:${i + 1}: "${m[0]}", but tools/dev/system.mjs runs ${apps.length} (${apps.join(', ')})`);
      }
      const named = apps.filter((a) => new RegExp(`(^|[^\\w-])${a}(?![\\w])`).test(line));
      if (named.length >= 4 && named.length < apps.length && !excepted(SERVICE_SUBSETS, file, line, used)) {
        const missing = apps.filter((a) => !named.includes(a));
        problems.push(`${file}:${i + 1}: lists ${named.length} of the ${apps.length} services, without ${missing.join(', ')}`);
      }
    }
  }
  return [...problems, ...stale(SERVICE_SUBSETS, used, 'SERVICE_SUBSETS')];
}

/** RFC 9457 obsoletes RFC 7807: the docs cite the current one. */
export function obsoleteRfcProblems(pages = docPages()) {
  return pages.flatMap(({ file, text }) =>
    text.split('\n').flatMap((line, i) => (/\bRFC\s?7807\b/i.test(line) ? [`${file}:${i + 1}: cites RFC 7807, obsoleted by RFC 9457`] : [])),
  );
}
