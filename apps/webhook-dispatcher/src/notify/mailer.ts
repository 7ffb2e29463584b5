import type { Provider } from '@nestjs/common';
import { Mailer } from '@coffer/mail';
import { createLogger } from '@coffer/observability';
import { webhookDispatcherConfig } from '../config';

export { Mailer };

/**
 * The relay of operator notices: SMTP_URL (`smtp://user:pass@host:587`, `smtps://…` for implicit TLS) and SMTP_FROM
 * of webhook-dispatcher's configuration. Without SMTP_URL nothing is sent and the notice is logged (without the
 * address) instead.
 */
export const mailerProvider: Provider = {
  provide: Mailer,
  useFactory: () => {
    const config = webhookDispatcherConfig();
    return new Mailer({ ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}), smtpFrom: config.smtpFrom }, createLogger('webhook-dispatcher'));
  },
};
