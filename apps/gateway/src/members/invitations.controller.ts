import { OPS } from '@coffer/contracts';
import { rowController } from '../http/row-routes';

/** Invitations by email (docs/members.md): the link signs the invitee in through single sign-on and adds the member. */
export const InvitationsController = rowController('InvitationsController', {
  tags: ['members'],
  routes: {
    create: OPS.session.invitations.create,
    list: OPS.session.invitations.list,
    get: OPS.session.invitations.get,
    resend: OPS.session.invitations.resend,
    delete: OPS.session.invitations.delete,
  },
});
