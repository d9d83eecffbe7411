import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError } from './api-error';

/** Validation failures as the documented error body: the first field's code and message, `param` the field. */
export function apiValidationPipe(
  priorityCodes: readonly string[] = ['destination_not_accepted'],
): ValidationPipe {
  return new ValidationPipe({
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
