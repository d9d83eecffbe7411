import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { PayoutAuthGuard } from '../auth/payout-auth.guard';
import { ApiErrors, PAYOUT_AUTH_403 } from '../openapi/decorators';

/**
 * The funds reads (docs/design.md#funds-flow) under `/api/<path>` (production) and `/sandbox/api/<path>`
 * (sandbox), with the payout credential and its guard like the payout reads.
 */
export const FundsRoutes = (path: string) =>
  applyDecorators(
    Controller([`api/${path}`, `sandbox/api/${path}`]),
    UseGuards(PayoutAuthGuard),
    ApiTags('Funds'),
    ApiBearerAuth('payout_credential'),
    ApiErrors({ 401: [], 403: PAYOUT_AUTH_403, 429: [] }),
  );

export const CURRENCY = /^[A-Z]{3}$/;
export const SETTLEMENT_ID = /^stl_[0-9a-f]{24}$/;
