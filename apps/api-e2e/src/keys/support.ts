import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { api, type TestTenant } from '@coffer/testing';
import { formulaCode, makeReactor } from '../reactors/support';

const root = path.resolve(__dirname, '../../../..');
const env = () => ({ ...process.env, DATABASE_URL: process.env['COFFER_E2E_DATABASE_URL'], KEY_ENCRYPTION_KEYS: process.env['COFFER_E2E_KEK'] });

/**
 * The built operator CLI, as an operator runs it (`node admin/main.js ...` in an image). Asynchronous on purpose: a
 * blocking spawnSync would stall this process's event loop for the CLI's whole run, and a keep-alive connection the
 * gateway closed meanwhile would then be reused ("other side closed").
 */
export async function admin(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const r = await adminChild(...args).done;
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

/** The CLI's --json result (exit 0 expected). */
export async function adminJson<T = unknown>(...args: string[]): Promise<T> {
  const r = await admin(...args, '--json');
  if (r.status !== 0) throw new Error(`admin ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/** The CLI in the background (to kill it, or to run it under load). */
export function adminChild(...args: string[]): ChildProcess & { done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [path.join(root, 'dist/tools/admin/main.js'), ...args], { env: env() });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return Object.assign(child, { done });
}

export async function database(): Promise<Client> {
  const db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
  await db.connect();
  return db;
}

/** Runs `fn` over `items` with at most `n` at a time. */
export async function inParallel<T, R>(items: T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

export interface SeededTenant {
  key: string;
  tokens: Array<{ id: string; data: string }>;
  reactorId: string;
  jobId: string;
  webhookSecret: string;
  idempotent: { key: string; body: unknown; id: string };
  proxy: { id: string; key: string };
  /** a card token intent (not converted) */
  intent: { id: string; card: unknown };
}

/**
 * A tenant with a value of every sealed kind: `tokens` tokens, a reactor (configuration), an asynchronous job with
 * a callback nobody answers (arguments, outcome, webhook body), its webhook secret, an idempotency reply, a
 * pre-configured proxy (its key and configuration) and a token intent.
 */
export async function seed(tenant: TestTenant, tokens: number): Promise<SeededTenant> {
  const key = (
    await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:update', 'token:use', 'token-intent:create', 'token-intent:read'] })
  ).key;
  const created = await inParallel(
    Array.from({ length: tokens }, (_, i) => `value ${i} ${Math.random().toString(36).slice(2)}`),
    8,
    async (data) => {
      const res = await api('POST', '/tokens', { key, body: { type: 'token', data } });
      if (res.status !== 201) throw new Error(`token: ${res.status} ${res.text}`);
      return { id: res.body.id as string, data };
    },
  );
  const { reactorId } = await makeReactor(
    tenant.managementKey,
    { code: formulaCode('return { raw: { echoed: req.args.value, secret: req.configuration.SECRET } };'), configuration: [{ name: 'SECRET', type: 'string' }] },
    { configuration: { SECRET: 'reactor-secret-value' } },
  );
  const job = await api('POST', `/reactors/${reactorId}/react`, { key, body: { args: { value: 'job argument' }, callback_url: 'http://127.0.0.1:9/hook' } });
  if (job.status !== 202) throw new Error(`job: ${job.status} ${job.text}`);
  for (let i = 0; i < 100; i++) {
    const r = await api('GET', `/reactors/${reactorId}/results/${job.body.id}`, { key });
    if (r.status === 200 && r.body.result) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const secret = await api('GET', '/tenants/self/webhook-secret', { key: tenant.managementKey });
  if (secret.status !== 200) throw new Error(`webhook secret: ${secret.status} ${secret.text}`);
  const idemKey = `idem-${Math.random().toString(36).slice(2)}`;
  const idem = await api('POST', '/tokens', { key, body: { type: 'token', data: 'idempotent' }, headers: { 'SVC-IDEMPOTENCY-KEY': idemKey } });
  const proxy = await api('POST', '/proxies', {
    key: tenant.managementKey,
    body: { name: 'sealed', destination_url: 'https://psp.example.com', configuration: { API_KEY: 'proxy-secret-value' } },
  });
  if (proxy.status !== 201) throw new Error(`proxy: ${proxy.status} ${proxy.text}`);
  const intent = await api('POST', '/token-intents', {
    key,
    body: { type: 'card', data: { number: '4242424242424242', expiration_month: 1, expiration_year: 2040 } },
  });
  if (intent.status !== 201) throw new Error(`intent: ${intent.status} ${intent.text}`);
  return {
    key,
    tokens: created,
    reactorId,
    jobId: job.body.id,
    webhookSecret: secret.body.secret,
    idempotent: { key: idemKey, body: idem.body, id: idem.body.id },
    proxy: { id: proxy.body.id, key: proxy.body.key },
    intent: { id: intent.body.id, card: intent.body.card },
  };
}

/** Everything `seed` wrote still reads back as written (through the API only). */
export async function expectAllReadable(tenant: TestTenant, s: SeededTenant): Promise<void> {
  const reads = await inParallel(s.tokens, 8, async (t) => {
    const res = await api('GET', `/tokens/${t.id}`, { key: s.key });
    return res.status === 200 && res.body.data === t.data;
  });
  expect(reads.filter((ok) => !ok)).toHaveLength(0);
  const result = await api('GET', `/reactors/${s.reactorId}/results/${s.jobId}`, { key: s.key });
  expect(result.body.result).toEqual({ raw: { echoed: 'job argument', secret: 'reactor-secret-value' } });
  const invoke = await api('POST', `/reactors/${s.reactorId}/react`, { key: s.key, body: { args: { value: 'again' } } });
  expect(invoke.body.raw).toEqual({ echoed: 'again', secret: 'reactor-secret-value' });
  const secret = await api('GET', '/tenants/self/webhook-secret', { key: tenant.managementKey });
  expect(secret.body.secret).toBe(s.webhookSecret);
  const replay = await api('POST', '/tokens', {
    key: s.key,
    body: { type: 'token', data: 'idempotent' },
    headers: { 'SVC-IDEMPOTENCY-KEY': s.idempotent.key },
  });
  expect(replay.body).toEqual(s.idempotent.body);
  const proxy = await api('GET', `/proxies/${s.proxy.id}`, { key: tenant.managementKey });
  expect(proxy.body).toMatchObject({ key: s.proxy.key, configuration: { API_KEY: 'proxy-secret-value' } });
  // an intent's details are computed from its decrypted data on each read
  const intent = await api('GET', `/token-intents/${s.intent.id}`, { key: s.key });
  expect(intent.status).toBe(200);
  expect(intent.body.card).toEqual(s.intent.card);
}
