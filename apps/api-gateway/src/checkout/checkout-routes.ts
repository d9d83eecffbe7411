import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../openapi/decorators';
import { CheckoutAuthGuard } from './checkout-auth.guard';

/**
 * Production at the root and the sandbox under `/sandbox` (docs/design.md#environments): both paths
 * of a route.
 */
export const bothEnvironments = (path: string): string[] => [path, `sandbox/${path}`];

/** What every checkout route class shares: the guard, the OpenAPI tag and credential, its refusals. */
export const CheckoutRoutes = () =>
  applyDecorators(
    Controller(),
    UseGuards(CheckoutAuthGuard),
    ApiTags('Checkout'),
    ApiBearerAuth('checkout_key'),
    ApiErrors({ 401: [], 403: ['wrong_environment', 'wrong_credential_kind'], 429: [] }),
  );
