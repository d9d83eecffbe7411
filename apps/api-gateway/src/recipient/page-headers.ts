import type { FastifyReply } from 'fastify';

/**
 * Security headers of every recipient page: no scripts at all, styles only from us, forms only to
 * us (and, for a redirect payout, to the merchant's registered return origin, since the confirm
 * form's answer sends the browser there), never framed, no referrer, never cached.
 */
export function setPageHeaders(reply: FastifyReply, options: { formOrigin?: string | null; https: boolean }) {
  const formAction = ["'self'", options.formOrigin].filter(Boolean).join(' ');
  reply.header(
    'content-security-policy',
    `default-src 'none'; style-src 'self'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  );
  reply.header('x-frame-options', 'DENY');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cache-control', 'no-store');
  reply.header('cross-origin-opener-policy', 'same-origin');
  if (options.https) reply.header('strict-transport-security', 'max-age=31536000');
}

export const SESSION_COOKIE = 'payout_session';

export function sessionCookie(
  value: string,
  options: { path: string; https: boolean; clear?: boolean },
): string {
  const parts = [
    `${SESSION_COOKIE}=${options.clear ? '' : value}`,
    `Path=${options.path}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (options.https) parts.push('Secure');
  if (options.clear) parts.push('Max-Age=0');
  return parts.join('; ');
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}
