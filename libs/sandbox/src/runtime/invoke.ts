/**
 * One invocation: load the formula module, call its function with `{args, configuration, svc}`, and serialize the
 * answer for the worker as `R<result JSON>` or `E<error JSON>`. The worker and the pool check all of it again.
 */
import { jsonParse, jsonStringify } from './primordials';
import { describe, logError } from './console';
import { type HostLog, type HostSync, links, type RuntimeOptions } from './host';
import { formulaRequire } from './modules';
import { CustomHttpResponseError, getErrorClasses, ReactorError } from './reactor-errors';
import { makeSvc } from './svc';

type Answer = string;

function badResult(type: string): Answer {
  return 'E' + jsonStringify({ kind: 'bad-result', type });
}

function serializeResult(r: unknown): Answer {
  if (r === null || typeof r !== 'object' || Array.isArray(r)) return badResult(r === null ? 'null' : Array.isArray(r) ? 'array' : typeof r);
  let s: string | undefined;
  try {
    const { raw, tokenize } = r as { raw?: unknown; tokenize?: unknown };
    s = jsonStringify({ raw, tokenize });
  } catch (e) {
    logError('The result could not be serialized', e);
    return badResult('unserializable');
  }
  if (typeof s !== 'string') return badResult('unserializable');
  if (s.length > links.opts.maxResultChars) return 'E' + jsonStringify({ kind: 'too-large' });
  return 'R' + s;
}

function serializeError(e: unknown): Answer {
  try {
    if (e instanceof CustomHttpResponseError) {
      const s = jsonStringify({ kind: 'custom', status: e.status, headers: e.headers, body: e.body });
      if (s.length > links.opts.maxResultChars) return 'E' + jsonStringify({ kind: 'too-large' });
      return 'E' + s;
    }
    if (e instanceof ReactorError) {
      for (const [name, C] of getErrorClasses()) {
        if (!(e instanceof C)) continue;
        const s = jsonStringify({ kind: 'class', name, errors: e.errors });
        if (s.length > links.opts.maxResultChars) return 'E' + jsonStringify({ kind: 'class', name });
        return 'E' + s;
      }
    }
  } catch {
    /* a getter of the formula's threw: a plain failure */
  }
  logError('Uncaught error', e);
  return 'E{"kind":"error"}';
}

const MODULE_FUNCTION_NEEDED = 'The formula module must export a function: module.exports = async function (req) { ... }';

export function invoke(wrapper: unknown, reqJson: unknown, sync: unknown, log: unknown, optsJson: unknown): Promise<Answer> {
  links.sync = typeof sync === 'function' ? (sync as HostSync) : null;
  links.log = typeof log === 'function' ? (log as HostLog) : null;
  links.opts = jsonParse(String(optsJson)) as RuntimeOptions;
  const req = jsonParse(String(reqJson)) as { args?: unknown; configuration?: unknown };
  const module = { id: '.', path: '/', filename: '/formula.js', loaded: false, children: [], paths: [], exports: {} as unknown, require: formulaRequire };
  try {
    if (typeof wrapper !== 'function') throw new TypeError('The formula did not compile to a module');
    wrapper.call(module.exports, module.exports, formulaRequire, module, '/formula.js', '/');
    module.loaded = true;
  } catch (e) {
    logError('The formula failed to load', e);
    return Promise.resolve('E' + jsonStringify({ kind: 'load', message: describe(e) }));
  }
  const fn = module.exports;
  if (typeof fn !== 'function') return Promise.resolve('E' + jsonStringify({ kind: 'load', message: MODULE_FUNCTION_NEEDED }));
  const request = { args: req.args, configuration: req.configuration, svc: links.opts.svc ? makeSvc() : null };
  let p: unknown;
  try {
    p = fn(request);
  } catch (e) {
    return Promise.resolve(serializeError(e));
  }
  return Promise.resolve(p).then(serializeResult, serializeError);
}
