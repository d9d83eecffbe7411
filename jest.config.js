'use strict';
// Test levels by file name (docs/design.md#tests): *.unit.spec.ts, *.int.spec.ts, *.e2e.spec.ts.
// JEST_LEVEL picks the levels to run; `npm test` runs all three on embedded PGlite.
const fs = require('fs');
const path = require('path');

const nestEsmToCommonJs = [
  'babel-jest',
  {
    babelrc: false,
    configFile: false,
    plugins: [
      path.join(__dirname, 'tools/jest/esm-to-commonjs.babel-plugin.js'),
      '@babel/plugin-transform-modules-commonjs',
    ],
  },
];

const aliases = {
  '^@payouts/(domain|database|event-store|read-models|config|observability|payouts|platform|http|clock|testing|idempotency|accounts|payout-rail|mail|claims|webhooks|write-side|checkout|settlements|audit|web|events-feed)$':
    '<rootDir>/libs/$1/src/index.ts',
  // The TypeScript client (clients/typescript), as the service's webhooks and the examples import it.
  '^@payouts/client$': '<rootDir>/clients/typescript/src/index.ts',
  // The Prisma client is generated with .js extensions on relative imports.
  '^(\\.{1,2}/.*)\\.js$': '$1',
};

const levels = (process.env.JEST_LEVEL || 'unit,int,e2e').split(',');

// `npm run test:pg` (TEST_BACKENDS=postgres) runs the suites that reach the PostgreSQL server. A
// suite that names no way to one (testBackends, createServerDatabase, cliDatabase, DATABASE_URL, a
// backend) runs on the embedded database or none, which `npm test` already ran: running it again
// here only took CI time (docs/performance.md#the-development-loop).
const REACHES_SERVER = /testBackends|createServerDatabase|cliDatabase|DATABASE_URL|backend|postgres/i;
function suitesNotOnTheServer() {
  const suites = [];
  for (const root of ['apps', 'libs', 'test', 'bench', 'tools', 'clients']) {
    const dir = path.join(__dirname, root);
    if (!fs.existsSync(dir)) continue;
    for (const entry of fs.readdirSync(dir, { recursive: true })) {
      const file = path.join(root, String(entry));
      if (!/\.(int|e2e)\.spec\.tsx?$/.test(file) || /\.pg\./.test(file) || file.includes('node_modules'))
        continue;
      if (!REACHES_SERVER.test(fs.readFileSync(path.join(__dirname, file), 'utf8'))) suites.push(file);
    }
  }
  return suites.map((file) => `<rootDir>/${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}
const serverOnly = process.env.TEST_BACKENDS === 'postgres' ? suitesNotOnTheServer() : [];

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: [
    '<rootDir>/apps',
    '<rootDir>/libs',
    '<rootDir>/test',
    '<rootDir>/bench',
    '<rootDir>/tools',
    '<rootDir>/clients',
  ],
  testMatch: levels.map((level) => `**/*.${level}.spec.ts`),
  // `*.pg.<level>.spec.ts` suites need the PostgreSQL server: only with DATABASE_URL (npm run test:pg).
  // `*.kafka.<level>.spec.ts` suites need a Kafka broker: only with KAFKA_BROKERS (npm run test:kafka).
  // `*.browser.<level>.spec.ts` suites drive Chromium: only with CHROMIUM_PATH (npm run test:browser).
  testPathIgnorePatterns: [
    '/node_modules/',
    ...(process.env.DATABASE_URL ? [] : ['\\.pg\\.\\w+\\.spec\\.ts$']),
    ...(process.env.KAFKA_BROKERS ? [] : ['\\.kafka\\.\\w+\\.spec\\.ts$']),
    ...(process.env.CHROMIUM_PATH ? [] : ['\\.browser\\.\\w+\\.spec\\.ts$']),
    ...serverOnly,
  ],
  moduleNameMapper: aliases,
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }],
    // Jest needs CommonJS with import() turned into require() (tsconfig.jest.json).
    '^.+\\.[cm]?js$': nestEsmToCommonJs,
  },
  // Transpiled from node_modules: Nest 12 and Preact 11 (ESM only), and the CommonJS files that load
  // modules with import() (PGlite, the Prisma client runtime, @fastify/cookie).
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|cookie|@fastify/cookie|file-type|uid|content-disposition|preact|preact-render-to-string)/|@electric-sql/pglite/dist/index\.cjs$|@prisma/client/runtime/client\.js$)',
  ],
  testTimeout: 60_000,
};
