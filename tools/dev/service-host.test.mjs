// The service host (service-host.mjs) with stand-in services: small scripts that behave as a service does towards it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serviceOfHostLine, servicesAs, sharedEnv } from './system.mjs';

const HOST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'service-host.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'service-host-test-'));

/** A stand-in service: prints, then waits for the host's stop request (or exits with `exitAfterMs`'s code). */
function standIn(name, { exitCode, exitAfterMs, throwAfterMs } = {}) {
  const file = path.join(dir, `${name}.mjs`);
  fs.writeFileSync(
    file,
    `import { parentPort } from 'node:worker_threads';
     console.log('hello from ' + process.env.WHO);
     console.error('a warning');
     process.stdout.write(JSON.stringify({ level: 'info', service: '${name}', msg: 'logged' }) + '\\n');
     const alive = setInterval(() => undefined, 1000);
     ${exitAfterMs !== undefined ? `setTimeout(() => process.exit(${exitCode}), ${exitAfterMs});` : ''}
     ${throwAfterMs !== undefined ? `setTimeout(() => { throw new Error('boom'); }, ${throwAfterMs});` : ''}
     parentPort.on('message', (m) => {
       if (m && m.type === 'stop') {
         console.log('stopping on ' + m.signal);
         clearInterval(alive);
         // what a service logs as it stops, written just before it exits
         for (let i = 0; i < 2000; i++) console.log('flushing ' + i);
         console.log('stopped');
         process.exit(0);
       }
     });`,
  );
  return { name, main: file, env: { WHO: name } };
}

function runHost(services, { signalAfterMs } = {}) {
  const child = spawn(process.execPath, [HOST], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  child.stdin.end(typeof services === 'string' ? services : JSON.stringify({ services }));
  if (signalAfterMs !== undefined) {
    const poll = setInterval(() => {
      // signalled once every stand-in has said hello, so the stop reaches running services
      if ((stdout.match(/hello from/g) ?? []).length === (services.length ?? 0)) {
        clearInterval(poll);
        setTimeout(() => child.kill('SIGTERM'), signalAfterMs);
      }
    }, 20);
  }
  // 'close', not 'exit': the host's last lines may still be in the pipe when it exits
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

test('each service runs with its own environment; its output comes out prefixed with its name', async () => {
  const { code, stdout, stderr } = await runHost([standIn('alpha'), standIn('beta')], { signalAfterMs: 50 });
  assert.equal(code, 0);
  assert.match(stdout, /^\[alpha\] hello from alpha$/m);
  assert.match(stdout, /^\[beta\] hello from beta$/m);
  assert.match(stderr, /^\[alpha\] a warning$/m);
  assert.match(stdout, /^\[beta\] \{"level":"info","service":"beta","msg":"logged"\}$/m);
});

test('SIGTERM reaches every service as a stop request; the host exits 0 once all have stopped', async () => {
  const { code, signal, stdout } = await runHost([standIn('alpha'), standIn('beta')], { signalAfterMs: 50 });
  assert.equal(signal, null);
  assert.equal(code, 0);
  assert.match(stdout, /^\[alpha\] stopping on SIGTERM$/m);
  assert.match(stdout, /^\[beta\] stopping on SIGTERM$/m);
  // nothing a service wrote before it exited is lost when the host exits after it
  assert.match(stdout, /^\[alpha\] stopped$/m);
  assert.match(stdout, /^\[beta\] stopped$/m);
});

test('a service that ends on its own stops the others, and the host exits with its code', async () => {
  const { code, stdout, stderr } = await runHost([standIn('alpha', { exitCode: 78, exitAfterMs: 300 }), standIn('beta')]);
  assert.equal(code, 78);
  assert.match(stderr, /alpha exited \(78\); stopping the others/);
  assert.match(stdout, /^\[beta\] stopping on SIGTERM$/m);
});

test('an uncaught error ends its service like a process: every line of its stack is the service’s', async () => {
  const { code, stderr } = await runHost([standIn('alpha', { throwAfterMs: 300 }), standIn('beta')]);
  assert.equal(code, 1);
  const stack = stderr.split('\n').filter((line) => line.includes('boom') || /^\S*\s+at /.test(line) || /\] +at /.test(line));
  assert.ok(stack.length >= 2, stderr);
  for (const line of stack) assert.match(line, /^\[alpha\] /);
  assert.match(stderr, /alpha exited \(1\); stopping the others/);
});

test('refuses a spec it cannot run', async () => {
  assert.equal((await runHost('not json')).code, 2);
  assert.equal((await runHost(JSON.stringify({ services: [] }))).code, 2);
  assert.equal((await runHost(JSON.stringify({ services: [{ name: 'x' }] }))).code, 2);
});

test('a line of the host’s output belongs to the service that wrote it', () => {
  const names = ['token-service', 'gateway'];
  assert.deepEqual(serviceOfHostLine('[gateway] listening', names), { name: 'gateway', text: 'listening' });
  const logged = '{"level":"info","time":"t","service":"token-service","name":"token-service","msg":"x"}';
  assert.deepEqual(serviceOfHostLine(logged, names), { name: 'token-service', text: logged });
  assert.deepEqual(serviceOfHostLine('[service-host] gateway exited (1)', names), { name: 'service-host', text: 'gateway exited (1)' });
  assert.deepEqual(serviceOfHostLine('{"service":"someone-else"}', names), { name: 'service-host', text: '{"service":"someone-else"}' });
});

test('SERVICES_AS is threads unless it says processes, or an HSM needs processes', () => {
  assert.equal(servicesAs(undefined, undefined), 'threads');
  assert.equal(servicesAs('', 'local'), 'threads');
  assert.equal(servicesAs('processes', undefined), 'processes');
  assert.throws(() => servicesAs('containers', undefined), /SERVICES_AS must be threads or processes/);
  assert.equal(servicesAs(undefined, 'pkcs11'), 'processes');
  assert.equal(servicesAs('processes', 'pkcs11'), 'processes');
  assert.throws(() => servicesAs('threads', 'pkcs11'), /cannot run with KEK_PROVIDER=pkcs11/);
});

test('what every service is given alike is the host process’s environment too', () => {
  const envs = [
    { NODE_EXTRA_CA_CERTS: '/ca.pem', SERVICE_NAME: 'gateway', HEALTH_PORT: '9105' },
    { NODE_EXTRA_CA_CERTS: '/ca.pem', SERVICE_NAME: 'token-service', HEALTH_PORT: '9101' },
  ];
  assert.deepEqual(sharedEnv(envs), { NODE_EXTRA_CA_CERTS: '/ca.pem' });
  assert.deepEqual(sharedEnv([{ A: '1' }, {}]), {});
  assert.deepEqual(sharedEnv([]), {});
});

test.after(() => fs.rmSync(dir, { recursive: true, force: true }));
