// The medium tier (`*.int.spec.ts`): real PostgreSQL, one throwaway database per file (libs/testing/src/integration).
// `npx nx int-test webhook-dispatcher`, or one file: `npx jest -c apps/webhook-dispatcher/jest.int.config.cts <file>`.
const { serviceIntJestConfig } = require('../../tools/build/service-jest.cjs');

module.exports = serviceIntJestConfig(__dirname);
