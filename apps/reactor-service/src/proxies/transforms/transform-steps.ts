import { JSONPath } from 'jsonpath-plus';
import type { ProxyTransformView } from '@coffer/contracts';
import { setAt } from './json-location';
import { maskText } from './mask';
import { bodyText, readBytes, setHeader, withConfiguration, writeBytes, type ProxyMessage } from './proxy-message';
import { TransformError } from './transform-error';

/**
 * The transforms that only rewrite the message (mask, append_*) and the JSONPath half of tokenize, as jobs of the
 * transform worker (transform-worker.ts): everything here is CPU on up to a few MiB, so it runs off reactor-service's
 * event loop. No I/O and no contracts library (type imports only): the worker loads this module alone.
 */

/** A message between steps: headers, and the body as bytes (read by its content type in each job). */
export interface WireMessage {
  headers: [string, string][];
  body: Uint8Array;
}

/** What a job may spend: it fails once it has run `remainingMs` (from when a thread takes it) or the body grows past `maxBytes`. */
export interface JobBudget {
  remainingMs: number;
  maxBytes: number;
  /** the call's whole time budget, for the message only */
  budgetMs: number;
}

export type TransformJob =
  | {
      op: 'steps';
      message: WireMessage;
      steps: ProxyTransformView[];
      configuration: Record<string, string | null>;
      direction: 'request' | 'response';
      budget: JobBudget;
    }
  /** the values a tokenize step's JSONPath finds (none when the body is not a JSON object or array) */
  | { op: 'find'; message: WireMessage; path: string; budget: JobBudget }
  /** the same JSONPath's values replaced, in the order `find` gave them */
  | { op: 'replace'; message: WireMessage; path: string; values: unknown[]; budget: JobBudget };

/** `ms`: how long the job ran on its thread (set by the pool). */
export type JobResult =
  | { ok: true; message?: WireMessage; values?: unknown[]; ms?: number }
  | { ok: false; kind: 'input' | 'budget' | 'internal'; message: string; field?: string; title?: string; ms?: number };

export const PURE_TRANSFORMS: ReadonlySet<string> = new Set(['mask', 'append_json', 'append_text', 'append_header']);

export function runJob(job: TransformJob): JobResult {
  try {
    const check = budgetCheck(job.budget);
    const m = readBytes(job.message.headers, Buffer.from(job.message.body.buffer, job.message.body.byteOffset, job.message.body.byteLength));
    switch (job.op) {
      case 'steps': {
        let out = m;
        for (const t of job.steps) {
          check();
          out = applyStep(t, out, job.configuration, job.direction, check);
          checkSize(out, job.budget);
        }
        return { ok: true, message: toWire(out, job.budget) };
      }
      case 'find':
        return { ok: true, values: targets(m, job.path).map((f) => f.value) };
      case 'replace': {
        const found = targets(m, job.path);
        found.forEach((f, i) => ((f.parent as Record<string | number, unknown>)[f.parentProperty as string | number] = job.values[i]));
        return { ok: true, message: toWire(m, job.budget) };
      }
    }
  } catch (err) {
    if (err instanceof TransformError) return { ok: false, kind: err.kind, message: err.message, field: err.field, title: err.title };
    throw err;
  }
}

function budgetCheck(budget: JobBudget): () => void {
  const deadline = Date.now() + budget.remainingMs;
  return () => {
    if (Date.now() > deadline) throw overTime(budget.budgetMs);
  };
}

export function overTime(budgetMs: number): TransformError {
  return new TransformError('budget', `The proxy's transforms took too long (over the call's ${budgetMs} ms budget)`);
}

export function overSize(maxBytes: number): TransformError {
  return new TransformError('budget', `The proxy's transforms made the message larger than ${maxBytes} bytes`);
}

/** Text bodies are measured after each step; a JSON body once it is written (its size is only known then). */
function checkSize(m: ProxyMessage, budget: JobBudget): void {
  if (m.body.kind === 'text' && m.body.value.length > budget.maxBytes / 3 && Buffer.byteLength(m.body.value) > budget.maxBytes) throw overSize(budget.maxBytes);
}

function toWire(m: ProxyMessage, budget: JobBudget): WireMessage {
  const body = writeBytes(m);
  if (body.length > budget.maxBytes) throw overSize(budget.maxBytes);
  return { headers: m.headers, body };
}

function applyStep(t: ProxyTransformView, m: ProxyMessage, configuration: Record<string, string | null>, direction: string, check: () => void): ProxyMessage {
  switch (t.type) {
    case 'mask': {
      const text = bodyText(m);
      if (text === null) return m;
      const masked = maskText(text, t.expression as string, t.replacement as string, check);
      return { ...m, body: reparsed(m, masked) };
    }
    case 'append_json': {
      const value = typeof t.options?.value === 'string' ? withConfiguration(t.options.value, configuration) : t.options?.value;
      const doc = m.body.kind === 'json' ? m.body.value : m.body.kind === 'text' && m.body.value.trim() === '' ? {} : undefined;
      if (doc === undefined) throw cannotRun(direction, 'append_json needs a JSON body');
      return { ...m, body: { kind: 'json', value: setAt(doc, t.options?.location as string, value) } };
    }
    case 'append_text': {
      const text = bodyText(m);
      if (text === null) throw cannotRun(direction, 'append_text needs a text body');
      return { ...m, body: { kind: 'text', value: text + withConfiguration(String(t.options?.value ?? ''), configuration) } };
    }
    case 'append_header':
      return { ...m, headers: setHeader(m.headers, t.options?.location as string, withConfiguration(String(t.options?.value ?? ''), configuration)) };
    default:
      throw new Error(`transform ${t.type} is not run by the transform worker`);
  }
}

function cannotRun(direction: string, message: string): TransformError {
  return new TransformError('input', message, `${direction}_transforms`, 'The proxy transform cannot run');
}

/** Masked text goes back to JSON when the body was JSON and still parses. */
function reparsed(m: ProxyMessage, text: string): ProxyMessage['body'] {
  if (m.body.kind === 'json') {
    try {
      return { kind: 'json', value: JSON.parse(text) };
    } catch {
      /* the mask broke the JSON: sent as the text it is */
    }
  }
  return { kind: 'text', value: text };
}

interface Found {
  value: unknown;
  parent: Record<string | number, unknown> | null;
  parentProperty: string | number | null;
}

function targets(m: ProxyMessage, path: string): Found[] {
  if (m.body.kind !== 'json' || m.body.value === null || typeof m.body.value !== 'object') return [];
  const found = JSONPath({ path, json: m.body.value as object, resultType: 'all', wrap: true, eval: false }) as Found[];
  return found.filter((f) => f.parent !== null && f.parentProperty !== null && f.value !== null && f.value !== undefined);
}
