// The webpack build of every Node program here (the services under apps/ and the admin CLI under tools/admin):
// each one's webpack.config.js is `module.exports = serviceWebpackConfig(__dirname, { ...what differs })`.
const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join, relative, resolve } = require('path');

const workspaceRoot = join(__dirname, '../..');

/**
 * @param {string} projectDir the project's folder (its webpack.config.js's __dirname); the bundle goes to the same path under dist/
 * @param {{ additionalEntryPoints?: { entryName: string, entryPath: string }[], assets?: string[], generatePackageJson?: boolean }} [options]
 *   an additional entry's path is relative to projectDir
 */
function serviceWebpackConfig(projectDir, options = {}) {
  const { additionalEntryPoints, assets = ['./src/assets'], generatePackageJson = true } = options;
  return {
    output: {
      path: join(workspaceRoot, 'dist', relative(workspaceRoot, projectDir)),
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
        // absolute: the plugin reads only './' paths as the project's and resolves any other from the workspace root,
        // so '../../libs/…' worked only in a checkout exactly two folders below /
        ...(additionalEntryPoints && {
          additionalEntryPoints: additionalEntryPoints.map(({ entryName, entryPath }) => ({
            entryName,
            entryPath: resolve(projectDir, entryPath),
          })),
        }),
        tsConfig: './tsconfig.app.json',
        assets,
        optimization: false,
        outputHashing: 'none',
        generatePackageJson,
        sourceMap: true,
      }),
    ],
  };
}

module.exports = { serviceWebpackConfig };
