module.exports = {
  displayName: 'deploy',
  preset: '../jest.preset.js',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // Type-checking every rendered manifest against the kubernetes-models declarations takes a few seconds.
  testTimeout: 60_000,
};
