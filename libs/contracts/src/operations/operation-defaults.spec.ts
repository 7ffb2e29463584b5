import { OPS } from './operations';
import { operationRows } from './operation';

/**
 * The defaulted fields of every row (subject, validate, idempotency, internal) as they were spelled out in full before
 * `op()` filled the defaults (validate: false, idempotency: 'none', internal: false): a function-valued idempotency
 * is `fn`. Leaving a default out of a row must not change what a dispatcher reads.
 */
const EXPLICIT: ReadonlyArray<readonly [string, boolean, string, boolean]> = [
  ['session.auth.authenticate.v1', true, 'none', false],
  ['session.auth.tenant-standing.v1', true, 'none', false],
  ['session.applications.create.v1', true, 'transaction', false],
  ['session.applications.list.v1', false, 'none', false],
  ['session.applications.get.v1', false, 'none', false],
  ['session.applications.update.v1', false, 'transaction', false],
  ['session.applications.delete.v1', false, 'none', false],
  ['session.applications.regenerate.v1', false, 'transaction', false],
  ['session.applications.current.v1', false, 'none', false],
  ['session.applications.keys.create.v1', false, 'transaction', false],
  ['session.applications.keys.list.v1', false, 'none', false],
  ['session.applications.keys.get.v1', false, 'none', false],
  ['session.applications.keys.delete.v1', false, 'none', false],
  ['session.applications.principal.v1', false, 'none', true],
  ['session.tenants.get.v1', true, 'none', false],
  ['session.tenants.update.v1', true, 'transaction', false],
  ['session.tenants.webhook-secret.get.v1', true, 'none', false],
  ['session.tenants.webhook-secret.rotate.v1', false, 'transaction', false],
  ['session.sessions.create.v1', false, 'transaction', false],
  ['session.sessions.authorize.v1', false, 'transaction', false],
  ['session.members.list.v1', false, 'none', false],
  ['session.members.get.v1', false, 'none', false],
  ['session.members.update.v1', false, 'transaction', false],
  ['session.members.delete.v1', false, 'none', false],
  ['session.members.owner.get.v1', false, 'none', false],
  ['session.members.owner.transfer.v1', true, 'transaction', false],
  ['session.invitations.create.v1', true, 'transaction', false],
  ['session.invitations.list.v1', false, 'none', false],
  ['session.invitations.get.v1', false, 'none', false],
  ['session.invitations.resend.v1', false, 'transaction', false],
  ['session.invitations.delete.v1', false, 'none', false],
  ['session.invitations.preview.v1', true, 'none', false],
  ['session.console.sign-in.v1', true, 'none', false],
  ['session.console.authenticate.v1', true, 'none', false],
  ['session.console.sign-out.v1', true, 'none', false],
  ['session.rate-limits.lease.v1', true, 'none', false],
  ['token.tokens.create.v1', false, 'transaction', false],
  ['token.tokens.get.v1', false, 'none', false],
  ['token.tokens.list.v1', false, 'none', false],
  ['token.tokens.update.v1', false, 'transaction', false],
  ['token.tokens.delete.v1', false, 'none', false],
  ['token.tokens.search.v1', false, 'none', false],
  ['token.tokens.list.v2', false, 'none', false],
  ['token.tokens.search.v2', false, 'none', false],
  ['token.tokens.tokenize.v1', false, 'transaction', false],
  ['token.tokens.detokenize.v1', false, 'none', false],
  ['token.intents.create.v1', false, 'transaction', false],
  ['token.intents.get.v1', false, 'none', false],
  ['token.intents.delete.v1', false, 'none', false],
  ['token.logs.list.v1', false, 'none', false],
  ['token.keys.status.v1', false, 'none', false],
  ['token.audit.record.v1', true, 'none', true],
  ['token.audit.refusals.v1', true, 'none', false],
  ['reactor.formulas.create.v1', true, 'transaction', false],
  ['reactor.formulas.list.v1', false, 'none', false],
  ['reactor.formulas.get.v1', false, 'none', false],
  ['reactor.formulas.update.v1', false, 'transaction', false],
  ['reactor.formulas.delete.v1', false, 'none', false],
  ['reactor.reactors.create.v1', false, 'transaction', false],
  ['reactor.reactors.list.v1', false, 'none', false],
  ['reactor.reactors.get.v1', false, 'none', false],
  ['reactor.reactors.update.v1', false, 'transaction', false],
  ['reactor.reactors.delete.v1', false, 'none', false],
  ['reactor.reactors.react.v1', false, 'fn', false],
  ['reactor.reactors.result.v1', false, 'none', false],
  ['reactor.reactors.patch.v1', false, 'transaction', false],
  ['reactor.reactors.react-async.v1', false, 'transaction', false],
  ['reactor.proxies.create.v1', false, 'transaction', false],
  ['reactor.proxies.list.v1', false, 'none', false],
  ['reactor.proxies.get.v1', true, 'none', false],
  ['reactor.proxies.update.v1', true, 'transaction', false],
  ['reactor.proxies.patch.v1', true, 'transaction', false],
  ['reactor.proxies.delete.v1', true, 'none', false],
  ['reactor.proxies.resolve.v1', true, 'none', true],
  ['reactor.proxies.transform.v1', true, 'none', true],
  ['reactor.proxies.idempotency.v1', true, 'none', true],
  ['webhook.webhooks.create.v1', true, 'transaction', false],
  ['webhook.webhooks.list.v1', false, 'none', false],
  ['webhook.webhooks.get.v1', true, 'none', false],
  ['webhook.webhooks.update.v1', true, 'transaction', false],
  ['webhook.webhooks.delete.v1', true, 'none', false],
  ['webhook.webhooks.deliveries.list.v1', true, 'none', false],
  ['webhook.webhooks.deliveries.resend.v1', true, 'none', false],
  ['proxy.requests.invoke.v1', true, 'none', false],
  ['token.health.ping.v1', false, 'none', true],
  ['session.health.ping.v1', false, 'none', true],
  ['reactor.health.ping.v1', false, 'none', true],
  ['webhook.health.ping.v1', false, 'none', true],
  ['proxy.health.ping.v1', false, 'none', true],
];

describe('op() defaults', () => {
  it('give every row the validate, idempotency and internal it spelled out before', () => {
    const rows = operationRows(OPS).map((r) => [r.subject, r.validate, typeof r.idempotency === 'function' ? 'fn' : r.idempotency, r.internal]);
    expect(rows).toEqual(EXPLICIT);
  });

  it('leave no row with those fields absent', () => {
    for (const row of operationRows(OPS)) {
      expect(typeof row.validate).toBe('boolean');
      expect(typeof row.internal).toBe('boolean');
      expect(row.idempotency).toBeDefined();
    }
  });
});
