import { SUBJECTS } from '../subjects';
import { EVENT_PAYLOADS, OPS } from './operations';
import { httpPathParams, httpPayloadFrom, operationRows, type HttpBinding } from './operation';

function subjects(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (typeof node !== 'object' || node === null) return [];
  return Object.values(node).flatMap(subjects);
}

const rows = operationRows(OPS);
const pings = (['token', 'session', 'reactor', 'webhook', 'proxy'] as const).map((s) => SUBJECTS.ping(s));

describe('the operation table', () => {
  it('has a row (or an event payload) for every subject, and for every ping', () => {
    const all = [...subjects(SUBJECTS), ...pings];
    expect(all.length).toBeGreaterThan(40);
    const covered = new Set([...rows.map((r) => r.subject), ...Object.keys(EVENT_PAYLOADS)]);
    expect(all.filter((s) => !covered.has(s))).toEqual([]);
  });

  it('names no subject that does not exist, and none twice', () => {
    const all = new Set([...subjects(SUBJECTS), ...pings]);
    expect(rows.map((r) => r.subject).filter((s) => !all.has(s))).toEqual([]);
    expect(new Set(rows.map((r) => r.subject)).size).toBe(rows.length);
  });

  it('mirrors the nesting of SUBJECTS', () => {
    expect(OPS.token.tokens.create.subject).toBe(SUBJECTS.token.tokens.create);
    expect(OPS.session.applications.keys.get.subject).toBe(SUBJECTS.session.applications.keys.get);
    expect(OPS.reactor.reactors.reactAsync.subject).toBe(SUBJECTS.reactor.reactors.reactAsync);
  });

  it('marks service-to-service operations internal', () => {
    expect(rows.filter((r) => r.internal && !r.subject.includes('.health.ping.')).map((r) => r.subject)).toEqual([
      SUBJECTS.session.applications.principal,
      SUBJECTS.token.audit.record,
      SUBJECTS.reactor.proxies.resolve,
      SUBJECTS.reactor.proxies.transform,
      SUBJECTS.reactor.proxies.idempotency,
    ]);
  });

  it("takes a route's payload from the body (beside the path parameters), else from the path parameters, unless the binding says", () => {
    const from = (row: { http?: HttpBinding }) => httpPayloadFrom(row.http as HttpBinding);
    expect(from(OPS.session.applications.create)).toBe('body');
    expect(from(OPS.session.applications.update)).toBe('params+body');
    expect(from(OPS.session.applications.get)).toBe('params');
    expect(from(OPS.session.tenants.get)).toBe('params');
    expect(from(OPS.session.applications.list)).toBe('query');
    expect(from(OPS.webhook.webhooks.deliveries)).toBe('params+query');
    expect(httpPathParams({ path: '/applications/:id/keys/:keyId' })).toEqual(['id', 'keyId']);
  });

  it('renames only parameters of the path, and sends the query only with a query class or a nested query', () => {
    const bound = rows.flatMap((r) => (r.http ? [{ subject: r.subject, http: r.http, payload: r.payload }] : []));
    const renamed = bound.filter(({ http }) => Object.keys(http.paramsAs ?? {}).some((p) => !httpPathParams(http).includes(p)));
    expect(renamed.map((r) => r.subject)).toEqual([]);
    const unclassed = bound.filter(({ http, payload }) => httpPayloadFrom(http) === 'query' && typeof payload !== 'function' && !http.queryClass);
    expect(unclassed.map((r) => r.subject)).toEqual([]);
  });

  it('claims the key of a synchronous react, and records an accepted one with its job', () => {
    const mode = OPS.reactor.reactors.react.idempotency as (body: unknown) => string;
    expect(mode({ id: 'r', body: { args: {} } })).toBe('exclusive');
    expect(mode({ id: 'r', body: { callback_url: 'https://example.com/cb' } })).toBe('transaction');
  });
});
