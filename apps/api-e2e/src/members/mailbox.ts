import { SMTPServer } from 'smtp-server';

/** The suite's SMTP server (COFFER_E2E_SMTP_PORT, one test file at a time): what the services mailed. */
export class Mailbox {
  readonly mails: Array<{ to: string; body: string }> = [];
  private server?: SMTPServer;

  async open(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      onData: (stream, session, callback) => {
        let body = '';
        stream.on('data', (c: Buffer) => (body += c.toString('utf8')));
        stream.on('end', () => {
          this.mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), body });
          callback();
        });
      },
    });
    await new Promise<void>((r) => this.server?.listen(Number(process.env['COFFER_E2E_SMTP_PORT']), '127.0.0.1', () => r()));
    return this;
  }

  close(): Promise<void> {
    return new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  /** The secret of the first invitation link mailed to `email` after the `after`-th mail (quoted-printable undone). */
  async invitationLink(email: string, after = 0): Promise<string> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const mail = this.mails.slice(after).find((m) => m.to === email);
      if (mail) {
        const text = mail.body.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        const secret = /oidc\/start\?invitation=([A-Za-z0-9_-]+)/.exec(text)?.[1];
        if (!secret) throw new Error(`no invitation link in: ${text}`);
        return secret;
      }
      if (Date.now() > deadline) throw new Error(`no mail to ${email}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
