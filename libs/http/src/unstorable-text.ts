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

/**
 * Whether any string or name below `root` is unstorable. Iterative, with each object visited once:
 * the depth and shape of request data must never decide whether this check runs out of stack.
 */
function holdsUnstorableText(root: unknown): boolean {
  if (typeof root === 'string') return hasUnstorableCharacter(root);
  if (typeof root !== 'object' || root === null) return false;
  const pending: object[] = [root];
  const visited = new Set<object>(pending);
  while (pending.length > 0) {
    for (const [name, inner] of Object.entries(pending.pop()!)) {
      if (hasUnstorableCharacter(name)) return true;
      if (typeof inner === 'string') {
        if (hasUnstorableCharacter(inner)) return true;
      } else if (typeof inner === 'object' && inner !== null && !visited.has(inner)) {
        visited.add(inner);
        pending.push(inner);
      }
    }
  }
  return false;
}
