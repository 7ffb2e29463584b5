// The unit tier: no I/O. The specs that need PostgreSQL (`*.int.spec.ts`) are the medium tier, jest.int.config.cts.
const { serviceJestConfig } = require('../../tools/build/service-jest.cjs');

module.exports = serviceJestConfig(__dirname, { intTier: true });
