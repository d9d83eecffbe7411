'use strict';
// Test levels by file name (ARCHITECTURE 5): *.unit.spec.ts, *.int.spec.ts, *.e2e.spec.ts.
// JEST_LEVEL picks the levels to run; `npm test` runs unit and int on embedded PGlite.
const path = require('path');

const nestEsmToCommonJs = [
  'babel-jest',
  {
    babelrc: false,
    configFile: false,
    plugins: [path.join(__dirname, 'tools/jest/import-meta-url.babel-plugin.js'), '@babel/plugin-transform-modules-commonjs'],
  },
];

const aliases = {
  '^@payouts/(domain|database|event-store|read-models|config|observability|payouts|testing)$': '<rootDir>/libs/$1/src/index.ts',
};

const levels = (process.env.JEST_LEVEL || 'unit,int').split(',');

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
  testMatch: levels.map((level) => `**/*.${level}.spec.ts`),
  moduleNameMapper: aliases,
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
    // Nest 12 packages are ESM only; Node 20's Jest cannot require() ESM, so they are transpiled.
    '^.+\\.js$': nestEsmToCommonJs,
  },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|cookie|file-type|uid)/)'],
  testTimeout: 60_000,
};
