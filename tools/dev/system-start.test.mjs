// How a throwaway system's start fails: ports never handed out twice, and a service that dies or never gets ready
// named with what it last printed (a CI run's log is all there is to read afterwards).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { freePort, waitForHttp, waitForService } from './system.mjs';

test('freePort never hands out the same port twice in one process', async () => {
  const ports = [];
  for (let i = 0; i < 300; i++) ports.push(await freePort());
  assert.equal(new Set(ports).size, ports.length);
});

test('a service that exits before it is ready fails the wait at once, with its state and last lines', async () => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => process.exit(3), 100)']);
  child.recentLines = ['{"level":"fatal","msg":"listen EADDRINUSE: address already in use 127.0.0.1:8081"}'];
  const port = await freePort();
  const started = Date.now();
  await assert.rejects(waitForService(child, 'gateway', `http://127.0.0.1:${port}/readyz`, 30_000), (err) => {
    assert.match(err.message, /^gateway: gateway exited \(3\) before it was ready; the process is exited \(3\)/);
    assert.match(err.message, /EADDRINUSE/);
    return true;
  });
  assert.ok(Date.now() - started < 10_000, 'it did not wait for the timeout');
});

test('a service still unready at the timeout: the error quotes the last probe and says it still runs', async () => {
  const server = http.createServer((_req, res) => res.writeHead(503).end('{"status":"unavailable","checks":{"nats":"down"}}'));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => undefined, 60_000)']);
  try {
    await assert.rejects(waitForService(child, 'gateway', `http://127.0.0.1:${server.address().port}/readyz`, 600), (err) => {
      assert.match(err.message, /did not become ready within 600 ms \(last probe: 503 \{"status":"unavailable","checks":\{"nats":"down"\}\}\)/);
      assert.match(err.message, /the process is still running \(pid \d+\); its last lines:\n {4}\(none\)/);
      return true;
    });
  } finally {
    child.kill('SIGKILL');
    server.closeAllConnections();
    server.close();
  }
});

test('a probe that is accepted and never answered does not hang the wait past its timeout', async () => {
  const server = http.createServer(() => undefined);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const started = Date.now();
  try {
    await assert.rejects(waitForHttp(`http://127.0.0.1:${server.address().port}/readyz`, 800), /last probe: TimeoutError/);
    assert.ok(Date.now() - started < 5_000);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
