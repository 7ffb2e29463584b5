import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SystemDriver, type DrivenSystem } from '../support/system-driver';

// `npm start` runs the six services as worker threads of one process, the service host (SERVICES_AS=threads,
// tools/dev/service-host.mjs). The suite's own system runs a process per service (its tests stop and pause services
// one at a time), so this file starts a system of its own the way `npm start` does and walks it end to end.
jest.setTimeout(240_000);

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-service-host-e2e-'));
const CARD = '4242424242424242';

let sys: SystemDriver;
let ready: DrivenSystem;

async function http(method: string, p: string, key: string, body?: unknown) {
  const res = await fetch(`${ready.url}${p}`, {
    method,
    headers: { 'SVC-API-KEY': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The processes whose parent is `pid`, read from /proc. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const alive = (pid: number) => fs.existsSync(`/proc/${pid}`);

beforeAll(async () => {
  sys = new SystemDriver({ servicesAs: 'threads', logDir, env: { LOG_LEVEL: 'info' } });
  ready = await sys.ready;
});

afterAll(async () => {
  if (sys && !sys.exited) await sys.call('stop').catch(() => undefined);
  fs.rmSync(logDir, { recursive: true, force: true });
});

describe('the services as threads of one service host (npm start)', () => {
  let hostPid: number;
  let key: string;

  it('is one process, and every service answers its own health port', async () => {
    expect(Object.keys(ready.pids)).toEqual(['service-host']);
    hostPid = ready.pids['service-host'];
    expect(alive(hostPid)).toBe(true);
    for (const [name, port] of Object.entries(ready.ports)) {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
    }
  });

  it('serves tokens and runs a reactor formula in its sandbox', async () => {
    const t = await sys.call<{ management_key: string }>('createTenant', { name: 'service-host' });
    const app = await http('POST', '/applications', t.management_key, {
      name: 'backend',
      type: 'private',
      permissions: ['token:create', 'token:read', 'token:use'],
    });
    expect(app.status).toBe(201);
    key = app.body.key;
    const created = await http('POST', '/tokens', key, { type: 'card', data: { number: CARD, expiration_month: 12, expiration_year: 2030 } });
    expect(created.status).toBe(201);
    expect(created.body.data.number).toBe('XXXXXXXXXXXX4242');
    const read = await http('GET', `/tokens/${created.body.id}`, key);
    expect(read.status).toBe(200);
    expect(read.body.data.number).toBe(CARD);

    const formula = await http('POST', '/reactor-formulas', t.management_key, {
      name: 'last four',
      type: 'private',
      code: 'module.exports = async function (req) { return { raw: { last4: String(req.args.card.number).slice(-4) } }; };',
    });
    expect(formula.status).toBe(201);
    const reactor = await http('POST', '/reactors', t.management_key, { name: 'last four', configuration: {}, formula: { id: formula.body.id } });
    expect(reactor.status).toBe(201);
    const reacted = await http('POST', `/reactors/${reactor.body.id}/react`, key, { args: { card: `{{ ${created.body.id} }}` } });
    expect(reacted.status).toBe(200);
    expect(reacted.body).toEqual({ raw: { last4: '4242' } });
    // the formula ran in a sandbox process started by reactor-service's thread
    expect(childrenOf(hostPid).length).toBeGreaterThan(0);
  });

  it('files each service’s log lines under that service, and no card number in any', () => {
    for (const name of Object.keys(ready.ports)) {
      const lines = fs
        .readFileSync(path.join(logDir, `${name}.log`), 'utf8')
        .split('\n')
        .filter(Boolean);
      expect(lines.length).toBeGreaterThan(0);
      const others = lines.filter((line) => line.startsWith('{') && !line.includes(`"service":"${name}"`));
      expect({ name, others }).toEqual({ name, others: [] });
      expect(lines.join('\n')).not.toContain(CARD);
    }
  });

  it('stops every service gracefully on SIGTERM, exits 0 and leaves no process behind', async () => {
    const sandboxes = childrenOf(hostPid);
    const ended = await sys.call<{ code: number | null; signal: string | null; ms: number }>('signalHost', { signal: 'SIGTERM' });
    expect(ended).toEqual(expect.objectContaining({ code: 0, signal: null }));
    expect(ended.ms).toBeLessThan(15_000);
    for (const name of ['token-service', 'session-service', 'reactor-service', 'webhook-dispatcher', 'proxy-service']) {
      expect({ name, stopped: fs.readFileSync(path.join(logDir, `${name}.log`), 'utf8').includes('"msg":"stopped"') }).toEqual({ name, stopped: true });
    }
    await new Promise((r) => setTimeout(r, 1000));
    expect(sandboxes.filter(alive)).toEqual([]);
  });
});
