/**
 * A small Kustomize resolver, enough for the kustomizations under deploy/k8s (Kustomize itself is not installed):
 * `resources` (files and directories), `namespace`, `images` and JSON 6902 `patches`. Any other kustomization field
 * is refused rather than ignored, so the rendering here can never silently differ from `kustomize build`.
 *
 * It is stricter than Kustomize where that catches mistakes: a patch target or an image entry that matches nothing
 * is an error, as is a JSON 6902 `replace` of a path that does not exist, or a duplicate object.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

export interface Rendered {
  object: K8sObject;
  /** file the object came from, relative to `relativeTo` given to `build` */
  source: string;
}

interface PatchTarget {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
}

interface ImageEntry {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  namespace?: string;
  images?: ImageEntry[];
  patches?: { target?: PatchTarget; patch?: string; path?: string }[];
}

export type JsonPatchOp = { op: 'add' | 'replace' | 'test'; path: string; value: unknown } | { op: 'remove'; path: string };

const SUPPORTED_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'images', 'patches']);
const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
/** Kinds in deploy/k8s that are not namespaced (Kustomize's namespace transformer leaves them alone). */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PriorityClass',
  'IngressClass',
  'StorageClass',
  'PersistentVolume',
]);

export class KustomizeError extends Error {}

export function isClusterScoped(kind: string): boolean {
  return CLUSTER_SCOPED.has(kind);
}

export function objectId(o: K8sObject): string {
  return `${o.kind}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;
}

/** Renders the kustomization in `dir` like `kustomize build dir`; file names in results and errors are relative to `relativeTo`. */
export function build(dir: string, relativeTo: string = process.cwd()): Rendered[] {
  return buildAt(path.resolve(dir), path.resolve(relativeTo));
}

function buildAt(dir: string, base: string): Rendered[] {
  const file = KUSTOMIZATION_FILES.map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (!file) throw new KustomizeError(`${rel(base, dir)}: no kustomization.yaml`);
  const k = parseSingleYaml(file) as Kustomization;
  for (const field of Object.keys(k)) {
    if (!SUPPORTED_FIELDS.has(field)) {
      throw new KustomizeError(`${rel(base, file)}: field "${field}" is not supported by this resolver`);
    }
  }
  if (k.kind !== undefined && k.kind !== 'Kustomization') throw new KustomizeError(`${rel(base, file)}: kind must be Kustomization`);

  let out: Rendered[] = [];
  for (const entry of k.resources ?? []) {
    const target = path.resolve(dir, entry);
    if (!fs.existsSync(target)) throw new KustomizeError(`${rel(base, file)}: resource "${entry}" does not exist`);
    if (fs.statSync(target).isDirectory()) {
      out.push(...buildAt(target, base));
    } else {
      // Kustomize's default load restrictor: files must live under the kustomization's own directory.
      if (path.relative(dir, target).startsWith('..')) {
        throw new KustomizeError(`${rel(base, file)}: file "${entry}" is outside the kustomization root`);
      }
      out.push(...loadObjects(target).map((object) => ({ object, source: rel(base, target) })));
    }
  }
  assertUnique(out, rel(base, file));

  for (const [i, p] of (k.patches ?? []).entries()) out = applyPatch(out, p, dir, `${rel(base, file)} patches[${i}]`);
  if (k.namespace) out = setNamespace(out, k.namespace, rel(base, file));
  for (const image of k.images ?? []) out = setImage(out, image, rel(base, file));
  assertUnique(out, rel(base, file));
  return out;
}

function rel(base: string, p: string): string {
  return path.relative(base, p) || '.';
}

function parseSingleYaml(file: string): unknown {
  const docs = parseAllDocuments(fs.readFileSync(file, 'utf8'));
  if (docs.length !== 1) throw new KustomizeError(`${file}: expected one YAML document`);
  const [doc] = docs as [(typeof docs)[number]];
  if ('errors' in doc && doc.errors.length) throw new KustomizeError(`${file}: ${doc.errors[0]?.message}`);
  return doc.toJS();
}

/** Every document of a manifest file; each must be a Kubernetes object with apiVersion, kind and metadata.name. */
export function loadObjects(file: string): K8sObject[] {
  const objects: K8sObject[] = [];
  for (const doc of parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
    if ('errors' in doc && doc.errors.length) throw new KustomizeError(`${file}: ${doc.errors[0]?.message}`);
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) continue;
    const o = value as Partial<K8sObject>;
    if (typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || typeof o.metadata?.name !== 'string') {
      throw new KustomizeError(`${file}: every document needs apiVersion, kind and metadata.name`);
    }
    objects.push(o as K8sObject);
  }
  return objects;
}

function assertUnique(items: Rendered[], where: string): void {
  const seen = new Map<string, string>();
  for (const { object, source } of items) {
    const id = `${object.apiVersion.split('/').slice(0, -1).join('/')}|${objectId(object)}`;
    const first = seen.get(id);
    if (first) throw new KustomizeError(`${where}: ${objectId(object)} is defined twice (${first}, ${source})`);
    seen.set(id, source);
  }
}

function anchored(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`);
}

export function matchesTarget(o: K8sObject, t: PatchTarget): boolean {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
  if (t.group !== undefined && t.group !== group) return false;
  if (t.version !== undefined && t.version !== version) return false;
  if (t.kind !== undefined && !anchored(t.kind).test(o.kind)) return false;
  if (t.name !== undefined && !anchored(t.name).test(o.metadata.name)) return false;
  if (t.namespace !== undefined && !anchored(t.namespace).test(o.metadata.namespace ?? '')) return false;
  if (t.labelSelector !== undefined) {
    const labels = o.metadata.labels ?? {};
    for (const term of t.labelSelector
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const m = /^([^!=]+?)\s*(==|=|!=)\s*(.*)$/.exec(term);
      if (!m) throw new KustomizeError(`labelSelector term "${term}" is not supported (use k=v or k!=v)`);
      const [, key, op, value] = m as unknown as [string, string, string, string];
      if ((op === '!=') === (labels[key] === value)) return false;
    }
  }
  return true;
}

function applyPatch(items: Rendered[], p: { target?: PatchTarget; patch?: string; path?: string }, dir: string, where: string): Rendered[] {
  if ((p.patch === undefined) === (p.path === undefined)) throw new KustomizeError(`${where}: give exactly one of patch or path`);
  const text = p.patch ?? fs.readFileSync(path.resolve(dir, p.path as string), 'utf8');
  const docs = parseAllDocuments(text);
  const parsed = docs.length === 1 ? (docs[0] as (typeof docs)[number]).toJS() : undefined;
  if (!Array.isArray(parsed)) {
    throw new KustomizeError(`${where}: only JSON 6902 patches (a list of operations) are supported, with a target`);
  }
  if (!p.target) throw new KustomizeError(`${where}: a JSON 6902 patch needs a target`);
  const target = p.target;
  let matched = 0;
  const out = items.map((item) => {
    if (!matchesTarget(item.object, target)) return item;
    matched++;
    try {
      return { ...item, object: applyJsonPatch(item.object, parsed as JsonPatchOp[]) as K8sObject };
    } catch (err) {
      throw new KustomizeError(`${where} on ${objectId(item.object)}: ${(err as Error).message}`);
    }
  });
  if (matched === 0) throw new KustomizeError(`${where}: target ${JSON.stringify(target)} matches no object`);
  return out;
}

function decodePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`"${pointer}" is not a JSON pointer`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** RFC 6902 add / remove / replace / test on a copy of `doc`. */
export function applyJsonPatch(doc: unknown, ops: JsonPatchOp[]): unknown {
  const result = clone(doc);
  for (const op of ops) {
    if (!op || typeof op !== 'object' || typeof op.path !== 'string') throw new Error('malformed operation');
    const tokens = decodePointer(op.path);
    if (tokens.length === 0) throw new Error('operations on the document root are not supported');
    const last = tokens[tokens.length - 1] as string;
    let parent: unknown = result;
    for (const token of tokens.slice(0, -1)) {
      parent = child(parent, token, op.path);
    }
    // the member `last` of an object, or the position `last` of an array (`-`: past its end)
    let key: string | number = last;
    let exists: boolean;
    if (Array.isArray(parent)) {
      key = last === '-' ? parent.length : Number(last);
      if (!/^(0|[1-9]\d*|-)$/.test(last) || key > parent.length) throw new Error(`bad array index in ${op.path}`);
      exists = key < parent.length;
    } else if (parent && typeof parent === 'object') {
      exists = Object.prototype.hasOwnProperty.call(parent, last);
    } else {
      throw new Error(`${op.path}: parent is not an object or array`);
    }
    const slots = parent as Record<string | number, unknown>;
    switch (op.op) {
      case 'add':
        // an array's later elements move up to make room; an object's member is set (or overwritten)
        if (Array.isArray(parent)) parent.splice(key as number, 0, clone(op.value));
        else slots[key] = clone(op.value);
        break;
      case 'replace':
        if (!exists) throw new Error(`${op.path} does not exist`);
        slots[key] = clone(op.value);
        break;
      case 'remove':
        if (!exists) throw new Error(`${op.path} does not exist`);
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete slots[key];
        break;
      case 'test':
        if (JSON.stringify(slots[key]) !== JSON.stringify(op.value)) throw new Error(`test failed at ${op.path}`);
        break;
      default:
        throw new Error(`operation "${(op as { op: string }).op}" is not supported`);
    }
  }
  return result;
}

function child(parent: unknown, token: string, pointer: string): unknown {
  if (Array.isArray(parent)) {
    const i = Number(token);
    if (!/^(0|[1-9]\d*)$/.test(token) || i >= parent.length) throw new Error(`${pointer} does not exist`);
    return parent[i];
  }
  if (parent && typeof parent === 'object' && Object.prototype.hasOwnProperty.call(parent, token)) {
    return (parent as Record<string, unknown>)[token];
  }
  throw new Error(`${pointer} does not exist`);
}

function setNamespace(items: Rendered[], namespace: string, where: string): Rendered[] {
  return items.map((item) => {
    const o = item.object;
    if (isClusterScoped(o.kind)) {
      if (o.kind === 'Namespace' && o.metadata.name !== namespace) {
        throw new KustomizeError(`${where}: Namespace ${o.metadata.name} differs from namespace: ${namespace}`);
      }
      return item;
    }
    return { ...item, object: { ...o, metadata: { ...o.metadata, namespace } } };
  });
}

/** Splits an image reference into name, tag and digest (a registry port is part of the name). */
export function parseImage(ref: string): { name: string; tag?: string; digest?: string } {
  const [beforeDigest, digest] = ref.split('@') as [string, string | undefined];
  const slash = beforeDigest.lastIndexOf('/');
  const colon = beforeDigest.lastIndexOf(':');
  if (colon > slash) return { name: beforeDigest.slice(0, colon), tag: beforeDigest.slice(colon + 1), digest };
  return { name: beforeDigest, digest };
}

function podSpecs(o: Record<string, unknown>): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      const rec = node as Record<string, unknown>;
      if (Array.isArray(rec['containers'])) found.push(rec);
      for (const [key, value] of Object.entries(rec)) if (key !== 'containers' && key !== 'initContainers') visit(value);
    }
  };
  visit(o['spec']);
  return found;
}

function setImage(items: Rendered[], entry: ImageEntry, where: string): Rendered[] {
  let matched = 0;
  const out = items.map((item) => {
    const o = clone(item.object);
    let changed = false;
    for (const spec of podSpecs(o)) {
      for (const list of ['containers', 'initContainers']) {
        for (const c of (spec[list] as { image?: string }[] | undefined) ?? []) {
          if (!c.image) continue;
          const parsed = parseImage(c.image);
          if (parsed.name !== entry.name) continue;
          const name = entry.newName ?? parsed.name;
          const digest = entry.digest ?? (entry.newTag ? undefined : parsed.digest);
          const tag = entry.digest ? undefined : (entry.newTag ?? parsed.tag);
          c.image = `${name}${tag ? `:${tag}` : ''}${digest ? `@${digest}` : ''}`;
          changed = true;
          matched++;
        }
      }
    }
    return changed ? { ...item, object: o } : item;
  });
  if (matched === 0) throw new KustomizeError(`${where}: images entry "${entry.name}" matches no container`);
  return out;
}
