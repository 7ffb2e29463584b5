/**
 * `req.svc`: the Coffer API client of a Reactor with an Application. Each method is one host call
 * (`startCall('svc')`), answered with the API's JSON or rejected with an Error named `SvcError` carrying `status`
 * and `data` (the problem document). Extra arguments are ignored.
 */
import { jsonParse, jsonStringify } from './primordials';
import { startCall } from './calls';

interface SvcFailure {
  status?: unknown;
  body?: unknown;
}

function svcCall(method: string, args: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const call = startCall('svc', jsonStringify({ method, args }));
    void call.promise.then(([ok, json]) => {
      if (ok) return resolve(json === '' ? undefined : jsonParse(json));
      const info = jsonParse(json) as SvcFailure;
      const body = info.body as { title?: unknown } | null | undefined;
      const title = body && typeof body === 'object' && typeof body.title === 'string' ? body.title : 'Request failed with status ' + String(info.status);
      const e = new Error(title);
      Object.defineProperty(e, 'name', { value: 'SvcError', writable: true, configurable: true });
      reject(Object.assign(e, { status: info.status, data: body }));
    });
  });
}

export function makeSvc() {
  return Object.freeze({
    tokens: Object.freeze({
      create: (body: unknown) => svcCall('tokens.create', [body]),
      retrieve: (id: unknown) => svcCall('tokens.retrieve', [id]),
      update: (id: unknown, patch: unknown) => svcCall('tokens.update', [id, patch]),
      delete: (id: unknown) => svcCall('tokens.delete', [id]),
      list: (query?: unknown) => svcCall('tokens.list', [query === undefined ? {} : query]),
      search: (body: unknown) => svcCall('tokens.search', [body]),
    }),
    tokenize: (body: unknown) => svcCall('tokenize', [body]),
    detokenize: (body: unknown) => svcCall('detokenize', [body]),
  });
}
