import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A documented walk-through, followed as a reader would: the commands of a section of a page in docs/, as written,
 * run in a fresh copy of the working tree (no .data, no build, no database), so a step the page forgot fails here.
 */

export const ROOT = path.resolve(__dirname, '../../../..');

export interface DocCommand {
  /** the command line as the page writes it */
  command: string;
  /** the output the page shows under it (its `# ` comment lines), if any; `…` stands for any text */
  expected?: string;
}

/**
 * The commands of the ```sh blocks under the heading `heading` of `page` (up to the next heading of the same or a
 * higher level), in order. Comment lines right after a command are the output the page promises for it.
 */
export function sectionCommands(page: string, heading: string): DocCommand[] {
  const lines = fs.readFileSync(path.join(ROOT, page), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.replace(/^#+\s*/, '') === heading && /^#+\s/.test(l));
  if (start < 0) throw new Error(`${page} has no heading "${heading}"`);
  const level = /^#+/.exec(lines[start])![0].length;
  const commands: DocCommand[] = [];
  let inSh = false;
  let inOther = false;
  for (const raw of lines.slice(start + 1)) {
    const next = /^(#+)\s/.exec(raw);
    if (next && !inSh && !inOther && next[1].length <= level) break;
    const line = raw.trim();
    if (line.startsWith('```')) {
      if (inSh || inOther) inSh = inOther = false;
      else if (line === '```sh' || line === '```bash') inSh = true;
      else inOther = true;
      continue;
    }
    if (!inSh || !line) continue;
    const last = commands[commands.length - 1];
    if (line.startsWith('#')) {
      if (last) last.expected = [last.expected, line.replace(/^#\s?/, '')].filter((x) => x !== undefined).join('\n');
    } else commands.push({ command: line });
  }
  return commands;
}

/** Whether `output` is what the page shows, `…` matching any text (ids, dates, paths). */
export function matchesShown(output: string, shown: string): boolean {
  const pattern = shown
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s*\n\s*/g, '\\s*'))
    .join('.*?');
  return new RegExp(`^${pattern}$`, 's').test(output.trim());
}

/**
 * A fresh copy of the working tree (tracked files and new ones git does not ignore: no .data, dist, .nx) in a
 * temporary directory. node_modules is linked, not copied: installing is `npm ci`'s job, tested by every other run,
 * and it would take minutes; `npm start` still checks it against the lockfile as on a fresh clone.
 */
export function freshCopy(): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-walkthrough-'));
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    const from = path.join(ROOT, file);
    // a tracked file deleted in the working tree is not part of it
    if (!fs.existsSync(from) || fs.lstatSync(from).isDirectory()) continue;
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.cpSync(from, path.join(dir, file), { preserveTimestamps: true, verbatimSymlinks: true });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The environment of a reader's shell: PATH (the pinned Node first, as the harness runs on it) and HOME, nothing of
 * Coffer's configuration (no DATABASE_URL, NATS_URL, KEY_ENCRYPTION_KEYS); `extra` names only where to listen.
 */
export function readerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const bin = path.dirname(process.execPath);
  return {
    PATH: [bin, ...(process.env['PATH'] ?? '').split(path.delimiter).filter((p) => p && p !== bin)].join(path.delimiter),
    HOME: process.env['HOME'] ?? os.homedir(),
    LANG: 'C.UTF-8',
    ...extra,
  };
}
