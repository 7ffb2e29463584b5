module.exports = {
  displayName: 'webhook-dispatcher',
  preset: '../../jest.preset.js',
  testEnvironment: 'node',
  // the medium tier runs on its own (jest.int.config.cts): it needs PostgreSQL
  testPathIgnorePatterns: ['/node_modules/', '\\.int\\.spec\\.ts$'],
  transform: {
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'json', 'node'],
  coverageDirectory: '../../coverage/apps/webhook-dispatcher',
};
