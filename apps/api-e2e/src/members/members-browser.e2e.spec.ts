/// <reference lib="dom" />
/**
 * People in a real browser (Debian's Chromium): an invitation link opened, single sign-on through the suite's OpenID
 * provider, the console acting as the member with their role, the Members page, and a read-only person's console.
 */
import type { Page } from 'playwright-core';
import { api, consoleUrl, createTenant, type TestTenant } from '@coffer/testing';
import { axeViolations, launchBrowser } from '../console/browser';
import { Mailbox } from './mailbox';
import { addAccount } from './sso';

jest.setTimeout(120_000);

const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@example.test`;

/** The provider's next login (the page it shows lists accounts; this picks one without a form). */
async function nextLogin(login: string): Promise<void> {
  const res = await fetch(`${process.env['COFFER_E2E_OIDC_CONTROL']}/next-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login }),
  });
  expect(res.status).toBe(200);
}

describe('people in the console, in Chromium', () => {
  const mailbox = new Mailbox();
  let tenant: TestTenant;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  /** Invites `email` with the management key; the link the mail carries. */
  async function invite(email: string, role: string): Promise<string> {
    const before = mailbox.mails.length;
    expect((await api('POST', '/tenants/self/invitations', { key: tenant.managementKey, body: { email, role } })).status).toBe(201);
    return `${consoleUrl()}/console/oidc/start?invitation=${await mailbox.invitationLink(email, before)}`;
  }

  beforeAll(async () => {
    await mailbox.open();
    tenant = await createTenant('members-browser');
    browser = await launchBrowser();
    browser.context.setDefaultTimeout(60_000);
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await mailbox.close();
  });

  it('an invitation link signs the first person in through single sign-on: they own the tenant and see it in the top bar', async () => {
    const email = unique('owner');
    const person = await addAccount({ email, given_name: 'Olive', family_name: 'Owner' });
    const link = await invite(email, 'ADMIN');
    await nextLogin(person.sub);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByText(`${email} · OWNER`).waitFor();
    const session = (await browser.context.cookies()).find((c) => c.name === 'coffer_console');
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict' });
    // the sign-in's transaction cookie is gone once used
    expect((await browser.context.cookies()).find((c) => c.name === 'coffer_oidc')).toBeUndefined();
  });

  it('the Members page: the owner, an invitation sent from the form, accessible', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Members', exact: true }).click();
    await page.getByRole('heading', { name: 'Members' }).waitFor();
    await page.getByRole('cell', { name: 'OWNER' }).first().waitFor();
    const email = unique('invited');
    const form = page.getByRole('form', { name: 'Invite a person' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Role').selectOption('READ_ONLY');
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Invitation sent to ${email}` })
      .waitFor();
    await page.getByRole('cell', { name: email, exact: true }).waitFor();
    expect(await mailbox.invitationLink(email)).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("a read-only person's console: no invite form, no role controls, no write buttons; the API refuses a write", async () => {
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in with Test IdP' }).waitFor();
    const email = unique('reader');
    const person = await addAccount({ email });
    const link = await invite(email, 'READ_ONLY');
    await nextLogin(person.sub);
    await page.goto(link);
    await page.getByText(`${email} · READ_ONLY`).waitFor();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Members', exact: true }).click();
    await page.getByRole('heading', { name: 'Members' }).waitFor();
    await page.getByRole('cell', { name: `${email} (you)`, exact: true }).waitFor();
    expect(await page.getByRole('form', { name: 'Invite a person' }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: /^Role of/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Applications', exact: true }).click();
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    expect(await page.getByRole('link', { name: 'New application' }).count()).toBe(0);
    // what the page hides, the API refuses
    const status = await page.evaluate(async () => {
      const csrf =
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('coffer_console_csrf='))
          ?.split('=')[1] ?? '';
      const res = await fetch('/applications', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-coffer-csrf': csrf },
        body: JSON.stringify({ name: 'sneaky', type: 'private', permissions: ['token:read'] }),
      });
      return res.status;
    });
    expect(status).toBe(403);
  });

  it('a refused sign-in comes back to the sign-in page with the reason', async () => {
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    const stranger = await addAccount({ email: unique('stranger') });
    await nextLogin(stranger.sub);
    await page.getByRole('button', { name: 'Sign in with Test IdP' }).click();
    await page.getByRole('alert').filter({ hasText: 'not a member of any tenant' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
  });
});
