const { serviceJestConfig } = require('../../tools/build/service-jest.cjs');

const base = serviceJestConfig(__dirname);

// openid-client (the console's single sign-on) and what it imports are ES modules only. The gateway's bundle leaves
// node_modules to Node, whose require() loads ES modules (Node 24); Jest's module system does not (without
// --experimental-vm-modules), so for the tests these three are compiled to CommonJS by babel-jest with the one plugin
// that does that (from @nx/js's Babel toolchain). Not ts-jest: Nx's Jest plugin reads every ts-jest transform's
// tsconfig as a file path.
const ESM_ONLY = ['openid-client', 'oauth4webapi', 'jose'];

module.exports = {
  ...base,
  transform: {
    [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: [
      'babel-jest',
      { babelrc: false, configFile: false, plugins: [require.resolve('@babel/plugin-transform-modules-commonjs')] },
    ],
    ...base.transform,
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
};
