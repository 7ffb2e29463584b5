import { Injectable, type Provider } from '@nestjs/common';
import { roleOf } from '@coffer/auth';
import { Mailer, type Mail } from '@coffer/mail';
import { createLogger } from '@coffer/observability';
import { sessionServiceConfig } from '../config';

/** session-service's relay: SMTP_URL and SMTP_FROM of its configuration (unset SMTP_URL: invitations are only logged). */
export const mailerProvider: Provider = {
  provide: Mailer,
  useFactory: () => {
    const config = sessionServiceConfig();
    return new Mailer({ ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}), smtpFrom: config.smtpFrom }, createLogger('session-service'));
  },
};

export interface InvitationMailInput {
  email: string;
  role: string;
  expiresAt: Date;
  tenantName: string;
  /** the link's secret: in the mail only, never logged nor stored (the row keeps its SHA-256) */
  secret: string;
}

/**
 * The invitation mail: the link `${CONSOLE_URL}/console/oidc/start?invitation=<secret>` (the gateway's route: it
 * starts single sign-on and accepts the invitation on the way back). Sent once the invitation committed; a mail that
 * cannot be sent never fails the call (the Mailer logs it by its subject, without the address or the link): resend.
 */
@Injectable()
export class InvitationMail {
  private readonly logger = createLogger('session-service');

  constructor(private readonly mailer: Mailer) {}

  compose(input: InvitationMailInput): Mail {
    const link = `${sessionServiceConfig().consoleUrl}/console/oidc/start?invitation=${encodeURIComponent(input.secret)}`;
    const description = roleOf(input.role)?.description;
    return {
      to: input.email,
      subject: `You are invited to ${input.tenantName} on Coffer`,
      text: [
        `You are invited to join the tenant "${input.tenantName}" on Coffer as ${input.role}${description ? ` (${description.charAt(0).toLowerCase()}${description.slice(1)})` : ''}.`,
        '',
        'Sign in through this link to accept the invitation:',
        link,
        '',
        `The link works once, for the address this mail was sent to, until ${input.expiresAt.toISOString()}.`,
        'If you did not expect this invitation, ignore this mail: nothing happens until the link is used.',
      ].join('\n'),
    };
  }

  /**
   * Sends without holding up the caller: the API call answers once the invitation committed, whatever the relay
   * does. The promise is returned for whoever wants to wait (tests); it never rejects.
   */
  send(input: InvitationMailInput): Promise<boolean> {
    return this.mailer.send(this.compose(input)).catch((err: unknown) => {
      this.logger.error({ err: { name: (err as Error)?.name } }, 'invitation mail not sent');
      return false;
    });
  }
}
