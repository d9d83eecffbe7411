import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/** The OpenAPI 3.1 document of the app's routes, generated from the controllers and DTOs. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Checkout payments and customer payouts')
    .setDescription(
      'Payout endpoints live under `/api/payout` (production) and `/sandbox/api/payout` (sandbox); ' +
        'checkout endpoints at the root (production) and under `/sandbox` (sandbox). ' +
        'Every error has the body `{"error":{"code","message","param?"}}` and every response a `Request-Id` header.',
    )
    .setVersion('1')
    // Production paths at the root, the sandbox's under `/sandbox`: both are listed in `paths`,
    // so the one server is this service's own origin (a `/sandbox` server would double the prefix).
    .addServer('/', 'This service: production at the root, the sandbox under /sandbox')
    // addSecurity, not addBearerAuth: that one declares `bearerFormat: JWT`, and these tokens are
    // opaque random strings whose prefix names their kind and environment
    // (docs/design.md#credentials-and-scopes).
    .addSecurity(
      'payout_credential',
      bearer('Payout credential: `pk_live_…` (production) or `pk_test_…` (sandbox)'),
    )
    .addSecurity(
      'checkout_key',
      bearer('Checkout API key: `ck_live_…` (production) or `ck_test_…` (sandbox)'),
    )
    .addSecurity('operator_token', bearer('The service operator: OPERATOR_TOKEN from configuration'))
    .addSecurity('admin_token', bearer("The account administrator's token: `adm_…`, shown once"))
    .build();
  // Not open source (package.json: UNLICENSED). SPDX has no id for that; `LicenseRef-` is its
  // form for a licence of one's own. OpenAPI 3.1's `identifier` is missing from Nest's (3.0) types,
  // and DocumentBuilder.setLicense can only add a url, which there is none of.
  const license = { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' };
  config.info.license = license;
  const document = SwaggerModule.createDocument(app, config);
  // Closed objects: request bodies refuse unknown fields (the validation pipe), and every answer
  // lists all of its fields, so a field that is not declared would be a leak.
  for (const schema of Object.values(document.components?.schemas ?? {})) {
    if (!('$ref' in schema) && schema.type === 'object') schema.additionalProperties = false;
  }
  documentDatabaseOutages(document);
  return document;
}

/**
 * Every operation but liveness and the metrics reads or writes the database, so any of them can
 * answer 503 `service_unavailable` (with `Retry-After`) while the database is unreachable, and every command
 * (a write) 503 `overloaded` (with `Retry-After`) when more are in flight or waiting than the
 * process gets through in time; an operation that already documents a 503 (Create's
 * `attempt_unresolved`) gets the codes added to it.
 */
function documentDatabaseOutages(document: OpenAPIObject): void {
  const unavailable =
    'The database is unreachable for now; retry after `Retry-After` seconds: `service_unavailable`';
  const overloaded =
    'More commands are in flight or waiting than the service gets through in time; nothing was done, retry the same request after `Retry-After` seconds: `overloaded`';
  for (const [path, item] of Object.entries(document.paths)) {
    // Liveness answers without the database; the metrics leave out what they could not measure.
    if (path === '/health' || path === '/metrics') continue;
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item[method];
      if (!operation) continue;
      const text = method === 'get' ? unavailable : `${unavailable}; or ${overloaded}`;
      const existing = operation.responses['503'];
      if (existing && 'description' in existing) existing.description += `; or ${text}`;
      else
        operation.responses['503'] = {
          description: text,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
        };
    }
  }
}

type SecurityScheme = Parameters<DocumentBuilder['addSecurity']>[1];

function bearer(description: string): SecurityScheme {
  return { type: 'http', scheme: 'bearer', description };
}

/** Serves the document at GET /openapi.json and its page at GET /docs (Swagger UI, no build step). */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app), {
    jsonDocumentUrl: 'openapi.json',
    raw: ['json'],
    customSiteTitle: 'Payouts API',
  });
}
