import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failureDigest } from './failure-digest.mjs';

test('names each failed test with the first lines of why, without colours or stack frames', () => {
  const digest = failureDigest(
    {
      testResults: [
        {
          name: '/repo/apps/api-e2e/src/a.e2e.spec.ts',
          status: 'failed',
          assertionResults: [
            { status: 'passed', fullName: 'fine' },
            {
              status: 'failed',
              fullName: 'matrix › POST /x',
              failureMessages: [
                '\u001b[31mError: expect(received).toEqual(expected)\u001b[39m\n\n+ "private-with: 503"\n    at Object.<anonymous> (a.ts:1:1)\n',
              ],
            },
          ],
        },
        { name: '/repo/apps/api-e2e/src/b.e2e.spec.ts', status: 'failed', assertionResults: [], message: 'Test suite failed to run\n\n  Cannot find module' },
        { name: '/repo/apps/api-e2e/src/c.e2e.spec.ts', status: 'passed', assertionResults: [{ status: 'passed', fullName: 'ok' }] },
      ],
    },
    '/repo',
  );
  assert.equal(
    digest,
    'e2e failures:\n' +
      '  ✕ apps/api-e2e/src/a.e2e.spec.ts › matrix › POST /x\n' +
      '    Error: expect(received).toEqual(expected)\n' +
      '    + "private-with: 503"\n' +
      '  ✕ apps/api-e2e/src/b.e2e.spec.ts (the file did not run)\n' +
      '    Test suite failed to run\n' +
      '    Cannot find module\n',
  );
});

test('says nothing when everything passed', () => {
  assert.equal(failureDigest({ testResults: [{ name: '/repo/x', status: 'passed', assertionResults: [{ status: 'passed' }] }] }, '/repo'), '');
});
