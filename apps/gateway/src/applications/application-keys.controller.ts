import { OPS } from '@coffer/contracts';
import { rowController } from '../http/row-routes';

/** Several API keys per application: the secret is in the create reply only; delete revokes at once. */
export const ApplicationKeysController = rowController('ApplicationKeysController', {
  tags: ['applications'],
  routes: {
    create: OPS.session.applications.keys.create,
    list: OPS.session.applications.keys.list,
    get: OPS.session.applications.keys.get,
    delete: OPS.session.applications.keys.delete,
  },
});
