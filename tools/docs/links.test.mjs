// Every link in README.md and docs/**/*.md must resolve inside the repository: relative files exist, `#anchors`
// name a heading of the target document, and nothing points outside the repository (../shared in particular).
// Run: node --test 'tools/docs/*.test.mjs'  (or: npx nx run docs:test)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

// Targets other engineers create in parallel. The integrator removes each entry once the file exists on main.

function markdownFiles() {
  const files = [join(ROOT, 'README.md')];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(ROOT, 'docs'));
  return files;
}

/** Markdown without fenced code blocks and inline code spans (links there are examples, not links). */
function prose(text) {
  return withoutFences(text).replace(/`[^`\n]*`/g, '');
}

/** Markdown without fenced code blocks (a `# comment` in a shell example is not a heading). */
function withoutFences(text) {
  return text.replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[^\n]*$/gm, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, duplicates numbered. */
export function anchors(text) {
  const seen = new Map();
  const out = new Set();
  for (const line of withoutFences(text).split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** [text](target) and [label]: target definitions. */
export function links(text) {
  const found = [];
  const body = prose(text);
  for (const m of body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push(m[1]);
  for (const m of body.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) found.push(m[1]);
  return found;
}

function problems(file) {
  const text = readFileSync(file, 'utf8');
  const where = relative(ROOT, file);
  const out = [];
  if (/(\.\.\/)+shared\b|\/work\/shared/.test(text)) out.push(`${where}: mentions ../shared (not part of the repository)`);
  for (const link of links(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto: — public addresses
    const [pathPart, anchor] = link.split('#', 2);
    const target = pathPart ? resolve(dirname(file), decodeURIComponent(pathPart)) : file;
    const inRepo = relative(ROOT, target);
    if (inRepo.startsWith('..')) {
      out.push(`${where}: ${link} points outside the repository`);
      continue;
    }
    if (!existsSync(target)) {
      out.push(`${where}: ${link} — no such file ${inRepo}`);
      continue;
    }
    if (anchor !== undefined && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor.toLowerCase()))
      out.push(`${where}: ${link} — no heading #${anchor} in ${inRepo}`);
  }
  return out;
}

test('README.md and docs/**/*.md link only to files and headings that exist inside the repository', () => {
  const all = markdownFiles().flatMap(problems);
  assert.deepEqual(all, []);
});

test('the checker itself catches broken links, missing anchors and links outside the repository', () => {
  const text = '# Title\n\n## Back-pressure & limits\n\n[a](#title) [b](#back-pressure--limits) [c](#nope)\n```\n[d](#in-code)\n```\n';
  assert.deepEqual(links(text), ['#title', '#back-pressure--limits', '#nope']);
  assert.ok(anchors(text).has('back-pressure--limits'));
  assert.ok(!anchors(text).has('nope'));
  assert.deepEqual([...anchors('## `GET /tokens` (v1)\n## Cursors\n## Cursors\n```bash\n# comment\n```\n')], ['get-tokens-v1', 'cursors', 'cursors-1']);
  assert.deepEqual(links('1. step\n\n   ```bash\n   [x](nowhere.md)\n   ```\n[y](there.md)'), ['there.md']);
});
