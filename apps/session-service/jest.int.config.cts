// The medium tier (`*.int.spec.ts`): real PostgreSQL, one throwaway database per file (libs/testing/src/integration).
// `npx nx int-test session-service`, or one file: `npx jest -c apps/session-service/jest.int.config.cts <file>`.
const { serviceIntJestConfig } = require('../../tools/build/service-jest.cjs');

module.exports = serviceIntJestConfig(__dirname);
