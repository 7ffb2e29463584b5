import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { createLogger } from '@coffer/observability';
import { webhookDispatcherConfig } from '../config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends operator notices through the SMTP relay of SMTP_URL (`smtp://user:pass@host:587`, `smtps://…` for implicit
 * TLS) from SMTP_FROM. Without SMTP_URL nothing is sent and the notice is logged (without the address) instead.
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly logger = createLogger('webhook-dispatcher');
  private readonly config = webhookDispatcherConfig();
  private transport?: Transporter;

  get configured(): boolean {
    return this.config.smtpUrl !== undefined;
  }

  /** True when the relay accepted the message; failures are logged, never thrown (a notice must not stop delivery). */
  async send(mail: Mail): Promise<boolean> {
    if (!this.config.smtpUrl) {
      this.logger.warn({ subject: mail.subject }, 'SMTP_URL is not set: notice not sent');
      return false;
    }
    this.transport ??= createTransport(this.config.smtpUrl);
    try {
      await this.transport.sendMail({ from: this.config.smtpFrom, to: mail.to, subject: mail.subject, text: mail.text });
      return true;
    } catch (err) {
      this.logger.error({ err: { message: (err as Error).message }, subject: mail.subject }, 'notice not sent: the SMTP relay refused it');
      return false;
    }
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
