const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('path');

module.exports = {
  output: {
    path: join(__dirname, '../../dist/apps/reactor-service'),
    clean: true,
    ...(process.env.NODE_ENV !== 'production' && {
      devtoolModuleFilenameTemplate: '[absolute-resource-path]',
    }),
  },
  plugins: [
    new NxAppWebpackPlugin({
      target: 'node',
      compiler: 'tsc',
      main: './src/main.ts',
      // The formula sandbox's worker process entry (libs/sandbox; the pool forks it from next to main.js).
      // and the proxy transforms' worker thread entry (TransformPool starts it from next to main.js).
      additionalEntryPoints: [
        { entryName: 'sandbox-worker', entryPath: '../../libs/sandbox/src/worker.ts' },
        { entryName: 'transform-worker', entryPath: './src/proxies/transforms/transform-worker.ts' },
      ],
      tsConfig: './tsconfig.app.json',
      assets: ['./src/assets'],
      optimization: false,
      outputHashing: 'none',
      generatePackageJson: true,
      sourceMap: true,
    }),
  ],
};
