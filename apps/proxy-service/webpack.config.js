const { serviceWebpackConfig } = require('../../tools/build/service-webpack.cjs');

module.exports = serviceWebpackConfig(__dirname);
