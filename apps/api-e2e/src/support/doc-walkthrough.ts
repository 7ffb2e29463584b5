import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
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
 * The commands of the ```sh / ```bash blocks under the heading `heading` of `page` (up to the next heading of the
 * same or a higher level; no heading: the whole page), in order; a line ending in `\` continues on the next. Comment lines right after a command
 * (no blank line between) are the output the page promises for it; other comments are remarks.
 */
export function sectionCommands(page: string, heading?: string): DocCommand[] {
  const lines = fs.readFileSync(path.join(ROOT, page), 'utf8').split('\n');
  // no heading: the whole page
  const start = heading === undefined ? -1 : lines.findIndex((l) => /^#+\s/.test(l) && l.replace(/^#+\s*/, '') === heading);
  if (start < 0 && heading !== undefined) throw new Error(`${page} has no heading "${heading}"`);
  const level = start < 0 ? 0 : (/^#+/.exec(lines[start])?.[0] ?? '').length;
  const commands: DocCommand[] = [];
  let fence: 'sh' | 'other' | null = null;
  let last: DocCommand | null = null;
  let continued = false;
  for (const raw of lines.slice(start + 1)) {
    const next = /^(#+)\s/.exec(raw);
    if (next && !fence && next[1].length <= level) break;
    const line = raw.trim();
    if (line.startsWith('```')) {
      fence = fence ? null : line === '```sh' || line === '```bash' ? 'sh' : 'other';
      last = null;
      continue;
    }
    if (fence !== 'sh') continue;
    if (continued && last) {
      last.command = `${last.command}\n${line}`;
      continued = line.endsWith('\\');
    } else if (!line) last = null;
    else if (line.startsWith('#')) {
      if (last) last.expected = [last.expected, line.replace(/^#\s?/, '')].filter((x) => x !== undefined).join('\n');
    } else {
      last = { command: line };
      commands.push(last);
      continued = line.endsWith('\\');
    }
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
  // the copy links this node_modules: `npm start` there would run `npm ci` if it were not the install of this lockfile,
  // and npm ci empties node_modules first, through the link (it emptied this checkout's once), so that is refused
  // here (the marker is tools/dev/system.mjs ensureInstalled's)
  const lock = fs.readFileSync(path.join(ROOT, 'package-lock.json'));
  const hash = createHash('sha256').update(lock).update(`\0${process.version}-${process.platform}-${process.arch}`).digest('hex');
  const marker = path.join(ROOT, 'node_modules', '.coffer-lock-hash');
  if (!fs.existsSync(marker) || fs.readFileSync(marker, 'utf8') !== hash)
    throw new Error('node_modules is not the install of package-lock.json: run npm ci (or npm test) first');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-walkthrough-'));
  // as a clone's directory is: run as root, the embedded PostgreSQL's initdb drops to another user that must reach .data
  fs.chmodSync(dir, 0o755);
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

/**
 * One terminal of the reader's: a bash that keeps its variables from one command to the next (`MK=$(…)`, then
 * `curl … $MK`), in the copy, with the reader's environment.
 */
export class ReaderShell {
  private readonly bash: ChildProcessWithoutNullStreams;
  private stdout = '';
  private stderr = '';
  private count = 0;

  constructor(cwd: string, env: NodeJS.ProcessEnv) {
    this.bash = spawn('bash', ['--noprofile', '--norc'], { cwd, env });
    this.bash.stdout.on('data', (d: Buffer) => (this.stdout += d.toString()));
    this.bash.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
  }

  /** Runs `command`; resolves with what it printed, rejects when it exits non-zero or takes longer than `timeoutMs`. */
  async run(command: string, timeoutMs = 10 * 60_000): Promise<string> {
    const marker = `__walkthrough_done_${++this.count}_`;
    this.stdout = '';
    this.stderr = '';
    // the marker on a line of its own, after the command's own output (which may not end with a newline)
    this.bash.stdin.write(`${command}\nprintf '\\n${marker}%s\\n' "$?"\n`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = new RegExp(`\\n${marker}(\\d+)\\n`).exec(this.stdout);
      if (m) {
        const output = this.stdout.slice(0, m.index);
        if (m[1] !== '0') throw new Error(`"${command}" exited ${m[1]}\n${this.stderr}\n${output}`);
        return output;
      }
      if (this.bash.exitCode !== null) throw new Error(`the shell exited (${this.bash.exitCode}) during "${command}"\n${this.stderr}`);
      if (Date.now() > deadline) throw new Error(`"${command}" did not finish within ${timeoutMs} ms\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  close(): void {
    this.bash.stdin.end();
    this.bash.kill();
  }
}
