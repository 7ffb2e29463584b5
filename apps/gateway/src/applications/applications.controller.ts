import { OPS } from '@coffer/contracts';
import { rowController } from '../http/row-routes';

/** The applications of the tenant, served from their rows (libs/contracts OPS.session.applications). */
export const ApplicationsController = rowController('ApplicationsController', {
  tags: ['applications'],
  routes: {
    create: OPS.session.applications.create,
    list: OPS.session.applications.list,
    /** the calling application (any application key; a session key is refused by session-service) */
    current: OPS.session.applications.current,
    get: OPS.session.applications.get,
    update: OPS.session.applications.update,
    delete: OPS.session.applications.delete,
    regenerate: OPS.session.applications.regenerate,
  },
});
