import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError } from './api-error';
import { unstorableTextRefusal } from './unstorable-text';

/**
 * Validation failures as the documented error body: the first field's code and message, `param` the
 * field. Before the DTO's rules, a body must be a JSON object, and no text in it (names included)
 * may hold a character the database cannot store: such a body would pass every field rule and
 * then fail its write, which a caller could not tell from an unknown outcome.
 */
class ApiValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body') {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new ApiError(400, 'invalid_request', 'the request body must be a JSON object');
      }
      const refusal = unstorableTextRefusal(value, 'field');
      if (refusal) throw refusal;
    }
    return super.transform(value, metadata);
  }
}

export function apiValidationPipe(
  priorityCodes: readonly string[] = ['destination_not_accepted'],
): ValidationPipe {
  return new ApiValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: false,
    stopAtFirstError: true,
    exceptionFactory: (errors: ValidationError[]) => toApiError(errors, priorityCodes),
  });
}

function toApiError(errors: ValidationError[], priorityCodes: readonly string[]): ApiError {
  const flat = errors.flatMap((error) =>
    Object.entries(error.constraints ?? { unknown: `${error.property} is not accepted` }).map(
      ([constraint, message]) => ({
        param: error.property,
        message: constraint === 'whitelistValidation' ? `${error.property} is not a known field` : message,
        code: (error.contexts?.[constraint] as { code?: string } | undefined)?.code ?? 'invalid_request',
      }),
    ),
  );
  const chosen = flat.find((f) => priorityCodes.includes(f.code)) ?? flat[0];
  if (!chosen) return new ApiError(400, 'invalid_request', 'the request body is not valid');
  return new ApiError(400, chosen.code, chosen.message, chosen.param);
}
