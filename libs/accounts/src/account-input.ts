import { ENVIRONMENTS, Environment } from '@payouts/domain';
import { CredentialKind, PAYOUT_SCOPES, PayoutScope } from './tokens';

// The repository's checks of what it is given. Messages for people belong to the HTTP layer;
// these refuse impossible values with plain Errors.

export function scopesFor(kind: CredentialKind, requested: PayoutScope[] | undefined): PayoutScope[] {
  if (kind === 'checkout') {
    if (requested !== undefined && (!Array.isArray(requested) || requested.length > 0)) {
      throw new Error('checkout credentials have no scopes');
    }
    return [];
  }
  if (requested === undefined) return [...PAYOUT_SCOPES];
  if (!Array.isArray(requested)) throw new Error('scopes must be an array');
  for (const scope of requested) {
    if (!PAYOUT_SCOPES.includes(scope)) throw new Error(`unknown scope: ${String(scope)}`);
  }
  if (requested.length === 0) throw new Error('a payout credential needs at least one scope');
  return PAYOUT_SCOPES.filter((scope) => requested.includes(scope));
}

export function requireText(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new Error(`${field} must be a non-empty string`);
}

export function requireBoolean(value: unknown, field: string): asserts value is boolean {
  if (typeof value !== 'boolean') throw new Error(`${field} must be true or false`);
}

export function requireEnvironment(value: unknown): asserts value is Environment {
  if (!ENVIRONMENTS.includes(value as Environment)) throw new Error(`unknown environment: ${String(value)}`);
}
