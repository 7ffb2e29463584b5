/**
 * A Dockerfile parser and linter for Coffer's image invariants (no Docker engine runs where the tests do).
 *
 * Rules, applied to the stages that produce images ("targets") and everything that flows into them:
 *   base-image               every external base image is Node <major> (default 22), tagged, never `latest`
 *   non-root-user            a target runs as a numeric, non-zero uid (so Kubernetes can verify runAsNonRoot)
 *   no-healthcheck           no HEALTHCHECK: Kubernetes probes do health checking
 *   production-dependencies  no install with dev dependencies in a target or what it copies node_modules from
 *   lockfile-install         installs in shipped stages use `npm ci` (the lockfile), never `npm install`
 *   exec-form-cmd            the target's CMD is exec form and starts `node` (node is PID 1 and receives SIGTERM)
 *   node-env-production      NODE_ENV=production in every target
 *   no-secrets               no ENV/ARG that carries a secret (DATABASE_URL, passwords, keys)
 *   no-remote-add            no ADD of a URL
 *   single-app-build         Nx builds name the one app ($APP), never run-many without -p or affected (the one
 *                            exception: `nx build admin`, the operator CLI that the token-service image carries)
 *   code-owned-by-root       targets do not chown their files to the runtime user (code stays immutable)
 */

export interface Instruction {
  keyword: string;
  /** arguments after flags, as written */
  args: string;
  flags: Record<string, string>;
  /** JSON (exec) form, when the arguments are a JSON array */
  json?: string[];
  line: number;
}

export interface Stage {
  index: number;
  name?: string;
  /** the FROM argument with global ARG defaults substituted */
  base: string;
  parent?: Stage;
  instructions: Instruction[];
  line: number;
}

export interface ParsedDockerfile {
  globalArgs: Record<string, string | undefined>;
  stages: Stage[];
  all: Instruction[];
}

export interface Violation {
  rule: string;
  line: number;
  message: string;
}

export function parseDockerfile(text: string, buildArgs: Record<string, string> = {}): ParsedDockerfile {
  const physical = text.split(/\r?\n/);
  const logical: { text: string; line: number }[] = [];
  let current: { text: string; line: number } | undefined;
  physical.forEach((raw, i) => {
    const trimmed = raw.trim();
    if (trimmed.startsWith('#')) return; // comments (and parser directives), also inside continuations
    if (!current) {
      if (trimmed === '') return;
      current = { text: '', line: i + 1 };
    }
    if (/\\\s*$/.test(raw)) {
      current.text += `${raw.replace(/\\\s*$/, '')}\n`;
    } else {
      current.text += raw;
      logical.push(current);
      current = undefined;
    }
  });
  if (current) logical.push(current);

  const all: Instruction[] = logical.map(({ text: t, line }) => {
    const m = /^\s*(\S+)\s*([\s\S]*)$/.exec(t) as RegExpExecArray;
    const keyword = (m[1] as string).toUpperCase();
    let rest = (m[2] as string).trim();
    const flags: Record<string, string> = {};
    if (['FROM', 'COPY', 'ADD', 'RUN'].includes(keyword)) {
      for (;;) {
        const f = /^--([a-z-]+)(?:=(\S*))?\s+/.exec(rest);
        if (!f) break;
        flags[f[1] as string] = f[2] ?? 'true';
        rest = rest.slice(f[0].length);
      }
    }
    let json: string[] | undefined;
    if (rest.startsWith('[')) {
      try {
        const parsed = JSON.parse(rest) as unknown;
        if (Array.isArray(parsed) && parsed.every((x) => typeof x === 'string')) json = parsed;
      } catch {
        /* shell form that happens to start with [ */
      }
    }
    return { keyword, args: rest, flags, json, line };
  });

  const globalArgs: Record<string, string | undefined> = {};
  const stages: Stage[] = [];
  for (const ins of all) {
    if (ins.keyword === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?\s*$/i.exec(ins.args);
      if (!m) throw new Error(`line ${ins.line}: cannot parse FROM ${ins.args}`);
      const base = substitute(m[1] as string, { ...globalArgs, ...buildArgs });
      const parent = stages.find((s) => s.name !== undefined && s.name === base.toLowerCase());
      stages.push({ index: stages.length, name: m[2]?.toLowerCase(), base, parent, instructions: [], line: ins.line });
    } else if (stages.length === 0) {
      if (ins.keyword !== 'ARG') throw new Error(`line ${ins.line}: only ARG may precede the first FROM`);
      const [name, value] = splitAssignment(ins.args);
      globalArgs[name] = value;
    } else {
      (stages[stages.length - 1] as Stage).instructions.push(ins);
    }
  }
  return { globalArgs, stages, all };
}

function splitAssignment(s: string): [string, string | undefined] {
  const eq = s.indexOf('=');
  if (eq === -1) return [s.trim(), undefined];
  return [s.slice(0, eq).trim(), unquote(s.slice(eq + 1).trim())];
}

function unquote(s: string): string {
  return /^".*"$|^'.*'$/.test(s) ? s.slice(1, -1) : s;
}

function substitute(s: string, vars: Record<string, string | undefined>): string {
  return s.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_m, a, def, b) => {
    const v = vars[(a ?? b) as string];
    return v === undefined || v === '' ? (def ?? '') : v;
  });
}

/** ENV assignments of one instruction (`ENV A=1 B=2` or legacy `ENV A 1`). */
export function envAssignments(ins: Instruction): Record<string, string> {
  const out: Record<string, string> = {};
  const text = ins.args.replace(/\n/g, ' ').trim();
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) {
    const m = /^(\S+)\s+([\s\S]*)$/.exec(text);
    if (m) out[m[1] as string] = (m[2] as string).trim();
    return out;
  }
  const re = /([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out[m[1] as string] = unquote(m[2] as string);
  return out;
}

function chain(stage: Stage): Stage[] {
  const out: Stage[] = [];
  for (let s: Stage | undefined = stage; s; s = s.parent) out.push(s);
  return out;
}

/** The last instruction with this keyword that applies to the stage, through its FROM chain. */
function effective(stage: Stage, keyword: string): Instruction | undefined {
  for (const s of chain(stage)) {
    const found = [...s.instructions].reverse().find((i) => i.keyword === keyword);
    if (found) return found;
  }
  return undefined;
}

function effectiveEnv(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const s of chain(stage).reverse()) {
    for (const i of s.instructions) if (i.keyword === 'ENV') Object.assign(env, envAssignments(i));
  }
  return env;
}

/** Shell commands of a RUN, split on && || ; | and newlines, with leading shell keywords dropped. */
export function shellCommands(ins: Instruction): string[] {
  const text = ins.json ? ins.json.join(' ') : ins.args;
  return text
    .split(/&&|\|\||;|\||\n/)
    .map((c) =>
      c
        .trim()
        .replace(/^(?:(?:then|else|do|\{|\()\s+)+/, '')
        .replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, ''),
    )
    .filter(Boolean);
}

interface Install {
  command: string;
  line: number;
  dev: boolean;
  lockfile: boolean;
}

function installs(stage: Stage): Install[] {
  const out: Install[] = [];
  for (const ins of stage.instructions) {
    if (ins.keyword !== 'RUN') continue;
    for (const command of shellCommands(ins)) {
      const m = /^(npm|yarn|pnpm)\s+(ci|install|i|add)\b(.*)$/.exec(command);
      if (!m) continue;
      const rest = m[3] as string;
      const omitsDev = /--omit[= ]dev\b/.test(rest) || (m[1] !== 'npm' && /--prod(uction)?\b/.test(rest));
      out.push({ command, line: ins.line, dev: !omitsDev, lockfile: m[1] === 'npm' && m[2] === 'ci' });
    }
  }
  return out;
}

function stageByRef(df: ParsedDockerfile, ref: string): Stage | undefined {
  if (/^\d+$/.test(ref)) return df.stages[Number(ref)];
  return df.stages.find((s) => s.name === ref.toLowerCase());
}

function hasDevDependencies(stage: Stage): boolean {
  return chain(stage).some((s) => installs(s).some((i) => i.dev));
}

function workdirs(stage: Stage): string[] {
  return chain(stage).flatMap((s) => s.instructions.filter((i) => i.keyword === 'WORKDIR').map((i) => i.args.trim()));
}

const norm = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);

const SECRET_NAME =
  /^(DATABASE_URL|KEY_ENCRYPTION_KEYS|NATS_NKEY_SEED|NATS_NKEY_SEED_FILE|NATS_PASSWORD|NATS_TOKEN|NATS_CREDS|.*_PASSWORD|.*_SECRET|.*SECRET_KEY|.*_TOKEN)$/;

export interface LintOptions {
  /** names (or indexes) of the stages that are built as images; defaults to the last stage */
  targets?: string[];
  nodeMajor?: number;
}

export function lintDockerfile(df: ParsedDockerfile, options: LintOptions = {}): Violation[] {
  const v: Violation[] = [];
  const nodeMajor = options.nodeMajor ?? 22;
  const targetRefs = options.targets ?? [String(df.stages.length - 1)];
  const targets = targetRefs.map((ref) => {
    const s = stageByRef(df, ref);
    if (!s) throw new Error(`no stage "${ref}"`);
    return s;
  });

  // base-image
  for (const s of df.stages) {
    if (s.parent) continue;
    const m = /^(?:(?:docker\.io\/)?(?:library\/)?)?([^:@]+)(?::([^@]+))?(?:@(sha256:[a-f0-9]{64}))?$/.exec(s.base);
    const image = m?.[1];
    const tag = m?.[2];
    if (!m || image !== 'node') {
      v.push({ rule: 'base-image', line: s.line, message: `base image "${s.base}" is not the official node image` });
    } else if (!tag || tag === 'latest' || !new RegExp(`^${nodeMajor}(?:[.-]|$)`).test(tag)) {
      v.push({ rule: 'base-image', line: s.line, message: `base image "${s.base}" is not pinned to Node ${nodeMajor}` });
    }
  }

  // no-healthcheck, no-secrets, no-remote-add (whole file)
  for (const s of df.stages) {
    for (const ins of s.instructions) {
      if (ins.keyword === 'HEALTHCHECK' && ins.args.trim().toUpperCase() !== 'NONE') {
        v.push({ rule: 'no-healthcheck', line: ins.line, message: 'HEALTHCHECK in an image: leave health checking to Kubernetes probes' });
      }
      if (ins.keyword === 'ENV' || ins.keyword === 'ARG') {
        const names = ins.keyword === 'ENV' ? Object.keys(envAssignments(ins)) : [splitAssignment(ins.args)[0]];
        for (const name of names) {
          if (SECRET_NAME.test(name)) {
            v.push({ rule: 'no-secrets', line: ins.line, message: `${ins.keyword} ${name} bakes a secret into the image` });
          }
        }
      }
      if (ins.keyword === 'ADD' && /(^|\s)https?:\/\//.test(ins.args)) {
        v.push({ rule: 'no-remote-add', line: ins.line, message: 'ADD of a URL: download in a build stage with a checksum instead' });
      }
      if (ins.keyword === 'RUN') {
        for (const c of shellCommands(ins)) {
          const nx = /^(?:npx\s+)?nx\s+(\S+)(.*)$/.exec(c);
          if (!nx) continue;
          const [, sub, rest] = nx as unknown as [string, string, string];
          const namesApp = /\$\{?APP\}?/.test(rest);
          if (sub === 'affected' || /--all\b/.test(rest)) {
            v.push({ rule: 'single-app-build', line: ins.line, message: `"${c}" builds more than the one app` });
          } else if (sub === 'run-many' && !(/(^|\s)(-p|--projects)[= ]/.test(rest) && namesApp)) {
            v.push({ rule: 'single-app-build', line: ins.line, message: `"${c}" must be limited to -p "$APP"` });
          } else if ((sub === 'build' || sub === 'run') && !namesApp && !/^build\s+admin$/.test(`${sub}${rest}`.trim())) {
            v.push({ rule: 'single-app-build', line: ins.line, message: `"${c}" must name the app ($APP)` });
          }
        }
      }
    }
  }

  // Stages whose files end up in an image: targets, their FROM ancestors, and stages they copy from
  // (unless the copy is of build output only from a stage that holds dev dependencies).
  const shipped = new Set<Stage>();
  const queue = [...targets];
  while (queue.length) {
    const s = queue.shift() as Stage;
    if (shipped.has(s)) continue;
    shipped.add(s);
    if (s.parent) queue.push(s.parent);
    for (const ins of s.instructions) {
      if (ins.keyword !== 'COPY' || !ins.flags['from']) continue;
      const from = stageByRef(df, ins.flags['from']);
      if (!from) continue; // an external image
      const parts = ins.json ?? ins.args.split(/\s+/).filter(Boolean);
      const sources = parts.slice(0, -1);
      if (hasDevDependencies(from)) {
        const roots = new Set(['/', '.', './', ...workdirs(from).map(norm)]);
        for (const src of sources) {
          if (/(^|\/)node_modules(\/|$)/.test(src) || roots.has(norm(src))) {
            v.push({
              rule: 'production-dependencies',
              line: ins.line,
              message: `COPY --from=${ins.flags['from']} ${src} ships a tree that holds dev dependencies`,
            });
          }
        }
      } else {
        queue.push(from);
      }
    }
  }
  for (const s of shipped) {
    for (const i of installs(s)) {
      if (i.dev) {
        v.push({ rule: 'production-dependencies', line: i.line, message: `"${i.command}" installs dev dependencies into a shipped stage (add --omit=dev)` });
      }
      if (!i.lockfile) {
        v.push({ rule: 'lockfile-install', line: i.line, message: `"${i.command}" ignores the lockfile: use npm ci` });
      }
    }
  }

  for (const t of targets) {
    const label = t.name ?? `stage ${t.index}`;
    const user = effective(t, 'USER');
    const m = user ? /^(\d+)(?::(\d+))?$/.exec(user.args.trim()) : null;
    if (!user) {
      v.push({ rule: 'non-root-user', line: t.line, message: `${label} runs as root (no USER)` });
    } else if (!m) {
      v.push({
        rule: 'non-root-user',
        line: user.line,
        message: `${label}: USER ${user.args} must be a numeric uid[:gid] (runAsNonRoot cannot verify a name)`,
      });
    } else if (Number(m[1]) === 0 || m[2] === '0') {
      v.push({ rule: 'non-root-user', line: user.line, message: `${label}: USER ${user.args} is root` });
    }
    const cmd = effective(t, 'CMD');
    const entrypoint = effective(t, 'ENTRYPOINT');
    if (entrypoint && !entrypoint.json) {
      v.push({ rule: 'exec-form-cmd', line: entrypoint.line, message: `${label}: ENTRYPOINT in shell form (a shell would be PID 1)` });
    }
    if (!cmd || !cmd.json) {
      v.push({ rule: 'exec-form-cmd', line: cmd?.line ?? t.line, message: `${label}: CMD must be exec form (JSON array)` });
    } else if (!entrypoint && cmd.json[0] !== 'node') {
      v.push({ rule: 'exec-form-cmd', line: cmd.line, message: `${label}: CMD must start node directly, got ${cmd.json[0]}` });
    }
    if (effectiveEnv(t)['NODE_ENV'] !== 'production') {
      v.push({ rule: 'node-env-production', line: t.line, message: `${label}: NODE_ENV is not production` });
    }
    for (const ins of t.instructions) {
      if ((ins.keyword === 'COPY' || ins.keyword === 'ADD') && ins.flags['chown']) {
        v.push({ rule: 'code-owned-by-root', line: ins.line, message: `${label}: --chown=${ins.flags['chown']} lets the app rewrite its own files` });
      }
    }
  }
  return v;
}

/** The user a target stage runs as (through its FROM chain). */
export function effectiveUser(df: ParsedDockerfile, target: string): string | undefined {
  const s = stageByRef(df, target);
  return s ? effective(s, 'USER')?.args.trim() : undefined;
}

/** The environment a target stage sets (through its FROM chain), before build-arg substitution. */
export function effectiveEnvironment(df: ParsedDockerfile, target: string): Record<string, string> {
  const s = stageByRef(df, target);
  return s ? effectiveEnv(s) : {};
}

export function findStage(df: ParsedDockerfile, ref: string): Stage | undefined {
  return stageByRef(df, ref);
}
