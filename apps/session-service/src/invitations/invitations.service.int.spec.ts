import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { INVITATION_TTL_HOURS, type Principal } from '@coffer/contracts';
import { sha256Hex } from '@coffer/crypto';
import { PrismaService } from '@coffer/db';
import { AuditTrail, RecordedWrites, withActingContext } from '@coffer/operations';
import { Mailer } from '@coffer/mail';
import { insertTenant, principalOf, problemOf, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { TenantRepository } from '../tenants/tenant.repository';
import { InvitationMail } from './invitation-mail';
import { InvitationRepository } from './invitation.repository';
import { InvitationsService } from './invitations.service';

// read once by the configuration, before the module is built
process.env['CONSOLE_URL'] = 'https://console.acme.test';

interface Received {
  to: string;
  subject: string;
  text: string;
}

/** The raw message's subject and its text, quoted-printable decoded (nodemailer encodes `=` and long lines). */
function parse(raw: string): { subject: string; text: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(head)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? '';
  const body = rest.join('\n\n');
  const text = /quoted-printable/i.test(head)
    ? body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    : body;
  return { subject, text: text.replace(/\r\n/g, '\n') };
}

/**
 * Invitations against PostgreSQL and a local SMTP server: the link mailed carries a secret whose SHA-256 is all that
 * is stored; conflicts (a pending invitation, a member with the email) and the replacement of an expired one; resend
 * replaces the secret; the status follows the expiry; the preview names a pending link only; every change is audited
 * and announced in its own transaction, and the secret appears nowhere but in the mail.
 */
describe('InvitationsService (PostgreSQL, SMTP)', () => {
  let ctx: IntegrationContext;
  let invitations: InvitationsService;
  let smtp: SMTPServer;
  const inbox: Received[] = [];
  let tenant: string;
  let admin: Principal;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('bounce@')) return callback(new Error(`<${address.address}>: Recipient address rejected`));
        callback();
      },
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
        stream.on('end', () => {
          inbox.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), ...parse(raw) });
          callback();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    const mailer = new Mailer({ smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, smtpFrom: 'Coffer <coffer@acme.test>' });
    ctx = await startIntegration({
      providers: [
        InvitationRepository,
        InvitationsService,
        InvitationMail,
        TenantRepository,
        AuditTrail,
        RecordedWrites,
        { provide: Mailer, useValue: mailer },
      ],
    });
    invitations = ctx.get(InvitationsService);
    tenant = await insertTenant(ctx.sql, {}, 'Acme Payments');
    admin = principalOf(tenant, {
      type: 'management',
      permissions: ['tenant:invitation:create', 'tenant:invitation:read', 'tenant:invitation:update', 'tenant:invitation:delete'],
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await new Promise<void>((r) => smtp?.close(() => r()));
  });

  /** The mails sent so far (each send runs after the call answered). */
  const delivered = async (): Promise<Received[]> => {
    await Promise.all([...invitations.sending]);
    return inbox;
  };
  const mailTo = async (email: string): Promise<Received[]> => (await delivered()).filter((m) => m.to === email);
  const secretOf = (mail: Received | undefined): string => {
    const m = /https:\/\/console\.acme\.test\/console\/oidc\/start\?invitation=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '');
    if (!m?.[1]) throw new Error(`no link in ${mail?.text}`);
    return m[1];
  };
  const rowOf = async (id: string) => (await ctx.sql.query('SELECT * FROM tenant_invitations WHERE id = $1', [id])).rows[0];
  const expire = (id: string) => ctx.sql.query(`UPDATE tenant_invitations SET expires_at = now() - interval '1 minute' WHERE id = $1`, [id]);
  const auditOf = async (entityId: string) =>
    (await ctx.sql.query('SELECT operation, entity_type, changes FROM audit_events WHERE entity_id = $1 ORDER BY created_at', [entityId])).rows;
  const eventsOf = async (type: string) =>
    (await ctx.sql.query('SELECT event FROM event_outbox WHERE tenant_id = $1 AND type = $2 ORDER BY seq', [tenant, type])).rows.map((r) => r.event);

  async function addMember(email: string): Promise<void> {
    const user = randomUUID();
    await ctx.sql.query(`INSERT INTO users (id, issuer, subject, email) VALUES ($1, 'https://login.example.com', $2, $3)`, [user, `sub-${user}`, email]);
    await ctx.sql.query(`INSERT INTO tenant_members (id, tenant_id, user_id, role) VALUES ($1, $2, $3, 'DEVELOPER')`, [randomUUID(), tenant, user]);
  }

  it('invites by email: the mail carries a link whose secret only the mail holds (the row keeps its SHA-256), audited and announced', async () => {
    const before = Date.now();
    const view = await withActingContext({ principal: admin, traceId: 'trace-invite' }, () => invitations.create({ email: '  Jane@Example.COM ' }));
    expect(view).toEqual({
      id: expect.any(String),
      tenant_id: tenant,
      email: 'jane@example.com',
      role: 'ADMIN',
      status: 'PENDING',
      expires_at: expect.any(String),
      created_by: admin.applicationId,
      created_at: expect.any(String),
    });
    const ttl = Date.parse(view.expires_at) - before;
    expect(ttl).toBeGreaterThanOrEqual(INVITATION_TTL_HOURS * 3_600_000 - 1_000);
    expect(ttl).toBeLessThanOrEqual(INVITATION_TTL_HOURS * 3_600_000 + 5_000);

    const [mail, ...more] = await mailTo('jane@example.com');
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('You are invited to Acme Payments on Coffer');
    expect(mail?.text).toContain('as ADMIN');
    expect(mail?.text).toContain(view.expires_at);
    const secret = secretOf(mail);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    const row = await rowOf(view.id);
    expect(row.token_hash).toBe(sha256Hex(secret));

    // the secret is nowhere else: not in the view, the row, the audit record nor the event
    const audit = await auditOf(view.id);
    expect(audit).toEqual([
      {
        operation: 'create',
        entity_type: 'tenant_invitation',
        changes: { email: { new: 'jane@example.com' }, role: { new: 'ADMIN' }, expires_at: { new: view.expires_at }, token: { redacted: true } },
      },
    ]);
    const events = await eventsOf('tenant.invitation.created');
    expect(events).toEqual([expect.objectContaining({ trace_id: 'trace-invite', data: expect.objectContaining({ invitation: view }) })]);
    for (const shown of [view, row, audit, events]) {
      expect(JSON.stringify(shown)).not.toContain(secret);
    }
    expect(JSON.stringify([view, audit, events])).not.toContain(row.token_hash);
  });

  it('refuses a second invitation while one is pending, and one for a member of the tenant (409); replaces an expired one', async () => {
    const first = await withActingContext({ principal: admin }, () => invitations.create({ email: 'sam@example.com', role: 'developer' }));
    expect(first.role).toBe('DEVELOPER');
    expect(await problemOf(withActingContext({ principal: admin }, () => invitations.create({ email: 'SAM@example.com' })))).toMatchObject({ status: 409 });

    await addMember('Max@Example.com');
    expect(await problemOf(withActingContext({ principal: admin }, () => invitations.create({ email: 'max@example.com' })))).toMatchObject({ status: 409 });

    // the same email in another tenant is another invitation
    const other = principalOf(await insertTenant(ctx.sql, {}, 'Other'), { type: 'management', permissions: ['tenant:invitation:create'] });
    expect((await withActingContext({ principal: other }, () => invitations.create({ email: 'sam@example.com' }))).status).toBe('PENDING');

    await expire(first.id);
    const oldHash = (await rowOf(first.id)).token_hash;
    const second = await withActingContext({ principal: admin }, () => invitations.create({ email: 'sam@example.com', role: 'READ_ONLY' }));
    expect(second.id).not.toBe(first.id);
    expect(await rowOf(first.id)).toBeUndefined();
    expect(await invitations.preview({ tokenHash: oldHash })).toBeNull();
    expect(await eventsOf('tenant.invitation.deleted')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ invitation: expect.objectContaining({ id: first.id, status: 'EXPIRED' }) }) }),
    ]);
    expect(await auditOf(first.id)).toEqual([expect.objectContaining({ operation: 'create' }), expect.objectContaining({ operation: 'delete' })]);
    expect(await mailTo('sam@example.com')).toHaveLength(3);
  });

  it('refuses bad bodies and queries with a 400 (never a 500), unknown and foreign ids with a 404', async () => {
    for (const body of [
      undefined,
      null,
      'x',
      [],
      {},
      { email: 'not an email' },
      { email: 42 },
      { email: 'a@example.com', role: 'OWNER' },
      { email: 'a@example.com', role: 'god' },
    ]) {
      expect((await problemOf(withActingContext({ principal: admin }, () => invitations.create(body)))).status).toBe(400);
    }
    expect(await problemOf(withActingContext({ principal: admin }, () => invitations.create({ email: `${'a'.repeat(250)}@example.com` })))).toMatchObject({
      status: 400,
      errors: { email: expect.any(Array) },
    });
    expect(await problemOf(withActingContext({ principal: admin }, () => invitations.list({ status: 'ACCEPTED' })))).toMatchObject({
      status: 400,
      errors: { status: [expect.any(String)] },
    });
    expect((await problemOf(withActingContext({ principal: admin }, () => invitations.list({ size: '-1' })))).status).toBe(400);
    for (const id of ['nope', randomUUID()]) {
      expect((await problemOf(withActingContext({ principal: admin }, () => invitations.get(id)))).status).toBe(404);
      expect((await problemOf(withActingContext({ principal: admin }, () => invitations.resend(id)))).status).toBe(404);
      expect((await problemOf(withActingContext({ principal: admin }, () => invitations.delete(id)))).status).toBe(404);
    }
    const mine = await withActingContext({ principal: admin }, () => invitations.create({ email: 'private@example.com' }));
    const stranger = principalOf(await insertTenant(ctx.sql), { type: 'management', permissions: ['tenant:invitation:read', 'tenant:invitation:delete'] });
    expect((await problemOf(withActingContext({ principal: stranger }, () => invitations.get(mine.id)))).status).toBe(404);
    expect((await problemOf(withActingContext({ principal: stranger }, () => invitations.delete(mine.id)))).status).toBe(404);
    expect((await problemOf(invitations.preview({ tokenHash: 'not-a-hash' }))).status).toBe(400);
    expect((await problemOf(invitations.preview(null))).status).toBe(400);
  });

  it('lists by status, computed from the expiry', async () => {
    const t = await insertTenant(ctx.sql, {}, 'Listing');
    const p = principalOf(t, { type: 'management', permissions: ['tenant:invitation:create', 'tenant:invitation:read'] });
    const a = await withActingContext({ principal: p }, () => invitations.create({ email: 'a@list.test' }));
    const b = await withActingContext({ principal: p }, () => invitations.create({ email: 'b@list.test' }));
    await expire(b.id);
    expect((await withActingContext({ principal: p }, () => invitations.list({}))).data.map((i) => [i.id, i.status]).sort()).toEqual(
      [
        [a.id, 'PENDING'],
        [b.id, 'EXPIRED'],
      ].sort(),
    );
    expect((await withActingContext({ principal: p }, () => invitations.list({ status: 'PENDING' }))).data.map((i) => i.id)).toEqual([a.id]);
    expect((await withActingContext({ principal: p }, () => invitations.list({ status: 'expired' }))).data.map((i) => i.id)).toEqual([b.id]);
    expect((await withActingContext({ principal: p }, () => invitations.list({ status: 'EXPIRED' }))).pagination).toMatchObject({ total_items: 1 });
    expect((await withActingContext({ principal: p }, () => invitations.get(b.id))).status).toBe('EXPIRED');
  });

  it('resends with a new secret (the old link stops working) and a full expiry again, even once expired', async () => {
    const view = await withActingContext({ principal: admin }, () => invitations.create({ email: 'lee@example.com', role: 'READ_ONLY' }));
    const [firstMail] = await mailTo('lee@example.com');
    const oldSecret = secretOf(firstMail);
    expect(await invitations.preview({ tokenHash: sha256Hex(oldSecret) })).toEqual({
      tenant_name: 'Acme Payments',
      email: 'lee@example.com',
      role: 'READ_ONLY',
    });
    await expire(view.id);
    expect(await invitations.preview({ tokenHash: sha256Hex(oldSecret) })).toBeNull();

    const resent = await withActingContext({ principal: admin, traceId: 'trace-resend' }, () => invitations.resend(view.id));
    expect(resent).toMatchObject({ id: view.id, status: 'PENDING', modified_by: admin.applicationId });
    expect(Date.parse(resent.expires_at)).toBeGreaterThan(Date.now() + (INVITATION_TTL_HOURS - 1) * 3_600_000);
    const mails = await mailTo('lee@example.com');
    expect(mails).toHaveLength(2);
    const newSecret = secretOf(mails[1]);
    expect(newSecret).not.toBe(oldSecret);
    const row = await rowOf(view.id);
    expect(row.token_hash).toBe(sha256Hex(newSecret));
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM tenant_invitations WHERE token_hash = $1', [sha256Hex(oldSecret)])).rows[0].n).toBe(0);
    expect(await invitations.preview({ tokenHash: sha256Hex(oldSecret) })).toBeNull();
    expect(await invitations.preview({ tokenHash: sha256Hex(newSecret) })).toEqual({
      tenant_name: 'Acme Payments',
      email: 'lee@example.com',
      role: 'READ_ONLY',
    });
    expect((await auditOf(view.id)).map((a) => a.operation)).toEqual(['create', 'resend']);
    expect((await auditOf(view.id))[1].changes).toEqual({ expires_at: { old: expect.any(String), new: resent.expires_at }, token: { redacted: true } });
    expect(JSON.stringify(await auditOf(view.id))).not.toContain(newSecret);
  });

  it('revokes: the row, its link and its preview are gone, recorded and announced', async () => {
    const view = await withActingContext({ principal: admin }, () => invitations.create({ email: 'gone@example.com' }));
    const secret = secretOf((await mailTo('gone@example.com'))[0]);
    await withActingContext({ principal: admin, traceId: 'trace-revoke' }, () => invitations.delete(view.id));
    expect(await rowOf(view.id)).toBeUndefined();
    expect(await invitations.preview({ tokenHash: sha256Hex(secret) })).toBeNull();
    expect((await auditOf(view.id)).map((a) => a.operation)).toEqual(['create', 'delete']);
    expect(await eventsOf('tenant.invitation.deleted')).toContainEqual(
      expect.objectContaining({ trace_id: 'trace-revoke', data: expect.objectContaining({ invitation: expect.objectContaining({ id: view.id }) }) }),
    );
    expect((await problemOf(withActingContext({ principal: admin }, () => invitations.delete(view.id)))).status).toBe(404);
  });

  it('mails once the enclosing transaction (an idempotent write) commits, and never when it rolls back', async () => {
    const prisma = ctx.get(PrismaService);
    await expect(
      prisma.transactional(async () => {
        await withActingContext({ principal: admin }, () => invitations.create({ email: 'rollback@example.com' }));
        expect(invitations.sending.size).toBe(0);
        throw new Error('rolled back after the call');
      }),
    ).rejects.toThrow('rolled back after the call');
    expect(invitations.sending.size).toBe(0);
    expect(await mailTo('rollback@example.com')).toEqual([]);
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM tenant_invitations WHERE email = $1', ['rollback@example.com'])).rows[0].n).toBe(0);

    const view = await prisma.transactional(async () => {
      const v = await withActingContext({ principal: admin }, () => invitations.create({ email: 'committed@example.com' }));
      expect(invitations.sending.size).toBe(0);
      return v;
    });
    expect((await rowOf(view.id)).token_hash).toBe(sha256Hex(secretOf((await mailTo('committed@example.com'))[0])));
  });

  it("previews a pending link of a live tenant only; a relay's refusal never fails the call", async () => {
    const t = await insertTenant(ctx.sql, {}, 'Doomed');
    const p = principalOf(t, { type: 'management', permissions: ['tenant:invitation:create'] });
    await withActingContext({ principal: p }, () => invitations.create({ email: 'doomed@example.com', role: 'DEVELOPER' }));
    const hash = sha256Hex(secretOf((await mailTo('doomed@example.com'))[0]));
    expect(await invitations.preview({ tokenHash: hash })).toEqual({ tenant_name: 'Doomed', email: 'doomed@example.com', role: 'DEVELOPER' });
    await ctx.sql.query('UPDATE tenants SET deleted_at = now() WHERE id = $1', [t]);
    expect(await invitations.preview({ tokenHash: hash })).toBeNull();
    expect(await invitations.preview({ tokenHash: sha256Hex('unknown') })).toBeNull();

    const bounced = await withActingContext({ principal: admin }, () => invitations.create({ email: 'bounce@example.com' }));
    expect(bounced.status).toBe('PENDING');
    expect(await mailTo('bounce@example.com')).toEqual([]);
    expect(await rowOf(bounced.id)).toBeDefined();
  });
});
