/**
 * Validation of rendered objects against the Kubernetes API schemas shipped in kubernetes-models.
 *
 * 1. `validateAgainstSchema`: the package's own JSON-schema validators (`new Deployment(obj).validate()`): types,
 *    formats (quantities), enums and required fields.
 * 2. `unknownFieldErrors`: those validators accept unknown fields, which the API server rejects under strict field
 *    validation (kubectl's default) or silently drops otherwise: a misspelt `readinesProbe` would pass. The same
 *    package's TypeScript declarations know every field, so each object is type-checked as an object literal of its
 *    kind's interface, where TypeScript reports every property the schema does not define.
 */
import path from 'node:path';
import ts from 'typescript';
import { crdErrors, isCustomResource } from './crd-schema';
import type { K8sObject } from './kustomize';

interface Model {
  validate(): void;
}
type ModelClass = new (data: unknown) => Model;

/** kubernetes-models module for an apiVersion: `v1` → kubernetes-models/v1, `apps/v1` → kubernetes-models/apps/v1 */
export function modelModule(apiVersion: string): string {
  return `kubernetes-models/${apiVersion}`;
}

export function modelClass(o: K8sObject): ModelClass {
  let mod: Record<string, unknown>;
  try {
    mod = require(modelModule(o.apiVersion)) as Record<string, unknown>;
  } catch {
    throw new Error(`${o.kind}/${o.metadata.name}: no schema for apiVersion ${o.apiVersion}`);
  }
  const cls = mod[o.kind];
  if (typeof cls !== 'function') throw new Error(`${o.kind}/${o.metadata.name}: no schema for ${o.apiVersion} ${o.kind}`);
  return cls as ModelClass;
}

/** Throws with the validator's message when the object does not match its kind's schema. */
export function validateAgainstSchema(o: K8sObject): void {
  // a custom resource (the CloudNativePG Cluster): its CRD's schema, which also refuses unknown fields
  if (isCustomResource(o)) {
    const errors = crdErrors(o);
    if (errors.length) throw new Error(errors.join('; '));
    return;
  }
  const Cls = modelClass(o);
  new Cls(structuredClone(o)).validate();
}

export interface Labelled {
  label: string;
  object: K8sObject;
}

/**
 * Type-checks every object as a literal of its kubernetes-models interface and returns one message per problem,
 * e.g. `Deployment/gateway (deploy/k8s/gateway/deployment.yaml): 'readinesProbe' does not exist in type ...`.
 */
export function unknownFieldErrors(all: Labelled[], workspaceRoot: string): string[] {
  // custom resources have no kubernetes-models declarations: validateAgainstSchema refuses their unknown fields
  const items = all.filter(({ object }) => !isCustomResource(object));
  const fileName = path.join(workspaceRoot, 'deploy', '__rendered_manifests__.ts');
  const lines: string[] = [];
  const ranges: { label: string; from: number; to: number }[] = [];
  items.forEach(({ object }, i) => {
    const mod = `${modelModule(object.apiVersion)}/${object.kind}`;
    lines.push(`import type { I${object.kind} as T${i} } from ${JSON.stringify(mod)};`);
  });
  items.forEach(({ label, object }, i) => {
    const body = JSON.stringify(object, null, 2).split('\n');
    const from = lines.length;
    lines.push(`export const o${i}: T${i} = ${body[0]}`, ...body.slice(1));
    lines[lines.length - 1] += ';';
    ranges.push({ label, from, to: lines.length - 1 });
  });
  const source = lines.join('\n');

  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, languageVersion, onError, shouldCreate) =>
    path.resolve(name) === fileName ? ts.createSourceFile(name, source, languageVersion, true) : getSourceFile(name, languageVersion, onError, shouldCreate);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => path.resolve(name) === fileName || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => (path.resolve(name) === fileName ? source : readFile(name));

  const program = ts.createProgram([fileName], options, host);
  const diagnostics = [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()];
  return diagnostics.map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0] ?? '';
    if (!d.file || d.start === undefined) return message;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    const owner = ranges.find((r) => line >= r.from && line <= r.to);
    if (!owner) return `${message} (line ${line + 1} of the generated check)`;
    const snippet = lines[line]?.trim() ?? '';
    return `${owner.label}: ${message} [at ${snippet}]`;
  });
}
