module.exports = {
  displayName: 'crypto',
  preset: '../../jest.preset.js',
  testEnvironment: 'node',
  globalSetup: '<rootDir>/jest.softhsm-setup.mjs',
  globalTeardown: '<rootDir>/jest.softhsm-teardown.mjs',
  transform: {
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'json', 'node'],
  coverageDirectory: '../../coverage/libs/crypto',
};
