const { serviceJestConfig } = require('../../tools/build/service-jest.cjs');

module.exports = serviceJestConfig(__dirname);
