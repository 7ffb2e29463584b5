/* End-to-end tests: the whole system (five services, a throwaway database, a private NATS) started once per run
   by global-setup.mjs; each test file works in its own fresh tenant and speaks only HTTP. */
module.exports = {
  displayName: 'api-e2e',
  preset: '../../jest.preset.js',
  testEnvironment: 'node',
  globalSetup: '<rootDir>/src/support/global-setup.mjs',
  globalTeardown: '<rootDir>/src/support/global-teardown.mjs',
  transform: {
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 30000,
  // one file at a time: outage tests stop services that every file shares
  maxWorkers: 1,
};
