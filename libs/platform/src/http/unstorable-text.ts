import { hasUnstorableCharacter, UNSTORABLE_TEXT } from '@payouts/domain';
import { ApiError } from './api-error';

/**
 * The refusal for input holding text the database cannot store (NUL, or an unpaired surrogate)
 * anywhere below one of its top-level names (a body's fields, path or query parameters), or
 * undefined when all of it can be stored. Names that field or parameter, unless its own name is
 * the unstorable part: that is never echoed.
 */
export function unstorableTextRefusal(values: unknown, kind: 'field' | 'parameter'): ApiError | undefined {
  if (typeof values !== 'object' || values === null) return undefined;
  for (const [name, value] of Object.entries(values)) {
    if (hasUnstorableCharacter(name)) {
      return new ApiError(400, 'invalid_request', `a ${kind} name ${UNSTORABLE_TEXT}`);
    }
    if (holdsUnstorableText(value)) {
      return new ApiError(400, 'invalid_request', `${name} ${UNSTORABLE_TEXT}`, name);
    }
  }
  return undefined;
}

function holdsUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return hasUnstorableCharacter(value);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(
    ([name, inner]) => hasUnstorableCharacter(name) || holdsUnstorableText(inner),
  );
}
