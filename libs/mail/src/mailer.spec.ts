import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Logger } from '@coffer/observability';
import { Mailer } from './mailer';

/** The shared mailer against a local SMTP server: what it sends, and what it logs when it cannot (never the address). */
describe('Mailer', () => {
  let smtp: SMTPServer;
  let url: string;
  const mails: Array<{ from: string; to: string; body: string }> = [];
  const logged: unknown[][] = [];
  const logger = { warn: (...a: unknown[]) => logged.push(a), error: (...a: unknown[]) => logged.push(a) } as unknown as Logger;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('nobody@')) return callback(new Error(`<${address.address}>: Recipient address rejected`));
        callback();
      },
      onData(stream, session, callback) {
        let body = '';
        stream.on('data', (c: Buffer) => (body += c.toString('utf8')));
        stream.on('end', () => {
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          mails.push({ from, to: session.envelope.rcptTo.map((r) => r.address).join(','), body });
          callback();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    url = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => smtp.close(() => r())));
  beforeEach(() => {
    mails.length = 0;
    logged.length = 0;
  });

  it('sends through the relay from SMTP_FROM', async () => {
    const mailer = new Mailer({ smtpUrl: url, smtpFrom: 'Coffer <coffer@example.com>' }, logger);
    expect(mailer.configured).toBe(true);
    expect(await mailer.send({ to: 'jane@example.com', subject: 'Hello', text: 'the text' })).toBe(true);
    mailer.onApplicationShutdown();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ from: 'coffer@example.com', to: 'jane@example.com' });
    expect(mails[0]?.body).toContain('Subject: Hello');
    expect(mails[0]?.body).toContain('the text');
  });

  it('without a relay sends nothing and logs the subject only', async () => {
    const mailer = new Mailer({ smtpFrom: 'coffer@localhost' }, logger);
    expect(mailer.configured).toBe(false);
    expect(await mailer.send({ to: 'jane@example.com', subject: 'Hello', text: 'secret link' })).toBe(false);
    expect(mails).toEqual([]);
    expect(JSON.stringify(logged)).toContain('Hello');
    expect(JSON.stringify(logged)).not.toMatch(/jane@example\.com|secret link/);
  });

  it('a refused mail is false, never a throw, and its log holds neither the address nor the text', async () => {
    const mailer = new Mailer({ smtpUrl: url, smtpFrom: 'coffer@localhost' }, logger);
    expect(await mailer.send({ to: 'nobody@example.com', subject: 'Hello', text: 'secret link' })).toBe(false);
    mailer.onApplicationShutdown();
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(logged)).toContain('<address>');
    expect(JSON.stringify(logged)).not.toMatch(/nobody@example\.com|secret link/);
  });

  it('an unreachable relay is false, never a throw', async () => {
    const mailer = new Mailer({ smtpUrl: 'smtp://127.0.0.1:1', smtpFrom: 'coffer@localhost' }, logger);
    expect(await mailer.send({ to: 'jane@example.com', subject: 'Hello', text: 'x' })).toBe(false);
  });
});
