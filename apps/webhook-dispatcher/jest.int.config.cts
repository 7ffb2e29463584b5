// The medium tier (`*.int.spec.ts`): real PostgreSQL, one throwaway database per file (libs/testing/src/integration).
// `npx nx int-test webhook-dispatcher`, or one file: `npx jest -c apps/webhook-dispatcher/jest.int.config.cts <file>`.
module.exports = {
  displayName: 'webhook-dispatcher:int',
  preset: '../../jest.preset.js',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.int.spec.ts'],
  transform: {
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'json', 'node'],
  testTimeout: 30_000,
};
