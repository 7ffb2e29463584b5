import { OPS } from '@coffer/contracts';
import { rowController } from '../http/row-routes';

/** The people of the tenant (docs/members.md): their roles, and who owns the tenant. */
export const MembersController = rowController('MembersController', {
  tags: ['members'],
  routes: {
    list: OPS.session.members.list,
    get: OPS.session.members.get,
    update: OPS.session.members.update,
    delete: OPS.session.members.delete,
    owner: OPS.session.members.owner,
    transferOwner: OPS.session.members.transferOwner,
  },
});
