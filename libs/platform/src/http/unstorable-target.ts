import { hasUnstorableCharacter, UNSTORABLE_TEXT } from '@payouts/domain';
import { ApiError } from './api-error';

/**
 * The refusal for a path parameter or query value the database cannot store as text (NUL, or an
 * unpaired surrogate), or undefined when all can be. Names the parameter unless its own name is
 * the unstorable part.
 */
export function unstorableTargetRefusal(params: unknown, query: unknown): ApiError | undefined {
  for (const values of [params, query]) {
    if (typeof values !== 'object' || values === null) continue;
    for (const [name, value] of Object.entries(values)) {
      if (hasUnstorableCharacter(name)) {
        return new ApiError(400, 'invalid_request', `a query parameter name ${UNSTORABLE_TEXT}`);
      }
      const texts = Array.isArray(value) ? value : [value];
      if (texts.some((text) => typeof text === 'string' && hasUnstorableCharacter(text))) {
        return new ApiError(400, 'invalid_request', `${name} ${UNSTORABLE_TEXT}`, name);
      }
    }
  }
  return undefined;
}
