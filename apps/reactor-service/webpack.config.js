const { serviceWebpackConfig } = require('../../tools/build/service-webpack.cjs');

module.exports = serviceWebpackConfig(__dirname, {
  // The formula sandbox's worker process entry (libs/sandbox; the pool forks it from next to main.js).
  // and the proxy transforms' worker thread entry (TransformPool starts it from next to main.js).
  additionalEntryPoints: [
    { entryName: 'sandbox-worker', entryPath: '../../libs/sandbox/src/worker.ts' },
    { entryName: 'transform-worker', entryPath: './src/proxies/transforms/transform-worker.ts' },
  ],
});
