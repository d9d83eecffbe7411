import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import { loadConfig } from '@payouts/config';
import { ApiExceptionFilter } from '@payouts/http';
import { AllInOneAppModule } from '../../../apps/all-in-one/src/all-in-one-app.module';
import { OPERATOR_TOKEN } from './gateway-harness';

export interface TestingGateway {
  url: string;
  app: INestApplication;
  close(): Promise<void>;
}

/**
 * The embedded start on PGlite in memory, built through Nest's testing module so a suite can
 * replace one provider (a fault-injecting event store, say) and reach the app's own services.
 */
export async function startTestingGateway(
  override: (builder: TestingModuleBuilder) => TestingModuleBuilder = (builder) => builder,
): Promise<TestingGateway> {
  const config = loadConfig({
    DATA_DIR: ':memory:',
    OPERATOR_TOKEN,
    LOG_LEVEL: 'silent',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  });
  const moduleRef = await override(
    Test.createTestingModule({ imports: [AllInOneAppModule.forRoot(config)] }),
  ).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), {
    logger: false,
  });
  app.useGlobalFilters(new ApiExceptionFilter());
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, app, close: () => app.close() };
}
