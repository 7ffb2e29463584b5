import { OPS } from '@coffer/contracts';
import { rowController } from '../http/row-routes';

/** The tenant of the key: its settings, webhook signing secret and encryption keys. */
export const TenantsController = rowController('TenantsController', {
  tags: ['tenants'],
  routes: {
    get: OPS.session.tenants.get,
    update: OPS.session.tenants.update,
    webhookSecret: OPS.session.tenants.webhookSecret,
    keys: OPS.token.keys.status,
    rotateWebhookSecret: OPS.session.tenants.rotateWebhookSecret,
  },
});
