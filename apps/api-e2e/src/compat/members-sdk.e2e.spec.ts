/**
 * Tenant members, the owner, invitations and roles through the official SDKs, unchanged (docs/compatibility.md,
 * docs/members.md): node-sdk 5.7.0's `tenants.members`, `tenants.owner`, `tenants.ownerTransfer`, `tenants.invitations`
 * and `roles`, and basis-theory-js 4.30.2's invitation and member methods of `tenants`.
 */
import { BasisTheory, type BasisTheoryClient } from '@basis-theory/node-sdk';
import { createTenant, type TestTenant } from '@coffer/testing';
import { Mailbox } from '../members/mailbox';
import { addAccount, asPerson, signedIn } from '../members/sso';
import { btJs, nodeSdk } from './support';

jest.setTimeout(60_000);

const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@example.test`;

describe('members and invitations through the SDKs', () => {
  const mailbox = new Mailbox();
  let tenant: TestTenant;
  let sdk: BasisTheoryClient;

  /** an invitation by the SDK, accepted through single sign-on: the member's id */
  async function join(email: string, role?: string): Promise<string> {
    await addAccount({ email });
    const before = mailbox.mails.length;
    const invitation = await sdk.tenants.invitations.create({ email, ...(role ? { role } : {}) });
    expect(invitation).toMatchObject({ email, status: 'PENDING', tenantId: tenant.tenantId });
    const session = await signedIn(email, { invitation: await mailbox.invitationLink(email, before) });
    return (await asPerson(session, 'GET', '/console/session')).body.user.member_id;
  }

  beforeAll(async () => {
    await mailbox.open();
    tenant = await createTenant('members-sdk');
    sdk = nodeSdk(tenant.managementKey);
  });
  afterAll(() => mailbox.close());

  it('node-sdk: invitations create, list, get, resend and delete; dates parsed', async () => {
    const email = unique('sdk-invite');
    const created = await sdk.tenants.invitations.create({ email, role: 'READ_ONLY' });
    expect(created).toMatchObject({ email, role: 'READ_ONLY', status: 'PENDING' });
    expect(created.expiresAt).toBeInstanceOf(Date);
    expect(created.createdAt).toBeInstanceOf(Date);
    const page = await sdk.tenants.invitations.list();
    expect(page.data.map((i) => i.id)).toContain(created.id);
    expect((await sdk.tenants.invitations.get(created.id as string)).email).toBe(email);
    const resent = await sdk.tenants.invitations.resend(created.id as string);
    expect((resent.expiresAt as Date).getTime()).toBeGreaterThanOrEqual((created.expiresAt as Date).getTime());
    await sdk.tenants.invitations.delete(created.id as string);
    await expect(sdk.tenants.invitations.get(created.id as string)).rejects.toBeInstanceOf(BasisTheory.NotFoundError);
    await expect(sdk.tenants.invitations.create({ email: 'nope' })).rejects.toBeInstanceOf(BasisTheory.BadRequestError);
  });

  it('node-sdk: members list, update and delete; owner get and ownerTransfer; roles.list', async () => {
    const ownerId = await join(unique('sdk-owner'));
    const otherId = await join(unique('sdk-member'), 'ADMIN');
    const members = await sdk.tenants.members.list();
    expect(members.data?.map((m) => [m.id, m.role])).toEqual(
      expect.arrayContaining([
        [ownerId, 'OWNER'],
        [otherId, 'ADMIN'],
      ]),
    );
    expect(members.data?.[0].user?.email).toEqual(expect.stringContaining('@example.test'));
    expect((await sdk.tenants.owner.get()).id).toBe(ownerId);
    const updated = await sdk.tenants.members.update(otherId, { role: 'READ_ONLY' });
    expect(updated).toMatchObject({ id: otherId, role: 'READ_ONLY' });
    const transferred = await sdk.tenants.ownerTransfer({ memberId: otherId });
    expect(transferred).toMatchObject({ id: otherId, role: 'OWNER' });
    // the SDK has no class of its own for a 409 here: its generic error with the status
    await expect(sdk.tenants.members.delete(otherId)).rejects.toMatchObject({ statusCode: 409 });
    await sdk.tenants.ownerTransfer({ memberId: ownerId });
    await sdk.tenants.members.delete(otherId);
    expect((await sdk.tenants.members.list()).data?.map((m) => m.id)).not.toContain(otherId);
    const roles = await sdk.roles.list();
    expect(roles.map((r) => r.name)).toEqual(['OWNER', 'ADMIN', 'DEVELOPER', 'READ_ONLY']);
  });

  it('basis-theory-js: createInvitation, listInvitations, retrieveInvitation, resendInvitation, deleteInvitation, listMembers, deleteMember', async () => {
    const bt = await btJs(tenant.managementKey);
    const email = unique('btjs');
    const created = await bt.tenants.createInvitation({ email });
    expect(created).toMatchObject({ email, role: 'ADMIN', status: 'PENDING' });
    expect((await bt.tenants.listInvitations()).data.map((i) => i.id)).toContain(created.id);
    expect((await bt.tenants.retrieveInvitation(created.id)).email).toBe(email);
    expect((await bt.tenants.resendInvitation(created.id)).id).toBe(created.id);
    await bt.tenants.deleteInvitation(created.id);
    const memberId = await join(unique('btjs-member'), 'DEVELOPER');
    const listed = await bt.tenants.listMembers();
    expect(listed.data.map((m) => m.id)).toContain(memberId);
    await bt.tenants.deleteMember(memberId);
    expect((await bt.tenants.listMembers()).data.map((m) => m.id)).not.toContain(memberId);
  });
});
