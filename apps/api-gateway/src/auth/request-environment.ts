import type { Environment } from '@payouts/domain';

/** ARCHITECTURE 3: requests under the `/sandbox` path prefix target the sandbox, all others production. */
export function environmentOfPath(url: string): Environment {
  return url === '/sandbox' || url.startsWith('/sandbox/') ? 'sandbox' : 'production';
}
