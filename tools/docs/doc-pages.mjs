// The pages the docs checks read: README.md, CONTRIBUTING.md and every docs/**/*.md, as { file, text } with `file`
// relative to the repository. Pages other engineers add (docs/tracing.md, say) are read as they land.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './sdk-calls.mjs';

export function docPages() {
  const files = ['README.md', 'CONTRIBUTING.md'];
  const walk = (dir) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.md')) files.push(rel);
    }
  };
  walk('docs');
  return files.filter((f) => fs.existsSync(path.join(ROOT, f))).map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') }));
}

/** The lines of `text` outside fenced code blocks, with their 1-based numbers. */
export function proseLines(text) {
  let fenced = false;
  const out = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) out.push({ n: i + 1, line });
  }
  return out;
}
