import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callPath, pausedFrames } from './call-chain.mjs';

test("a paused event's frames come innermost first, then each asynchronous parent's, each with its script's URL", () => {
  const frame = (functionName) => ({ functionName, url: '', location: { scriptId: '7', lineNumber: 1, columnNumber: 2 } });
  const asyncFrame = (functionName) => ({ functionName, url: 'file:///x.js', lineNumber: 3, columnNumber: 4 });
  const paused = {
    callFrames: [frame('query'), frame('insert')],
    asyncStackTrace: { description: 'await', callFrames: [asyncFrame('write')], parent: { description: 'Immediate', callFrames: [asyncFrame('add')] } },
  };
  assert.deepEqual(
    pausedFrames(paused, new Map([['7', 'file:///pg.js']])).map((f) => [f.functionName, f.url, f.lineNumber]),
    [
      ['query', 'file:///pg.js', 1],
      ['insert', 'file:///pg.js', 1],
      ['write', 'file:///x.js', 3],
      ['add', 'file:///x.js', 3],
    ],
  );
});

test('the path runs from the innermost frame of the handing-over library to the moment, outermost first, each file once', () => {
  // innermost first, as a pg query made by a bus handler is seen: pg, Coffer's repository and use case, Nest's RPC
  // proxy between the handler and the dispatcher, the transport, and the NATS client that delivered the message
  const sites = [
    'pg',
    'libs/db/src/sql-pool.ts',
    'apps/token-service/src/tokens/token.repository.ts',
    'apps/token-service/src/tokens/create/create-token.use-case.ts',
    'node:internal',
    'apps/token-service/src/tokens/create/create-token.use-case.ts',
    '@nestjs/microservices',
    'libs/operations/src/operation-dispatcher.ts',
    'libs/bus/src/coffer-nats.server.ts',
    'nats',
    'node:internal',
  ];
  assert.deepEqual(callPath(sites, { from: 'nats', to: 'pg' }), {
    before: [],
    path: [
      'libs/bus/src/coffer-nats.server.ts',
      'libs/operations/src/operation-dispatcher.ts',
      'apps/token-service/src/tokens/create/create-token.use-case.ts',
      'apps/token-service/src/tokens/token.repository.ts',
      'libs/db/src/sql-pool.ts',
    ],
  });
});

test('what runs before the handover is apart; a path without the moment or without the handover is not one', () => {
  const sites = [
    'nats',
    'libs/bus/src/rpc-client.ts',
    'apps/gateway/src/http/row-routes.ts',
    '@nestjs/core',
    'fastify',
    'apps/gateway/src/http/back-pressure.ts',
    'fastify',
  ];
  assert.deepEqual(callPath(sites, { from: '@nestjs/core', to: 'nats' }), {
    before: ['apps/gateway/src/http/back-pressure.ts'],
    path: ['apps/gateway/src/http/row-routes.ts', 'libs/bus/src/rpc-client.ts'],
  });
  assert.equal(callPath(sites.slice(1), { from: '@nestjs/core', to: 'nats' }), undefined, 'no publish in it');
  const guard = ['nats', 'apps/gateway/src/rate-limit/rate-limit-leases.ts', 'apps/gateway/src/rate-limit/rate-limit.guard.ts', '@nestjs/core', 'fastify'];
  const rpc = { from: '@nestjs/core', via: 'libs/bus/src/rpc-client.ts', to: 'nats' };
  assert.equal(callPath(guard, rpc), undefined, "a publish of the rate limiter's is not the request's");
  assert.deepEqual(callPath(sites, rpc)?.path, ['apps/gateway/src/http/row-routes.ts', 'libs/bus/src/rpc-client.ts']);
  assert.equal(
    callPath(['pg', 'apps/token-service/src/keys/keyring-refresh.ts', 'node:internal'], { from: 'nats', to: 'pg' }),
    undefined,
    'not started by a message',
  );
});
