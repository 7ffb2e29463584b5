// The medium tier (`*.int.spec.ts`): real PostgreSQL, the server TEST_DATABASE_URL names (CONTRIBUTING.md).
// `npx nx int-test admin`, or one file: `npx jest -c tools/admin/jest.int.config.cts <file>`.
const { serviceIntJestConfig } = require('../../tools/build/service-jest.cjs');

module.exports = serviceIntJestConfig(__dirname);
