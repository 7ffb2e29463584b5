// The Jest configurations of the Node projects (apps/*, libs/* and tools/admin): each one's jest.config.cts is
// `module.exports = serviceJestConfig(__dirname)`, and a service with a medium tier (`*.int.spec.ts`, real
// PostgreSQL) also has a jest.int.config.cts that is `module.exports = serviceIntJestConfig(__dirname)`.
const { basename, join, relative } = require('path');

const workspaceRoot = join(__dirname, '../..');

const common = {
  preset: '../../jest.preset.js',
  testEnvironment: 'node',
  transform: {
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'json', 'node'],
};

/**
 * The unit tier.
 * @param {string} projectDir the project's folder (its jest.config.cts's __dirname)
 * @param {{ intTier?: boolean }} [options] intTier: the project has a medium tier, which this one leaves out
 */
function serviceJestConfig(projectDir, { intTier = false } = {}) {
  const { preset, testEnvironment, ...rest } = common;
  return {
    displayName: basename(projectDir),
    preset,
    testEnvironment,
    // the medium tier runs on its own (jest.int.config.cts): it needs PostgreSQL
    ...(intTier && { testPathIgnorePatterns: ['/node_modules/', '\\.int\\.spec\\.ts$'] }),
    ...rest,
    coverageDirectory: join('../../coverage', relative(workspaceRoot, projectDir)),
  };
}

/**
 * The medium tier (`*.int.spec.ts`): real PostgreSQL, one throwaway database per file (libs/testing/src/integration).
 * @param {string} projectDir the project's folder (its jest.int.config.cts's __dirname)
 */
function serviceIntJestConfig(projectDir) {
  const { preset, testEnvironment, ...rest } = common;
  return {
    displayName: `${basename(projectDir)}:int`,
    preset,
    testEnvironment,
    testMatch: ['<rootDir>/src/**/*.int.spec.ts'],
    ...rest,
    testTimeout: 30_000,
  };
}

module.exports = { serviceJestConfig, serviceIntJestConfig };
