import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { loadConfig } from '@payouts/config';
import { createApp } from '@payouts/platform';
import { ApiGatewayAppModule } from '../../apps/api-gateway/src/api-gateway-app.module';
import { buildOpenApiDocument } from '../../apps/api-gateway/src/openapi/openapi';

/**
 * `node dist/tools/openapi/write-openapi.js <file>`: writes the gateway's OpenAPI document (the
 * one served at /openapi.json) to a file, for linters. Builds the app on an in-memory database
 * and never listens nor initialises it (no subscribers, no port), so it needs nothing running.
 */
async function main(file: string | undefined): Promise<void> {
  if (!file) throw new Error('usage: write-openapi.js <file>');
  // Its own settings, not the caller's: the document must not depend on who runs the linter.
  // A key of its own too: without one, the embedded start would generate one into DATA_DIR.
  const config = loadConfig({
    DATA_DIR: ':memory:',
    LOG_LEVEL: 'silent',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  });
  const app = await createApp('openapi', (c) => ApiGatewayAppModule.forRoot(c), config);
  try {
    writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`);
  } finally {
    await app.close();
  }
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`write-openapi: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
