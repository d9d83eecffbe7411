import type { Environment } from '@payouts/domain';
import { ApiError } from '@payouts/http';

// The query parameters of the dashboard's payout webhook routes (payout-webhook.controller.ts),
// read by hand: a query is a flat map of strings, and an unknown name is refused.

const ENVIRONMENTS: readonly Environment[] = ['production', 'sandbox'];
export const ENVIRONMENT_QUERY = {
  name: 'environment',
  required: true,
  schema: { type: 'string', enum: [...ENVIRONMENTS] },
} as const;

/** The required `environment` of a query, after refusing names the endpoint does not know. */
export function environmentOf(query: Record<string, unknown>, known: readonly string[]): Environment {
  for (const name of Object.keys(query)) {
    if (!known.includes(name))
      throw new ApiError(400, 'invalid_request', `${name} is not a known parameter`, name);
  }
  const value = query.environment;
  if (typeof value !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(value)) {
    throw new ApiError(
      400,
      'invalid_request',
      'environment must be "production" or "sandbox"',
      'environment',
    );
  }
  return value as Environment;
}

export function text(query: Record<string, unknown>, name: string, max: number): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw new ApiError(400, 'invalid_request', `${name} must be 1 to ${max} characters`, name);
  }
  return value;
}

export function whole(
  query: Record<string, unknown>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const value = text(query, name, 12);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ApiError(400, 'invalid_request', `${name} must be a whole number from ${min} to ${max}`, name);
  }
  return Number(value);
}
