import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/** The OpenAPI 3.1 document of the app's routes, generated from the controllers and DTOs. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Checkout payments and customer payouts')
    .setDescription(
      'Payout endpoints live under `/api/payout` (production) and `/sandbox/api/payout` (sandbox). ' +
        'Every error has the body `{"error":{"code","message","param?"}}` and every response a `Request-Id` header.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Payout credential' }, 'payout_credential')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'OPERATOR_TOKEN' }, 'operator_token')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: "The account administrator's token" },
      'admin_token',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  // Closed objects: request bodies refuse unknown fields (the validation pipe), and every answer
  // lists all of its fields, so a field that is not declared would be a leak.
  for (const schema of Object.values(document.components?.schemas ?? {})) {
    if (!('$ref' in schema) && schema.type === 'object') schema.additionalProperties = false;
  }
  return document;
}

/** Serves the document at GET /openapi.json and its page at GET /docs (Swagger UI, no build step). */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app), {
    jsonDocumentUrl: 'openapi.json',
    raw: ['json'],
    customSiteTitle: 'Payouts API',
  });
}
