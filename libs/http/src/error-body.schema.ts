import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The inner object of every error (docs/design.md#error-body). */
export class ErrorDetail {
  @ApiProperty({ description: 'Machine-readable error code', example: 'invalid_request' })
  code!: string;

  @ApiProperty({ description: 'Human-readable text' })
  message!: string;

  @ApiPropertyOptional({ description: 'The field the error is about, if any', example: 'amount' })
  param?: string;
}

/**
 * `{"error":{"code","message","param?"}}`: the body of every error the API answers (sendApiError),
 * for the OpenAPI document. Here beside ApiError, so every app's controllers can declare it.
 */
export class ErrorBody {
  @ApiProperty({ type: ErrorDetail })
  error!: ErrorDetail;
}
