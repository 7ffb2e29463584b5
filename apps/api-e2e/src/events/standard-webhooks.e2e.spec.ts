/**
 * Issue 39 item 5, Standard Webhooks: every webhook created has a signing secret of its own (shown once, in the reply
 * to its creation) that signs its deliveries where the tenant's secret does not; a webhook created before keeps the
 * tenant's secret; a receiver answering 410 Gone disables its webhook: no further attempt, an audit record.
 */
import { Client } from 'pg';
import { api, createTenant, type TestTenant } from '@coffer/testing';
import { Receiver, eventually, verifyStandardWebhook, webhookSecret } from './support';

jest.setTimeout(60_000);

const WHSEC = /^whsec_[A-Za-z0-9+/]{43}=$/;

async function sql<T>(text: string, params: unknown[]): Promise<T[]> {
  const client = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('Standard Webhooks: a signing secret per webhook, 410 Gone', () => {
  let tenant: TestTenant;
  let receiver: Receiver;
  let tenantSecret: string;
  const newApplication = (name: string) =>
    api('POST', '/applications', { key: tenant.managementKey, body: { name, type: 'private', permissions: ['token:read'] } });
  const hookFor = (name: string, url = receiver.url) =>
    api('POST', '/webhooks', { key: tenant.managementKey, body: { name, url, events: ['application.created'] } });

  beforeAll(async () => {
    tenant = await createTenant('standard-webhooks');
    receiver = await new Receiver().start();
    tenantSecret = await webhookSecret(tenant.managementKey);
  });
  afterAll(() => receiver.stop());

  it('a new webhook’s own secret, shown once, signs its deliveries; the tenant’s secret does not', async () => {
    const hook = await hookFor('own secret');
    expect(hook.status).toBe(201);
    const secret = hook.body.signing_secret as string;
    expect(secret).toMatch(WHSEC);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(secret).not.toBe(tenantSecret);
    // shown once: never in a read, a list or an update's reply
    const read = await api('GET', `/webhooks/${hook.body.id}`, { key: tenant.managementKey });
    expect(read.body.signing_secret).toBeUndefined();
    expect(read.text).not.toContain(secret.slice(6));
    expect((await api('GET', '/webhooks', { key: tenant.managementKey })).text).not.toContain(secret.slice(6));
    const updated = await api('PUT', `/webhooks/${hook.body.id}`, {
      key: tenant.managementKey,
      body: { name: 'own secret', url: receiver.url, events: ['application.created'] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.signing_secret).toBeUndefined();
    // each webhook its own
    const other = await hookFor('another', `${receiver.url}?other`);
    expect(other.body.signing_secret).toMatch(WHSEC);
    expect(other.body.signing_secret).not.toBe(secret);

    const app = await newApplication('signed by its webhook');
    const mine = await receiver.waitForEvent('application.created', (e) => e.event.data.application?.id === app.body.id);
    // one delivery per webhook
    const delivered = await eventually(async () => {
      const both = receiver.received.filter((r) => r.body.includes(app.body.id));
      return both.length === 2 ? both : undefined;
    });
    const ofHook = (id: string) => delivered.find((r) => !!r.headers['webhook-id'] && verifyStandardWebhook(id, r));
    expect(ofHook(secret)).toBeDefined();
    expect(ofHook(other.body.signing_secret)).toBeDefined();
    expect(ofHook(secret)).not.toBe(ofHook(other.body.signing_secret));
    for (const r of delivered) {
      expect(verifyStandardWebhook(tenantSecret, r)).toBe(false);
      // one signature: the webhook's secret has not been rotated
      expect(String(r.headers['webhook-signature']).split(' ')).toHaveLength(1);
    }
    expect(mine.raw.headers['webhook-signature']).toMatch(/^v1,/);

    // a rotation of the tenant's secret does not touch the webhooks' own
    await api('POST', '/tenants/self/webhook-secret/rotate', { key: tenant.managementKey });
    const after = await newApplication('after the tenant rotated');
    await receiver.waitForEvent('application.created', (e) => e.event.data.application?.id === after.body.id);
    const latest = receiver.received.filter((r) => r.body.includes(after.body.id));
    expect(latest.some((r) => verifyStandardWebhook(secret, r))).toBe(true);

    // the secret is stored sealed, and goes with its webhook
    const rows = await sql<{ ciphertext: Buffer }>('SELECT ciphertext FROM webhook_secrets WHERE webhook_id = $1', [hook.body.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].ciphertext.toString('latin1')).not.toContain(secret.slice(6));
    expect((await api('DELETE', `/webhooks/${hook.body.id}`, { key: tenant.managementKey })).status).toBe(204);
    expect(await sql('SELECT 1 FROM webhook_secrets WHERE webhook_id = $1', [hook.body.id])).toHaveLength(0);
    expect((await api('DELETE', `/webhooks/${other.body.id}`, { key: tenant.managementKey })).status).toBe(204);
  });

  it('a webhook created before webhooks had their own secret keeps being signed with the tenant’s', async () => {
    const hook = await hookFor('from before');
    expect(hook.status).toBe(201);
    // as the migration leaves a webhook that existed before it: no secret of its own
    await sql('DELETE FROM webhook_secrets WHERE webhook_id = $1', [hook.body.id]);
    const app = await newApplication('signed by the tenant');
    const delivered = await receiver.waitForEvent('application.created', (e) => e.event.data.application?.id === app.body.id);
    const current = await webhookSecret(tenant.managementKey);
    expect(verifyStandardWebhook(current, delivered.raw)).toBe(true);
    expect(verifyStandardWebhook(hook.body.signing_secret, delivered.raw)).toBe(false);
    expect((await api('DELETE', `/webhooks/${hook.body.id}`, { key: tenant.managementKey })).status).toBe(204);
  });

  it('a receiver answering 410 Gone: the webhook is disabled at once, the delivery fails with no retry, and it is audited', async () => {
    const gone = await new Receiver().start();
    gone.status = 410;
    try {
      const hook = await hookFor('gone', gone.url);
      expect(hook.status).toBe(201);
      const app = await newApplication('to a gone receiver');
      const disabled = await eventually(async () => {
        const w = await api('GET', `/webhooks/${hook.body.id}`, { key: tenant.managementKey });
        return w.body.status === 'disabled' ? w.body : undefined;
      }, 15_000);
      expect(disabled.status).toBe('disabled');
      const failed = await eventually(async () => {
        const d = await api('GET', `/webhooks/${hook.body.id}/deliveries?status=failed`, { key: tenant.managementKey });
        return d.body.data.length ? d.body.data[0] : undefined;
      });
      expect(failed).toMatchObject({ status: 'failed', attempts: 1, last_status_code: 410, last_error: 'receiver answered 410' });
      // the e2e retry schedule (200, 400, 800 ms) is long over: nothing came again, and new events are not queued for it
      await newApplication('after it was disabled');
      await new Promise((r) => setTimeout(r, 2_000));
      expect(gone.received).toHaveLength(1);
      expect(JSON.parse(gone.received[0].body).event.data.application.id).toBe(app.body.id);

      const logs = await api('GET', `/logs?entity_type=webhook&entity_id=${hook.body.id}&operation=update`, { key: tenant.managementKey });
      expect(logs.status).toBe(200);
      expect(logs.body.data).toEqual([
        expect.objectContaining({ operation: 'update', actor_type: 'system', changes: { status: { old: 'enabled', new: 'disabled' } } }),
      ]);

      // back in service once re-enabled
      gone.status = 204;
      const on = await api('PUT', `/webhooks/${hook.body.id}`, {
        key: tenant.managementKey,
        body: { name: 'gone', url: gone.url, events: ['application.created'], status: 'enabled' },
      });
      expect(on.body.status).toBe('enabled');
      const back = await newApplication('after it came back');
      await gone.waitForEvent('application.created', (e) => e.event.data.application?.id === back.body.id);
      expect(verifyStandardWebhook(hook.body.signing_secret, gone.received.at(-1) as never)).toBe(true);
    } finally {
      await gone.stop();
    }
  });
});
