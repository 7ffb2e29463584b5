const { serviceJestConfig } = require('../../tools/build/service-jest.cjs');

// the HSM key store's tests run against a SoftHSM token made for the run
module.exports = {
  ...serviceJestConfig(__dirname),
  globalSetup: '<rootDir>/jest.softhsm-setup.mjs',
  globalTeardown: '<rootDir>/jest.softhsm-teardown.mjs',
};
