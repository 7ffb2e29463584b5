/// <reference lib="dom" />
// (functions passed to page.evaluate run in the browser)
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { apiRaw, consoleUrl, createTenant, VISA, type TestTenant } from '@coffer/testing';
import { axeViolations, launchBrowser } from './browser';
import { Receiver } from '../events/support';
import { adminJson, database } from '../keys/support';

/**
 * The console in a real browser (Debian's Chromium through playwright-core) against the running system. Screenshots
 * of every page go to tmp/console-screenshots, and into docs/console when UPDATE_CONSOLE_SCREENSHOTS=1.
 */
const SHOTS = process.env['UPDATE_CONSOLE_SCREENSHOTS'] === '1' ? path.resolve(__dirname, '../../../../docs/console') : path.resolve('tmp/console-screenshots');

const FORMULA_CODE = `const { BadRequestError } = require('@coffer/reactor-runtime');
module.exports = async function (req) {
  if (!req.args.name) throw new BadRequestError('name is required');
  console.log('greeting ' + req.args.name);
  return { raw: { greeting: 'hello ' + req.args.name, answer: req.configuration.answer } };
};`;

jest.setTimeout(120_000);

describe('the web console in Chromium', () => {
  let tenant: TestTenant;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let context: BrowserContext;
  let page: Page;
  const cspViolations: string[] = [];
  const pageErrors: string[] = [];

  const shot = async (name: string) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  };
  const expectAccessible = async (where: string) => {
    expect({ where, violations: await axeViolations(page) }).toEqual({ where, violations: [] });
  };
  /** The key form: with single sign-on configured (as in this suite) it is the break-glass path, folded under the SSO button. */
  const keyForm = async () => {
    const fold = page.getByText('Sign in with a management key instead');
    await fold.waitFor();
    if (!(await page.getByLabel('Management key').isVisible())) await fold.click();
    await page.getByLabel('Management key').waitFor();
  };
  const nav = async (label: string) => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: label, exact: true }).click();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
  };

  beforeAll(async () => {
    tenant = await createTenant('console-browser');
    browser = await launchBrowser();
    context = browser.context;
    context.setDefaultTimeout(60_000);
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    page.on('pageerror', (err) => pageErrors.push(err.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('opens and signs in with a management key; no page script can read the session or the key', async () => {
    const started = Date.now();
    await page.goto(`${consoleUrl()}/console/`);
    const button = page.getByRole('button', { name: 'Sign in', exact: true });
    await page.getByRole('button', { name: 'Sign in with Test IdP' }).waitFor();
    const interactiveMs = Date.now() - started;
    const timing = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { domInteractive: Math.round(nav.domInteractive), domContentLoaded: Math.round(nav.domContentLoadedEventEnd), load: Math.round(nav.loadEventEnd) };
    });
    // printed for the record; the < 1 s target is judged by tools/bench/console.mjs over many samples, not one
    process.stdout.write(`console first page: sign-in form usable after ${interactiveMs} ms (navigation timing ${JSON.stringify(timing)})\n`);
    await expectAccessible('sign-in');
    await shot('sign-in');

    await keyForm();
    await page.getByLabel('Management key').fill('key_wrong');
    await button.click();
    await page.getByRole('alert').filter({ hasText: '(401)' }).waitFor();

    await page.getByLabel('Management key').fill(tenant.managementKey);
    await button.click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'coffer_console');
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
    const visible = await page.evaluate(() => ({ cookie: document.cookie, local: JSON.stringify(localStorage), session: JSON.stringify(sessionStorage) }));
    expect(visible.cookie).not.toContain('coffer_console=');
    expect(JSON.stringify(visible)).not.toContain(tenant.managementKey);
    expect(await page.getByLabel('Management key').count()).toBe(0);
  });

  it('overview: counts and recent activity, accessible, at 1280 px and on a phone', async () => {
    await page.getByRole('list', { name: 'Counts' }).waitFor();
    await page.getByRole('heading', { name: 'Recent activity' }).waitFor();
    await expectAccessible('overview');
    await shot('overview');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Logs' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible('overview on a phone');
    await shot('overview-phone');
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  let applicationId = '';
  it('applications: create one with rules, see the access preview change with them', async () => {
    await nav('Applications');
    await page.getByRole('link', { name: 'New application' }).click();
    await page.getByLabel('Name', { exact: true }).fill('checkout backend');
    await page.getByLabel('Type').selectOption('private');
    await page.getByLabel('Rules by container').check();
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('button', { name: 'Add rule' }).click();
    const rules = page.locator('li.rule');
    await rules.nth(0).getByLabel('Container prefix').fill('/pci/');
    await rules.nth(0).getByLabel('Transform').selectOption('mask');
    await rules.nth(1).getByLabel('Container prefix').fill('/');
    await rules.nth(1).getByLabel('Transform').selectOption('reveal');
    await rules.nth(1).getByRole('checkbox', { name: 'token:use' }).check();
    await expectAccessible('new application');
    await shot('application-new');
    await page.getByRole('button', { name: 'Create application' }).click();
    const secret = await page.getByLabel('New key').inputValue();
    expect(secret.length).toBeGreaterThan(20);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'checkout backend' }).waitFor();
    applicationId = decodeURIComponent(new URL(page.url()).hash.split('/')[2]);
    const app = await apiRaw('GET', `/applications/${applicationId}`, { key: tenant.managementKey });
    expect(app.body.rules).toEqual([
      expect.objectContaining({ priority: 1, container: '/pci/', transform: 'mask', permissions: ['token:read'] }),
      expect.objectContaining({ priority: 2, container: '/', transform: 'reveal', permissions: ['token:read', 'token:use'] }),
    ]);

    await page.getByLabel('Token container').fill('/pci/high/');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByTestId('decision-token:read').getByText('allowed (mask)').waitFor();
    await page.getByTestId('decision-token:use').getByText('denied').waitFor();
    await page.getByLabel('Token container').fill('/general/');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByTestId('decision-token:use').getByText('allowed (reveal)').waitFor();

    // give rule 1 token:use with reveal: the preview for /pci/ changes with the saved rules
    const rule1 = page.locator('li.rule').nth(0);
    await rule1.getByLabel('Transform').selectOption('reveal');
    await rule1.getByRole('checkbox', { name: 'token:use' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByLabel('Token container').fill('/pci/high/');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByTestId('decision-token:use').getByText('allowed (reveal)').waitFor();
    await page.getByTestId('decision-token:read').getByText('allowed (reveal)').waitFor();
    await expectAccessible('application');
    await shot('application');
  });

  it('keys: create one (shown once), list, revoke it (the API refuses it at once)', async () => {
    const keys = page.locator('ul.keys > li');
    await keys.first().waitFor();
    const before = await keys.count();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByLabel('New key').inputValue();
    expect((await apiRaw('GET', '/applications/key', { key: secret })).status).toBe(200);
    await page.waitForFunction((n) => document.querySelectorAll('ul.keys > li').length === n, before + 1);
    page.once('dialog', (d) => void d.accept());
    const listed = await apiRaw('GET', `/applications/${applicationId}/keys`, { key: tenant.managementKey });
    const newest = (listed.body as { id: string; created_at: string }[]).sort((a, b) => b.created_at.localeCompare(a.created_at))[0];
    await page.getByRole('button', { name: `Revoke key ${newest.id}` }).click();
    await page.waitForFunction((n) => document.querySelectorAll('ul.keys > li').length === n, before);
    const deadline = Date.now() + 10_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await apiRaw('GET', '/applications/key', { key: secret })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(401);
  });

  const formulaName = 'greeter';
  it('formulas: write one in the code editor', async () => {
    await nav('Formulas');
    // (the list may hold the official formulas an operator imported for every tenant: no empty state to wait for)
    await page.getByRole('link', { name: 'New formula' }).waitFor();
    await page.getByRole('link', { name: 'New formula' }).click();
    await page.getByLabel('Name', { exact: true }).fill(formulaName);
    await page.getByLabel('Description', { exact: true }).fill('says hello');
    const editor = page.locator('.cm-content');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(FORMULA_CODE);
    await page.getByLabel(/Configuration \(JSON/).fill(JSON.stringify([{ name: 'answer', type: 'string' }]));
    await page.getByLabel(/Request parameters/).fill(JSON.stringify([{ name: 'name', type: 'string', optional: false }]));
    await expectAccessible('new formula');
    await page.getByRole('button', { name: 'Create formula' }).click();
    await page.getByRole('heading', { name: formulaName }).waitFor();
    await page.locator('.cm-content').getByText("hello '").waitFor();
    await shot('formula');
    const list = await apiRaw('GET', '/reactor-formulas', { key: tenant.managementKey });
    expect(list.body.data.find((f: { name: string }) => f.name === formulaName)?.code).toBe(FORMULA_CODE);
  });

  it('reactors: create one from the formula, run it with a private key and arguments, see the result and errors', async () => {
    await nav('Reactors');
    await page.getByRole('link', { name: 'New reactor' }).click();
    await page.getByLabel('Name', { exact: true }).fill('greeter reactor');
    await page.getByLabel('Formula', { exact: true }).selectOption({ label: formulaName });
    await page.getByLabel(/Configuration \(JSON object/).fill('{"answer":"42"}');
    await page.getByRole('button', { name: 'Create reactor' }).click();
    await page.getByRole('heading', { name: 'greeter reactor' }).waitFor();
    // a management key may not invoke (token:use belongs to private keys): the run shows the API's 403 problem
    await page.getByLabel(/Arguments/).fill('{"name":"operator"}');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /\(403\)/ })
      .waitFor();
    // with a private application's key typed for the run: the formula's result (and the console session stays)
    const runner = await tenant.app('private', { permissions: ['token:use'] });
    await page.getByLabel(/Run with the key of a private application/).fill(runner.key);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const result = page.getByLabel('Reactor result');
    await result.waitFor();
    expect(JSON.parse(await result.innerText())).toMatchObject({ raw: { greeting: 'hello operator', answer: '42' } });
    // the formula's console output of the run (capture_logs)
    expect(await page.getByLabel('Logs').innerText()).toBe('[log] greeting operator');
    await expectAccessible('reactor');
    await shot('reactor');
    await page.getByLabel(/Arguments/).fill('{"name": ');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('alert').getByText('Arguments must be JSON').waitFor();
    // a missing required argument (the formula's request parameters), as a problem document
    await page.getByLabel(/Arguments/).fill('{}');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /\(400\)/ })
      .waitFor();
    // a wrong run key is the run's 401, not the end of the console session
    await page.getByLabel(/Run with the key of a private application/).fill('key_not_a_key');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /\(401\)/ })
      .waitFor();
    await page.getByRole('heading', { name: 'greeter reactor' }).waitFor();
  });

  it('logs: filter by entity type, export CSV', async () => {
    await nav('Logs');
    await page.locator('tbody tr').first().waitFor();
    await page.getByLabel('Entity type').selectOption('reactor');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('tbody tr td:nth-child(3)')].every((td) => td.textContent?.startsWith('reactor ')));
    expect(await page.locator('tbody tr').count()).toBeGreaterThan(0);
    await expectAccessible('logs');
    await shot('logs');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = fs.readFileSync(await download.path(), 'utf8');
    expect(csv.split('\r\n')[0]).toBe('created_at,operation,entity_type,entity_id,message,actor_type,actor_id,actor_name,actor_application_id,trace_id,id');
    expect(
      csv
        .split('\r\n')
        .filter(Boolean)
        .slice(1)
        .every((line) => line.split(',')[2] === 'reactor'),
    ).toBe(true);
  });

  it('settings: tenant name and the webhook secret (hidden until asked); dark theme', async () => {
    await nav('Settings');
    await page.getByRole('button', { name: 'Show secret' }).click();
    expect(await page.getByLabel('Webhook secret').inputValue()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Hide' }).click();
    await expectAccessible('settings');
    await shot('settings');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.getByLabel('Theme').first().selectOption('light');
    expect(await background()).toBe('rgb(246, 247, 249)');
    await page.getByLabel('Theme').first().selectOption('dark');
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    // the toggle's scheme reaches the colours (styles.css: each one light-dark(light, dark))
    expect(await background()).toBe('rgb(15, 20, 25)');
    await expectAccessible('settings, dark');
    await shot('settings-dark');
    await page.getByLabel('Theme').first().selectOption('system');
  });

  it('keys: the data key versions with the active one marked; a re-encryption shown with a progress bar per kind', async () => {
    await nav('Keys');
    const table = page.getByRole('table', { name: 'Data key versions' });
    await table.waitFor();
    const first = (await apiRaw('GET', '/tenants/self/keys', { key: tenant.managementKey })).body.data as Array<{ id: string; active: boolean }>;
    expect(first).toHaveLength(1);
    const active = table.locator('tr[aria-current="true"]');
    expect(await active.innerText()).toContain(first[0].id);
    expect(await active.getByText('active', { exact: true }).count()).toBe(1);
    await expectAccessible('keys');

    // after a rotation, with a re-encryption job standing at a known point (its persisted rows, written directly)
    const rotated = await adminJson<{ rotated: Array<{ key_id: string }> }>('keys', 'rotate', '--tenant', tenant.tenantId);
    const keyId = rotated.rotated[0].key_id;
    const db = await database();
    const jobId = randomUUID();
    try {
      await db.query(`INSERT INTO key_jobs (id, kind, tenant_id, created_by) VALUES ($1, 'reencrypt', $2, 'e2e')`, [jobId, tenant.tenantId]);
      await db.query(
        `INSERT INTO reencryption_progress (job_id, tenant_id, kind, target_key_id, rows_total, rows_done) VALUES
         ($1, $2, 'tokens', $3, 1200, 450), ($1, $2, 'reactor_configurations', $3, 3, 3), ($1, $2, 'webhook_bodies', $3, 40, 12)`,
        [jobId, tenant.tenantId, keyId],
      );
      await page.getByRole('button', { name: 'Refresh' }).click();
      const tokens = page.getByRole('progressbar', { name: 'Tokens' });
      await tokens.waitFor();
      expect(await tokens.getAttribute('value')).toBe('450');
      expect(await active.innerText()).toContain(keyId);
      expect(await table.locator('tbody tr').count()).toBe(2);
      await expectAccessible('keys, re-encrypting');
      await shot('keys');
      await page.setViewportSize({ width: 375, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await page.setViewportSize({ width: 1280, height: 860 });
      // the page polls while the job runs: it sees the job end by itself
      await db.query(`UPDATE key_jobs SET state = 'done', finished_at = now() WHERE id = $1`, [jobId]);
      await page.getByRole('status').filter({ hasText: 'The re-encryption finished' }).waitFor({ timeout: 15_000 });
      expect(await page.getByRole('progressbar').count()).toBe(0);
    } finally {
      await db.query('DELETE FROM reencryption_progress WHERE job_id = $1', [jobId]);
      await db.query('DELETE FROM key_jobs WHERE id = $1', [jobId]);
      await db.end();
    }
  });

  it('webhooks: subscribe a receiver to an event, see the delivery, send it again', async () => {
    const receiver = await new Receiver().start();
    try {
      await nav('Webhooks');
      await page.getByRole('link', { name: 'New webhook' }).click();
      await page.getByLabel('Name', { exact: true }).fill('console hook');
      await page.getByLabel(/Receiver URL/).fill(receiver.url);
      await page.getByRole('checkbox', { name: 'application.created' }).check();
      await expectAccessible('new webhook');
      await page.getByRole('button', { name: 'Create webhook' }).click();
      await page.getByRole('heading', { name: 'console hook' }).waitFor();
      const webhookId = decodeURIComponent(new URL(page.url()).hash.split('/')[2]);
      await tenant.app('private', { permissions: ['token:read'] });
      await receiver.waitForEvent('application.created');
      let delivered: Array<{ id: string }> = [];
      for (let i = 0; i < 50 && !delivered.length; i++) {
        delivered = (await apiRaw('GET', `/webhooks/${webhookId}/deliveries?status=delivered`, { key: tenant.managementKey })).body.data ?? [];
        if (!delivered.length) await new Promise((r) => setTimeout(r, 200));
      }
      expect(delivered.length).toBe(1);
      await page.getByLabel('Status').selectOption('delivered');
      const row = page.locator('tbody tr', { hasText: 'application.created' });
      await row.waitFor();
      expect(await row.innerText()).toContain('delivered');
      // the latest attempt's answer: the receiver's status and how long it took
      expect(await row.innerText()).toMatch(/\b2\d\d in \d+ ms/);
      await expectAccessible('webhook');
      await shot('webhook');
      await row.getByRole('button', { name: `Send again: delivery ${delivered[0].id}` }).click();
      await page.getByRole('status').filter({ hasText: 'queued again' }).waitFor();
      await receiver.waitForEvent('application.created', () => receiver.received.length >= 2);
    } finally {
      await receiver.stop();
    }
  });

  it('proxies: create one (its key shown once), a 400 shown by field, listed, key masked until revealed, edited, deleted', async () => {
    await nav('Proxies');
    await page.getByText(/No proxies yet/).waitFor();
    await expectAccessible('proxies, empty');
    await page.getByRole('link', { name: 'New proxy' }).click();
    await page.getByLabel('Name', { exact: true }).fill('card processor');
    const destination = page.getByLabel(/^Destination URL/);
    await destination.fill('http://x');
    await page.getByLabel('Configuration name 1').fill('API_KEY');
    await page.getByLabel('Configuration value 1').fill('sk_test_console');
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.getByLabel('Configuration name 2').fill('MERCHANT');
    await page.getByLabel('Configuration value 2').fill('m-42');
    await page.getByRole('checkbox', { name: /Disable detokenization/ }).check();
    // the transforms are checked as a JSON array before anything is sent
    const transforms = page.getByLabel(/^Request transforms/);
    await transforms.fill('{"type": "append_header"}');
    await page.getByRole('button', { name: 'Create proxy' }).click();
    await page
      .locator('#proxy-request-transforms-errors')
      .getByText(/must be a JSON array/)
      .waitFor();
    expect(await transforms.getAttribute('aria-invalid')).toBe('true');
    const header = { type: 'append_header', options: { location: 'Authorization', value: 'Bearer {{ configuration.API_KEY }}' } };
    await transforms.fill(JSON.stringify([header]));
    // the server refuses an http destination: its 400 is shown at the field (and in the form's problem)
    await page.getByRole('button', { name: 'Create proxy' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /\(400\)/ })
      .waitFor();
    await page.locator('#proxy-destination-errors').getByText('must use https').waitFor();
    expect(await destination.getAttribute('aria-invalid')).toBe('true');
    expect(await destination.getAttribute('aria-describedby')).toBe('proxy-destination-errors');
    expect(await page.locator('#proxy-request-transforms-errors').count()).toBe(0);
    await expectAccessible('new proxy, with errors');
    expect((await apiRaw('GET', '/proxies', { key: tenant.managementKey })).body.data).toEqual([]);

    await destination.fill('https://api.processor.example/v1');
    await page.getByRole('button', { name: 'Create proxy' }).click();
    const key = await page.getByLabel('New proxy key').inputValue();
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: consoleUrl() });
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'card processor' }).waitFor();
    const proxyId = decodeURIComponent(new URL(page.url()).hash.split('/')[2]);
    const stored = await apiRaw('GET', `/proxies/${proxyId}`, { key: tenant.managementKey });
    expect(stored.body).toMatchObject({
      key,
      name: 'card processor',
      destination_url: 'https://api.processor.example/v1',
      require_auth: true,
      disable_detokenization: true,
      configuration: { API_KEY: 'sk_test_console', MERCHANT: 'm-42' },
      request_transforms: [header],
      response_transforms: [],
    });

    // the detail: the key masked until revealed
    const shown = page.getByLabel('Proxy key', { exact: true });
    expect(await shown.inputValue()).not.toContain(key.slice(0, 8));
    expect((await shown.inputValue()).endsWith(key.slice(-4))).toBe(true);
    await expectAccessible('proxy');
    await shot('proxies');
    await page.getByRole('button', { name: 'Reveal key' }).click();
    expect(await shown.inputValue()).toBe(key);
    await page.getByRole('button', { name: 'Hide key' }).click();
    expect(await shown.inputValue()).not.toBe(key);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 860 });

    // edit (PUT: everything but the key replaced)
    await page.getByLabel('Name', { exact: true }).fill('card processor v2');
    await page.getByRole('button', { name: 'Remove configuration entry 2' }).click();
    await page.getByRole('button', { name: 'Save proxy' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('heading', { name: 'card processor v2' }).waitFor();
    const updated = await apiRaw('GET', `/proxies/${proxyId}`, { key: tenant.managementKey });
    expect(updated.body).toMatchObject({ key, name: 'card processor v2', configuration: { API_KEY: 'sk_test_console' }, request_transforms: [header] });
    expect(updated.body.configuration.MERCHANT).toBeUndefined();

    // listed
    await page.getByRole('link', { name: 'All proxies' }).click();
    const row = page.locator('tbody tr', { hasText: 'card processor v2' });
    await row.waitFor();
    expect((await row.locator('td').allInnerTexts()).slice(0, 4)).toEqual(['card processor v2', 'https://api.processor.example/v1', 'yes', '1']);
    await expectAccessible('proxies');

    // deleted, after a confirmation
    await row.getByRole('link', { name: 'card processor v2' }).click();
    await page.getByRole('heading', { name: 'card processor v2' }).waitFor();
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByText(/No proxies yet/).waitFor();
    expect((await apiRaw('GET', `/proxies/${proxyId}`, { key: tenant.managementKey })).status).toBe(404);
  });

  it('async results page', async () => {
    await nav('Async results');
    await expectAccessible('async results');
    await shot('results');
  });

  it('signs out: the old cookie is refused by the gateway', async () => {
    const cookies = await context.cookies();
    const header = cookies
      .filter((c) => c.name.startsWith('coffer_console'))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
    const csrf = cookies.find((c) => c.name === 'coffer_console_csrf')?.value ?? '';
    // (on the console's origin: on the API's, the cookie authenticates nothing)
    const onConsole = { origin: 'console' as const, headers: { cookie: header, 'x-coffer-csrf': csrf } };
    expect((await apiRaw('GET', '/tenants/self', onConsole)).status).toBe(200);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in with Test IdP' }).waitFor();
    expect((await apiRaw('GET', '/tenants/self', onConsole)).status).toBe(401);
    await page.reload();
    await page.getByRole('button', { name: 'Sign in with Test IdP' }).waitFor();
  });

  it('tokens explorer: a private key sees exactly what its rules allow, masked on screen until shown', async () => {
    const reader = await tenant.app('private', {
      rules: [
        { priority: 1, container: '/pci/', transform: 'mask', permissions: ['token:read'] },
        { priority: 2, container: '/', transform: 'reveal', permissions: ['token:read'] },
      ],
    });
    const writer = await tenant.app('private', { permissions: ['token:create'] });
    const card = await apiRaw('POST', '/tokens', { key: writer.key, body: { type: 'card_number', data: VISA } });
    expect({ status: card.status, body: card.body }).toMatchObject({ status: 201 });
    await keyForm();
    await page.getByLabel('Management key').fill(reader.key);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // a private key sees no management pages
    const links = await page.getByRole('navigation', { name: 'Console' }).getByRole('link').allInnerTexts();
    expect(links).toEqual(['Overview', 'Tokens']);
    await nav('Tokens');
    const row = page.locator('tbody tr', { hasText: card.body.id });
    await row.waitFor();
    expect(await row.innerText()).not.toContain(VISA.slice(0, 6));
    await row.getByRole('button', { name: /Show data/ }).click();
    const shown = await row.getByLabel(/Data of token/).innerText();
    expect(shown).toContain(VISA.slice(-4));
    expect(shown).not.toContain(VISA);
    await expectAccessible('tokens');
    await shot('tokens');
    // the container filter lists that container's tokens only (GET /v2/tokens?container=)
    const other = await apiRaw('POST', '/tokens', { key: writer.key, body: { type: 'token', data: 'not a card', containers: ['/general/'] } });
    expect(other.status).toBe(201);
    await page.getByLabel('Container').fill('/general/');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.locator('tbody tr', { hasText: other.body.id }).waitFor();
    expect(await page.locator('tbody tr', { hasText: card.body.id }).count()).toBe(0);
  });

  it('loaded no script that broke the Content-Security-Policy, and threw no page error', () => {
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
