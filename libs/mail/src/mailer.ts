import { createTransport, type Transporter } from 'nodemailer';
import { createLogger, type Logger } from '@coffer/observability';

/** anything that looks like an email address, in a relay's error */
const ADDRESS = /[^\s<>"',;:()]+@[^\s<>"',;:()]+/g;

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface MailerOptions {
  /** SMTP_URL: `smtp://user:pass@host:587` (STARTTLS when offered), `smtps://…:465` for implicit TLS; unset: nothing is sent */
  smtpUrl?: string;
  /** SMTP_FROM: the sender, `Coffer <coffer@localhost>` by default in each service's configuration */
  smtpFrom: string;
}

/**
 * Mail through an SMTP relay (webhook-dispatcher's notices, session-service's invitations); each service reads its
 * own SMTP_URL and SMTP_FROM and provides one of these (`{ provide: Mailer, useFactory: ... }`). Without a relay
 * nothing is sent and the mail is logged by its subject instead. The logs never hold the address nor the text (an
 * invitation's text holds its link, a credential): only the subject.
 */
export class Mailer {
  private transport?: Transporter;

  constructor(
    private readonly options: MailerOptions,
    private readonly logger: Logger = createLogger('mailer'),
  ) {}

  get configured(): boolean {
    return this.options.smtpUrl !== undefined;
  }

  /** True when the relay accepted the message; failures are logged, never thrown (a mail never fails its cause). */
  async send(mail: Mail): Promise<boolean> {
    if (!this.options.smtpUrl) {
      this.logger.warn({ subject: mail.subject }, 'SMTP_URL is not set: mail not sent');
      return false;
    }
    this.transport ??= createTransport(this.options.smtpUrl);
    try {
      await this.transport.sendMail({ from: this.options.smtpFrom, to: mail.to, subject: mail.subject, text: mail.text });
      return true;
    } catch (err) {
      const e = err as { message?: unknown; code?: unknown; responseCode?: unknown };
      // a relay's refusal may quote the recipient (`550 <jane@example.com>: ...`): never logged
      const message = String(e.message ?? err).replace(ADDRESS, '<address>');
      this.logger.error({ err: { message, code: e.code, responseCode: e.responseCode }, subject: mail.subject }, 'mail not sent: the SMTP relay refused it');
      return false;
    }
  }

  /** Nest calls it at shutdown (a provider's hook): the pooled connections, if any, are closed. */
  onApplicationShutdown(): void {
    this.transport?.close();
    this.transport = undefined;
  }
}
