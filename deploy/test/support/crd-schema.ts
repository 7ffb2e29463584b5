/**
 * Validation of custom resources (which kubernetes-models does not know) against their CRD's structural schema, as the
 * API server does: types, required fields, enums, bounds, patterns, and unknown fields, which the API server rejects
 * under strict field validation (kubectl's default) and otherwise drops. CEL rules (`x-kubernetes-validations`) are
 * not evaluated: the tests check what they need of those by hand.
 *
 * The schemas are vendored without their descriptions, from the oldest release the manifests support.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { K8sObject } from './kustomize';

interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  anyOf?: Schema[];
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/** apiVersion + kind → vendored schema file (in this directory). */
const CRDS: Record<string, string> = {
  'postgresql.cnpg.io/v1 Cluster': 'cnpg-cluster-v1.28.0.schema.json',
};

export function isCustomResource(o: Pick<K8sObject, 'apiVersion' | 'kind'>): boolean {
  return `${o.apiVersion} ${o.kind}` in CRDS;
}

const loaded = new Map<string, Schema>();
function schemaOf(o: Pick<K8sObject, 'apiVersion' | 'kind'>): Schema {
  const file = CRDS[`${o.apiVersion} ${o.kind}`];
  if (!file) throw new Error(`no CRD schema for ${o.apiVersion} ${o.kind}`);
  let schema = loaded.get(file);
  if (!schema) {
    schema = (JSON.parse(fs.readFileSync(path.join(__dirname, file), 'utf8')) as { schema: Schema }).schema;
    loaded.set(file, schema);
  }
  return schema;
}

/** Every problem of a custom resource against its CRD's schema, as `path: message` (empty when valid). */
export function crdErrors(o: K8sObject): string[] {
  const schema = schemaOf(o);
  const errors: string[] = [];
  // apiVersion, kind and metadata are the API server's own, not the CRD's to describe
  for (const [key, value] of Object.entries(o)) {
    if (key === 'apiVersion' || key === 'kind' || key === 'metadata') continue;
    const sub = schema.properties?.[key];
    if (!sub) errors.push(`/${key}: unknown field`);
    else check(value, sub, `/${key}`, errors);
  }
  for (const key of schema.required ?? []) if (!(key in o)) errors.push(`/${key}: required`);
  return errors;
}

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function check(value: unknown, schema: Schema, at: string, errors: string[]): void {
  if (schema.anyOf) {
    const passing = schema.anyOf.some((s) => {
      const e: string[] = [];
      check(value, s, at, e);
      return e.length === 0;
    });
    if (!passing) errors.push(`${at}: matches none of anyOf`);
  }
  if (schema['x-kubernetes-int-or-string']) {
    if (!['integer', 'string'].includes(typeOf(value))) errors.push(`${at}: expected an integer or a string`);
    return;
  }
  const actual = typeOf(value);
  if (schema.type) {
    const ok = schema.type === actual || (schema.type === 'number' && actual === 'integer');
    if (!ok) {
      errors.push(`${at}: expected ${schema.type}, got ${actual}`);
      return;
    }
  }
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    errors.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${at}: below the minimum ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${at}: above the maximum ${schema.maximum}`);
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) errors.push(`${at}: shorter than ${schema.minLength}`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) errors.push(`${at}: longer than ${schema.maxLength}`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) errors.push(`${at}: does not match ${schema.pattern}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(`${at}: fewer than ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(`${at}: more than ${schema.maxItems} items`);
    if (schema.items) value.forEach((v, i) => check(v, schema.items as Schema, `${at}/${i}`, errors));
  }
  if (actual === 'object') {
    const obj = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in obj)) errors.push(`${at}/${key}: required`);
    for (const [key, v] of Object.entries(obj)) {
      const sub = schema.properties?.[key];
      if (sub) check(v, sub, `${at}/${key}`, errors);
      else if (typeof schema.additionalProperties === 'object') check(v, schema.additionalProperties, `${at}/${key}`, errors);
      else if (!schema['x-kubernetes-preserve-unknown-fields'] && schema.additionalProperties !== true) errors.push(`${at}/${key}: unknown field`);
    }
  }
}
