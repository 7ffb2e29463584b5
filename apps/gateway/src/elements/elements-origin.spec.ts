import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import type { Principal, TenantSettings } from '@coffer/contracts';
import { createLogger } from '@coffer/observability';
import { FrameAncestors, TooManyLookups } from './frame-ancestors';
import { ELEMENTS_PREFIX, elementsDir, listenForElements, redirectElementsToTheirOrigin, type ElementsListener } from './elements-origin';

const TIMEOUTS = {
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  bodyMinBytesPerSecond: 16_384,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 5_000,
  connectionsCheckIntervalMs: 1_000,
};

const TENANT_KEY = 'a'.repeat(64);
const OPEN_KEY = 'b'.repeat(64);

/** A built Elements folder as the elements project writes it. */
function builtElements(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-elements-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  write('elements.js', 'window.CofferElements={};');
  write('assets/frame.0123abcd.js', 'frame();');
  write('frames/card.html', '<meta name="coffer-api-url" content="%COFFER_API_URL%"><script src="../assets/frame.0123abcd.js"></script>');
  write('demo/index.html', '<script src="demo.js"></script>');
  write('demo/demo.js', 'demo();');
  write('sri.json', '{}');
  return dir;
}

describe('the Elements origin', () => {
  const lookups: string[] = [];
  const ancestors = new FrameAncestors({
    principalOf: async (keyHash) => {
      lookups.push(keyHash);
      return keyHash === TENANT_KEY || keyHash === OPEN_KEY
        ? ({ tenantId: keyHash === TENANT_KEY ? 't1' : 't2', applicationId: 'a', applicationType: 'public', permissions: [] } as unknown as Principal)
        : null;
    },
    settingsOf: async (principal) =>
      ({
        deduplicate_tokens: false,
        ...(principal.tenantId === 't1' ? { elements_allowed_origins: ['https://shop.example.com', 'http://localhost:3000'] } : {}),
      }) as TenantSettings,
  });
  let dir: string;
  let withDemo: ElementsListener;
  let withoutDemo: ElementsListener;
  const logger = createLogger('gateway-test');

  beforeAll(async () => {
    dir = builtElements();
    const config = { port: 0, url: 'http://localhost:0', apiUrl: 'https://api.example.com' };
    withDemo = await listenForElements({ ...config, demo: true }, dir, ancestors, TIMEOUTS, logger);
    withoutDemo = await listenForElements({ ...config, demo: false }, dir, ancestors, TIMEOUTS, logger);
  });
  afterAll(async () => {
    await withDemo.close();
    await withoutDemo.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finds the built files beside the bundle or where ELEMENTS_DIR says', () => {
    expect(elementsDir(dir)).toBe(dir);
    expect(elementsDir(undefined, path.join(dir, 'nowhere'))).toBeUndefined();
  });

  it('serves a frame page with the API origin filled in and a CSP that lets it call that origin only', async () => {
    const res = await withDemo.server.inject({ url: `${ELEMENTS_PREFIX}frames/card.html` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('content="https://api.example.com"');
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain('connect-src https://api.example.com');
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain('frame-ancestors *');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it("lets only the tenant's allowed origins frame the fields of its key; any page for a tenant without a list", async () => {
    const listed = await withDemo.server.inject({ url: `${ELEMENTS_PREFIX}frames/card.html?k=${TENANT_KEY}` });
    expect(listed.headers['content-security-policy']).toContain('frame-ancestors https://shop.example.com http://localhost:3000');
    const open = await withDemo.server.inject({ url: `${ELEMENTS_PREFIX}frames/card.html?k=${OPEN_KEY}` });
    expect(open.headers['content-security-policy']).toContain('frame-ancestors *');
    // looked up once per key for a few seconds, not per frame
    await withDemo.server.inject({ url: `${ELEMENTS_PREFIX}frames/card.html?k=${TENANT_KEY}` });
    expect(lookups.filter((k) => k === TENANT_KEY)).toHaveLength(1);
  });

  it('refuses a key hash that is not one (400 problem), and names no frame it does not have (404)', async () => {
    const bad = await withDemo.server.inject({ url: `${ELEMENTS_PREFIX}frames/card.html?k=not-a-hash` });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    expect(bad.json()).toMatchObject({ status: 400 });
    const missing = await withDemo.server.inject({ url: `${ELEMENTS_PREFIX}frames/nothing.html` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ status: 404 });
  });

  it('serves scripts to any page (CORS and CORP for Subresource Integrity), hashed ones for good', async () => {
    const loader = await withDemo.server.inject({ url: `${ELEMENTS_PREFIX}elements.js` });
    expect(loader.statusCode).toBe(200);
    expect(loader.headers['access-control-allow-origin']).toBe('*');
    expect(loader.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(loader.headers['cache-control']).toBe('public, max-age=300');
    const asset = await withDemo.server.inject({ url: `${ELEMENTS_PREFIX}assets/frame.0123abcd.js` });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves nothing else: no API route, no page outside the frames, no listing, no dotfile', async () => {
    for (const url of [
      '/',
      '/tokens',
      '/console/',
      '/proxy',
      '/docs',
      `${ELEMENTS_PREFIX}`,
      `${ELEMENTS_PREFIX}frames/`,
      `${ELEMENTS_PREFIX}../package.json`,
    ]) {
      const res = await withDemo.server.inject({ url });
      expect([url, res.statusCode]).toEqual([url, 404]);
    }
  });

  it('serves the demo only when it is turned on, framed by nobody', async () => {
    const on = await withDemo.server.inject({ url: `${ELEMENTS_PREFIX}demo/` });
    expect(on.statusCode).toBe(200);
    expect(on.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect((await withDemo.server.inject({ url: `${ELEMENTS_PREFIX}demo/demo.js` })).statusCode).toBe(200);
    expect((await withoutDemo.server.inject({ url: `${ELEMENTS_PREFIX}demo/` })).statusCode).toBe(404);
    expect((await withoutDemo.server.inject({ url: `${ELEMENTS_PREFIX}demo/demo.js` })).statusCode).toBe(404);
  });

  it("the API's origin sends /elements to the Elements origin, keeping the rest of the address", async () => {
    const api = Fastify();
    redirectElementsToTheirOrigin(api, 'https://elements.example.com');
    api.get('/elementsx', async () => 'not ours');
    const res = await api.inject({ url: '/elements/v1/elements.js?v=1' });
    expect(res.statusCode).toBe(307);
    expect(res.headers.location).toBe('https://elements.example.com/elements/v1/elements.js?v=1');
    expect((await api.inject({ url: '/elements' })).statusCode).toBe(307);
    expect((await api.inject({ url: '/elementsx' })).body).toBe('not ours');
    await api.close();
  });
});

/**
 * Frame policies of two tenants (TENANT_KEY is t1's, OPEN_KEY t2's), with their origin lists as session-service holds
 * them; `hold` keeps each settings lookup from answering (it has read the list already) until it resolves.
 */
function twoTenants(t1Origins: string[]) {
  const origins = new Map<string, string[]>([
    ['t1', t1Origins],
    ['t2', ['https://other.example.com']],
  ]);
  const t = { origins, asked: 0, hold: undefined as Promise<void> | undefined, ancestors: undefined as unknown as FrameAncestors };
  t.ancestors = new FrameAncestors({
    principalOf: async (keyHash) => ({ tenantId: keyHash === TENANT_KEY ? 't1' : 't2' }) as unknown as Principal,
    settingsOf: async (principal) => {
      t.asked++;
      const settings = { deduplicate_tokens: false, elements_allowed_origins: origins.get(principal.tenantId) };
      await t.hold;
      return settings;
    },
  });
  return t;
}

describe('the frame policy lookups', () => {
  it('ask once per key for frames asked together, and refuse (503, not queue) past the cap of lookups under way', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let asked = 0;
    const ancestors = new FrameAncestors(
      {
        principalOf: async () => {
          asked++;
          await held;
          return null;
        },
        settingsOf: async () => ({ deduplicate_tokens: false }),
      },
      2,
    );
    const a = ancestors.of(TENANT_KEY, 't');
    const again = ancestors.of(TENANT_KEY, 't');
    const b = ancestors.of(OPEN_KEY, 't');
    await expect(ancestors.of('c'.repeat(64), 't')).rejects.toBeInstanceOf(TooManyLookups);
    release();
    expect(await Promise.all([a, again, b])).toEqual(['*', '*', '*']);
    expect(asked).toBe(2);
    // the cap counts lookups under way only
    expect(await ancestors.of('c'.repeat(64), 't')).toBe('*');
  });

  it('count the lookups a settings change detached against the cap until they end (changes cannot make more run)', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let asked = 0;
    const ancestors = new FrameAncestors(
      {
        principalOf: async () => {
          asked++;
          await held;
          return null; // made-up hashes: no tenant, so any tenant's change detaches their lookups
        },
        settingsOf: async () => ({ deduplicate_tokens: false }),
      },
      2,
    );
    const a = ancestors.of('a'.repeat(64), 't');
    const b = ancestors.of('b'.repeat(64), 't');
    ancestors.forgetTenant('some-tenant');
    await expect(ancestors.of('c'.repeat(64), 't')).rejects.toBeInstanceOf(TooManyLookups);
    await expect(ancestors.of('a'.repeat(64), 't')).rejects.toBeInstanceOf(TooManyLookups);
    expect(asked).toBe(2);
    release();
    expect(await Promise.all([a, b])).toEqual(['*', '*']);
    expect(await ancestors.of('c'.repeat(64), 't')).toBe('*');
  });

  it("look a tenant's keys up again when its settings change (no other tenant's), and keep no lookup a change overtook", async () => {
    const t = twoTenants(['https://shop.example.com']);
    const { origins, ancestors } = t;
    expect(await ancestors.of(TENANT_KEY, 't')).toBe('https://shop.example.com');
    expect(await ancestors.of(OPEN_KEY, 't')).toBe('https://other.example.com');
    origins.set('t1', ['https://shop.example.com', 'https://checkout.example.com']);
    ancestors.forgetTenant('t1');
    expect(await ancestors.of(TENANT_KEY, 't')).toBe('https://shop.example.com https://checkout.example.com');
    expect(await ancestors.of(OPEN_KEY, 't')).toBe('https://other.example.com');
    expect(t.asked).toBe(3);
    // a lookup that read the settings before a change and answers after it serves its caller but is not kept
    let release: () => void = () => undefined;
    t.hold = new Promise<void>((r) => (release = r));
    ancestors.forgetTenant('t1');
    const overtaken = ancestors.of(TENANT_KEY, 't');
    await new Promise((r) => setImmediate(r));
    origins.set('t1', []);
    ancestors.forgetTenant('t1');
    release();
    expect(await overtaken).toBe('https://shop.example.com https://checkout.example.com');
    t.hold = undefined;
    expect(await ancestors.of(TENANT_KEY, 't')).toBe('*');
    expect(t.asked).toBe(5);
  });

  it('never gives a frame asked for after a change the policy a lookup from before it read (a narrowed list applies at once)', async () => {
    const t = twoTenants(['https://shop.example.com', 'https://old-partner.example.com']);
    const { origins, ancestors } = t;
    let release: () => void = () => undefined;
    t.hold = new Promise<void>((r) => (release = r));
    const before = ancestors.of(TENANT_KEY, 't'); // reads the list before the change, answers after it
    const other = ancestors.of(OPEN_KEY, 't');
    await new Promise((r) => setImmediate(r));
    origins.set('t1', ['https://shop.example.com']);
    ancestors.forgetTenant('t1');
    t.hold = undefined;
    expect(await ancestors.of(TENANT_KEY, 't')).toBe('https://shop.example.com');
    release();
    expect(await before).toBe('https://shop.example.com https://old-partner.example.com');
    expect(await other).toBe('https://other.example.com');
    // what the old lookup read was not kept; t2's lookup was (t1's change cost it nothing)
    expect(await ancestors.of(TENANT_KEY, 't')).toBe('https://shop.example.com');
    expect(await ancestors.of(OPEN_KEY, 't')).toBe('https://other.example.com');
    expect(t.asked).toBe(3);
  });
});
