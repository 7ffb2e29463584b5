/**
 * Images without a Docker engine: the Dockerfile is parsed and linted for Coffer's invariants (non-root numeric
 * USER, no dev dependencies in what ships, no HEALTHCHECK, exec-form node CMD, NODE_ENV=production, one app per
 * build, the Node of .node-version), and cross-checked against the bake file, the manifests, the migration tool and the
 * lockfile.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { loadObjects } from './support/kustomize';
import { effectiveEnvironment, effectiveUser, findStage, lintDockerfile, parseDockerfile, shellCommands, type ParsedDockerfile } from './support/dockerfile';
import { APPS, APP_NAMES, DEPLOY, K8S, WORKSPACE, readText, type AppName } from './support/workspace';

interface BakeTarget {
  inherits?: string[];
  context?: string;
  dockerfile?: string;
  target?: string;
  args?: Record<string, string>;
  tags?: string[];
}
interface BakeFile {
  variable: Record<string, { default: string }>;
  group: Record<string, { targets: string[] }>;
  target: Record<string, BakeTarget>;
}

const dockerfile = (): ParsedDockerfile => parseDockerfile(readText('deploy/docker/Dockerfile'));
const bake = (): BakeFile => JSON.parse(readText('deploy/docker/docker-bake.json')) as BakeFile;
/** The pinned Node of development and CI (docs/runtime.md): the images run the same one. */
const NODE_VERSION = readText('.node-version').trim();
const NODE_MAJOR = Number(NODE_VERSION.split('.')[0]);

/** A bake target with its `inherits` merged in (args merge; other fields: the target's own value wins). */
function resolved(name: string): BakeTarget {
  const t = bake().target[name];
  if (!t) throw new Error(`no bake target ${name}`);
  const parents = (t.inherits ?? []).map(resolved);
  return parents.reduce<BakeTarget>((acc, p) => ({ ...p, ...acc, args: { ...(p.args ?? {}), ...(acc.args ?? {}) } }), { ...t, args: { ...(t.args ?? {}) } });
}

function imageTargets(): string[] {
  return [...new Set([...APP_NAMES, 'migrate'].map((n) => resolved(n).target ?? ''))];
}

describe('deploy/docker/Dockerfile', () => {
  it('passes every image invariant for the stages that are built as images', () => {
    expect(imageTargets().sort()).toEqual(['migrate', 'runtime']);
    expect(lintDockerfile(dockerfile(), { targets: imageTargets(), nodeMajor: NODE_MAJOR })).toEqual([]);
  });

  it('builds the app image by default (runtime is the last stage)', () => {
    const df = dockerfile();
    expect(df.stages[df.stages.length - 1]?.name).toBe('runtime');
  });

  it('defaults to the pinned Node 24 LTS of .node-version, and uses the same Node image to install the native module and to run it', () => {
    expect(NODE_MAJOR).toBe(24);
    const df = dockerfile();
    expect(df.globalArgs['NODE_IMAGE']).toBe(`node:${NODE_VERSION}-bookworm-slim`);
    expect(bake().variable['NODE_IMAGE']?.default).toBe(`node:${NODE_VERSION}-bookworm-slim`);
    expect(readText('.nvmrc').trim()).toBe(NODE_VERSION);
    const external = df.stages.filter((s) => !s.parent).map((s) => s.base);
    expect(new Set(external).size).toBe(1);
    expect(findStage(df, 'app-deps')?.parent?.name).toBe('toolchain');
  });

  it('runs both images as uid:gid 1000:1000, the runAsUser/runAsGroup of every pod', () => {
    const df = dockerfile();
    for (const target of imageTargets()) expect(effectiveUser(df, target)).toBe('1000:1000');
    const workloads = [...APP_NAMES, 'migrate'].flatMap((dir) =>
      fs
        .readdirSync(path.join(K8S, dir))
        .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
        .flatMap((f) => loadObjects(path.join(K8S, dir, f))),
    );
    const pods = workloads.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');
    expect(pods).toHaveLength(APP_NAMES.length + 1);
    for (const o of pods) {
      const sc = (o as unknown as { spec: { template: { spec: { securityContext: { runAsUser: number; runAsGroup: number } } } } }).spec.template.spec
        .securityContext;
      expect([o.metadata.name, sc.runAsUser, sc.runAsGroup]).toEqual([o.metadata.name, 1000, 1000]);
    }
  });

  it('builds exactly one app with Nx and refuses a name that is not an app', () => {
    const build = findStage(dockerfile(), 'build');
    const runs = (build?.instructions ?? []).filter((i) => i.keyword === 'RUN');
    const commands = runs.flatMap(shellCommands);
    expect(commands).toContain('npx nx build "$APP" --configuration=production');
    const guard = runs.map((r) => r.args).find((a) => a.includes('case "$APP" in')) ?? '';
    const allowed = /case "\$APP" in\s+([a-z|-]+)\)/.exec(guard)?.[1]?.split('|') ?? [];
    expect(allowed.sort()).toEqual([...APP_NAMES].sort());
  });

  it('installs production dependencies from the Nx-generated package.json and pruned lockfile', () => {
    // each app's webpack config is the shared one (tools/build/service-webpack.cjs), which generates it unless told not to
    expect(readText('tools', 'build', 'service-webpack.cjs')).toMatch(/generatePackageJson = true/);
    for (const app of APP_NAMES) {
      const webpack = readText('apps', app, 'webpack.config.js');
      const generates =
        /generatePackageJson:\s*true/.test(webpack) || (/serviceWebpackConfig\(/.test(webpack) && !/generatePackageJson:\s*false/.test(webpack));
      expect({ app, generatePackageJson: generates }).toEqual({ app, generatePackageJson: true });
    }
    const df = dockerfile();
    const appDeps = findStage(df, 'app-deps');
    const copy = appDeps?.instructions.find((i) => i.keyword === 'COPY');
    expect(copy?.flags['from']).toBe('build');
    expect(copy?.args).toMatch(/^\/workspace\/dist\/apps\/\$\{APP\}\/ /);
    const commands = (appDeps?.instructions ?? []).filter((i) => i.keyword === 'RUN').flatMap(shellCommands);
    expect(commands).toContain('npm ci --omit=dev --ignore-scripts');
    // and refuses an image whose bundle requires a package the generated package.json forgot
    expect(commands).toContain('node /usr/local/lib/check-bundle-deps.mjs /app');
    const build = (findStage(df, 'build')?.instructions ?? []).filter((i) => i.keyword === 'RUN').flatMap(shellCommands);
    expect(build).toContain('test -f "dist/apps/$APP/package.json"');
    expect(build).toContain('test -f "dist/apps/$APP/package-lock.json"');
  });

  it('ships the operator CLI in the token-service image as admin/main.js, its packages checked like the app bundle, run by the admin Job', () => {
    const df = dockerfile();
    const build = (findStage(df, 'build')?.instructions ?? []).filter((i) => i.keyword === 'RUN').map((i) => i.args);
    const admin = build.find((a) => a.includes('npx nx build admin')) ?? '';
    expect(admin).toMatch(/if \[ "\$APP" = token-service \]/);
    expect(admin).toContain('cp dist/tools/admin/main.js "dist/apps/$APP/admin/main.js"');
    const appDeps = (findStage(df, 'app-deps')?.instructions ?? []).filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(appDeps.join('\n')).toContain('node /usr/local/lib/check-bundle-deps.mjs /app/admin');
    const job = loadObjects(path.join(K8S, 'admin', 'job.yaml'))[0] as unknown as {
      spec: { template: { spec: { containers: Array<{ image: string; command: string[] }> } } };
    };
    expect(job.spec.template.spec.containers[0]).toMatchObject({ image: 'coffer/token-service', command: ['node', 'admin/main.js'] });
  });

  it("installs isolated-vm's prebuilt binary for the image Node and proves it loads, with the toolchain only in build stages", () => {
    const df = dockerfile();
    const toolchain = findStage(df, 'toolchain');
    const apt = (toolchain?.instructions ?? [])
      .filter((i) => i.keyword === 'RUN')
      .flatMap(shellCommands)
      .join('\n');
    for (const pkg of ['python3', 'make', 'g++']) expect(apt).toContain(pkg);
    const env = effectiveEnvironment(df, 'app-deps');
    expect(env['npm_config_nodedir']).toBe('/usr/local');
    // the binary comes from the lockfile-verified tarball; building from source is only node-gyp-build's fallback
    expect(env['npm_config_build_from_source']).toBeUndefined();
    const appDeps = (findStage(df, 'app-deps')?.instructions ?? []).filter((i) => i.keyword === 'RUN').flatMap(shellCommands);
    expect(appDeps.some((c) => c.startsWith('npm rebuild isolated-vm'))).toBe(true);
    expect(appDeps).toContain(`node --no-node-snapshot -e "require('isolated-vm')"`);
    // The runtime image does not derive from the toolchain: no compiler ships.
    expect(findStage(df, 'runtime')?.parent).toBeUndefined();
    expect(findStage(df, 'migrate')?.parent).toBeUndefined();
  });

  it('passes node arguments through NODE_OPTIONS, and refuses to build reactor-service without --no-node-snapshot', () => {
    const df = dockerfile();
    expect(effectiveEnvironment(df, 'runtime')['NODE_OPTIONS']).toBe('${NODE_ARGS}');
    const guard = (findStage(df, 'build')?.instructions ?? []).map((i) => i.args).join('\n');
    expect(guard).toMatch(/reactor-service needs --build-arg NODE_ARGS=--no-node-snapshot/);
  });

  it('gives the migrate image the packages tools/db/migrate.mjs imports (and pg), and its inputs', () => {
    const source = readText('tools/db/migrate.mjs');
    const specifiers = [...source.matchAll(/(?:from\s+|import\(\s*|require\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
    const packages = new Set(
      specifiers
        .filter((s) => !s.startsWith('node:') && !s.startsWith('.') && !builtinModules.includes(s))
        .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : (s.split('/')[0] as string))),
    );
    const df = dockerfile();
    const run = (findStage(df, 'migrate-deps')?.instructions ?? []).find((i) => i.keyword === 'RUN' && i.args.includes('prune-lockfile.mjs'));
    const listed = (run?.args ?? '')
      .split(/&&/)[0]
      ?.split(/\s+/)
      .filter((w) => /^(@[a-z0-9-]+\/)?[a-z0-9][a-z0-9.-]*$/.test(w) && !['node', 'cd'].includes(w));
    // Exactly what migrate.mjs loads is installed: pg (deploying needs no Prisma package).
    expect([...packages]).toEqual(['pg']);
    expect(listed).toEqual(['pg']);
    const copies = (findStage(df, 'migrate')?.instructions ?? []).filter((i) => i.keyword === 'COPY').map((i) => i.args);
    expect(copies).toEqual(expect.arrayContaining(['tools/db/migrate.mjs ./tools/db/migrate.mjs', 'prisma/migrations ./prisma/migrations']));
  });
});

describe('the linter', () => {
  const bad = [
    'FROM node:20 AS deps',
    'WORKDIR /app',
    'COPY . .',
    'RUN npm install',
    'FROM node:latest',
    'ENV DATABASE_URL=postgres://u:p@db/x',
    'ADD https://example.com/x.tgz /x.tgz',
    'COPY --from=deps /app /app',
    'COPY --chown=node:node . .',
    'RUN npx nx run-many -t build && npm install --omit=dev left-pad',
    'HEALTHCHECK CMD curl -f http://localhost/ || exit 1',
    'USER node',
    'CMD node main.js',
  ].join('\n');

  it('reports every rule on a Dockerfile that breaks them all', () => {
    const rules = new Set(lintDockerfile(parseDockerfile(bad)).map((v) => v.rule));
    expect([...rules].sort()).toEqual(
      [
        'base-image',
        'code-owned-by-root',
        'exec-form-cmd',
        'lockfile-install',
        'no-healthcheck',
        'no-remote-add',
        'no-secrets',
        'node-env-production',
        'non-root-user',
        'production-dependencies',
        'single-app-build',
      ].sort(),
    );
  });

  it('flags a target that runs as root, or installs dev dependencies itself', () => {
    const asRoot = 'FROM node:22-slim\nENV NODE_ENV=production\nRUN npm ci\nUSER 0:0\nCMD ["node", "main.js"]';
    const found = lintDockerfile(parseDockerfile(asRoot)).map((v) => v.rule);
    expect(found).toEqual(['production-dependencies', 'non-root-user']);
    const noUser = 'FROM node:22-slim\nENV NODE_ENV=production\nCMD ["node", "main.js"]';
    expect(lintDockerfile(parseDockerfile(noUser)).map((v) => v.message)).toEqual(['stage 0 runs as root (no USER)']);
  });

  it('accepts node_modules from a stage that installed with --omit=dev', () => {
    const ok = [
      'FROM node:22-bookworm-slim AS deps',
      'RUN npm ci --omit=dev',
      'FROM node:22-bookworm-slim',
      'ENV NODE_ENV=production',
      'COPY --from=deps /app/node_modules ./node_modules',
      'USER 1000:1000',
      'CMD ["node", "main.js"]',
    ].join('\n');
    expect(lintDockerfile(parseDockerfile(ok))).toEqual([]);
  });
});

describe('deploy/docker/docker-bake.json', () => {
  it('has one image target per app, plus migrate, all built by default', () => {
    const names = Object.keys(bake().target).filter((n) => !n.startsWith('_'));
    expect(names.sort()).toEqual([...APP_NAMES, 'migrate'].sort());
    expect([...(bake().group['default']?.targets ?? [])].sort()).toEqual([...APP_NAMES, 'migrate'].sort());
  });

  it.each([...APP_NAMES, 'migrate'])('%s: builds from the repository root with the shared Dockerfile', (name) => {
    const t = resolved(name);
    expect(t.context).toBe('.');
    expect(t.dockerfile).toBe('deploy/docker/Dockerfile');
    expect(fs.existsSync(path.join(WORKSPACE, t.dockerfile as string))).toBe(true);
    expect(findStage(dockerfile(), t.target ?? '')).toBeDefined();
  });

  it.each(APP_NAMES)('%s: image coffer/<app> (the manifests’ image name), APP and node arguments', (app) => {
    const t = resolved(app);
    expect(t.target).toBe('runtime');
    expect(t.args?.['APP']).toBe(app);
    expect(t.tags).toEqual([`\${REGISTRY}/${app}:\${TAG}`]);
    expect(bake().variable['REGISTRY']?.default).toBe('coffer');
    const nodeArgs = (t.args?.['NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);
    expect(nodeArgs).toEqual(APPS[app as AppName].nodeArgs);
    const manifest = loadObjects(path.join(K8S, app, 'deployment.yaml'))[0] as unknown as {
      spec: { template: { spec: { containers: { image: string }[] } } };
    };
    expect(manifest.spec.template.spec.containers[0]?.image).toBe(`coffer/${app}`);
  });
});

describe('deploy/docker/Dockerfile.dockerignore', () => {
  const patterns = () =>
    readText('deploy/docker/Dockerfile.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));

  it('keeps secrets, local state and build output out of the build context', () => {
    for (const p of ['.env', '**/.env', '.git', 'node_modules', '**/node_modules', 'dist', '.data', '.nx']) expect(patterns()).toContain(p);
  });

  it('keeps the sources the build needs, and re-includes the lockfile pruner', () => {
    for (const p of patterns()) expect(['apps', 'libs', 'prisma', 'tools', 'package.json', 'package-lock.json', 'nx.json']).not.toContain(p);
    expect(patterns()).toContain('!deploy/docker/prune-lockfile.mjs');
    expect(patterns()).toContain('!deploy/docker/check-bundle-deps.mjs');
    // every file the Dockerfile copies from deploy/ is re-included
    const copied = [...readText('deploy/docker/Dockerfile').matchAll(/^COPY (deploy\/\S+)/gm)].map((m) => m[1]);
    expect(copied.length).toBeGreaterThan(0);
    for (const file of copied) expect(patterns()).toContain(`!${file}`);
  });
});

describe('deploy/docker/prune-lockfile.mjs (migrate image dependencies)', () => {
  interface LockEntry {
    version?: string;
    integrity?: string;
    dependencies?: Record<string, string>;
    dev?: boolean;
    optional?: boolean;
  }
  interface Lock {
    lockfileVersion: number;
    packages: Record<string, LockEntry>;
  }
  const wanted = ['@prisma/schema-engine-wasm', '@prisma/adapter-pg', '@prisma/driver-adapter-utils', 'pg'];
  let out: string;
  let lock: Lock;
  let rootLock: Lock;

  beforeAll(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-prune-'));
    execFileSync(process.execPath, [path.join(DEPLOY, 'docker/prune-lockfile.mjs'), WORKSPACE, out, ...wanted], { stdio: 'pipe' });
    lock = JSON.parse(fs.readFileSync(path.join(out, 'package-lock.json'), 'utf8')) as Lock;
    rootLock = JSON.parse(readText('package-lock.json')) as Lock;
  });
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('writes a package.json with just the four packages, at the workspace ranges', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(out, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const root = JSON.parse(readText('package.json')) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies).sort()).toEqual([...wanted].sort());
    for (const name of wanted) expect(pkg.dependencies[name]).toBe(root.dependencies[name]);
    expect(lock.packages['']?.dependencies).toEqual(pkg.dependencies);
  });

  it('keeps every version and integrity hash of the workspace lockfile, with nothing from the dev tree', () => {
    const keys = Object.keys(lock.packages).filter((k) => k !== '');
    expect(keys.length).toBeGreaterThan(wanted.length);
    for (const key of keys) {
      expect(rootLock.packages[key]).toBeDefined();
      expect(lock.packages[key]?.version).toBe(rootLock.packages[key]?.version);
      expect(lock.packages[key]?.integrity).toBe(rootLock.packages[key]?.integrity);
      expect(lock.packages[key]?.dev).toBeUndefined();
    }
    for (const devOnly of ['node_modules/typescript', 'node_modules/jest', 'node_modules/nx', 'node_modules/isolated-vm', 'node_modules/prisma']) {
      expect(keys).not.toContain(devOnly);
    }
  });

  it('is closed: every dependency of every kept package resolves inside the pruned set', () => {
    const has = (from: string, dep: string): boolean => {
      for (let base = from; ; ) {
        if (lock.packages[`${base ? `${base}/` : ''}node_modules/${dep}`]) return true;
        if (!base) return false;
        const i = base.lastIndexOf('/node_modules/');
        base = i === -1 ? '' : base.slice(0, i);
      }
    };
    for (const [key, entry] of Object.entries(lock.packages)) {
      for (const dep of Object.keys(entry.dependencies ?? {})) expect({ key, dep, found: has(key, dep) }).toEqual({ key, dep, found: true });
    }
  });
});

describe('deploy/docker/check-bundle-deps.mjs (image build step)', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-bundle-'));
    fs.mkdirSync(path.join(dir, 'node_modules/present'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'node_modules/present/package.json'), '{"name":"present","main":"index.js"}');
    fs.writeFileSync(path.join(dir, 'node_modules/present/index.js'), '');
    fs.writeFileSync(path.join(dir, 'main.js'), 'require("present"); require("node:fs"); require("path"); require("./chunk");');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const run = () => {
    try {
      execFileSync(process.execPath, [path.join(DEPLOY, 'docker/check-bundle-deps.mjs'), dir], { stdio: 'pipe' });
      return { code: 0, stderr: '' };
    } catch (err) {
      const e = err as { status: number; stderr: Buffer };
      return { code: e.status, stderr: e.stderr.toString() };
    }
  };

  it('passes when every required package is installed (builtins and relative files aside)', () => {
    expect(run()).toEqual({ code: 0, stderr: '' });
  });

  it('fails, naming the package, when a bundle requires one that is not installed', () => {
    fs.writeFileSync(path.join(dir, 'worker.js'), 'require("@prisma/client/runtime/client");');
    const { code, stderr } = run();
    expect(code).toBe(1);
    expect(stderr).toContain('worker.js requires "@prisma/client/runtime/client"');
  });
});
