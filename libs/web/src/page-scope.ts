import fastifyCookie, { CookieSerializeOptions } from '@fastify/cookie';
import fastifyCsrfProtection from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyError, FastifyInstance } from 'fastify';
import { pageHelmetOptions, removeFormParser } from './hosted-page-scope';
import { DASHBOARD_COOKIE_PATH } from './paths';

/** The cookie holding the CSRF secret (the form's token is derived from it). */
export const CSRF_COOKIE = 'dashboard_csrf';

export interface PageScopeOptions {
  /** PUBLIC_BASE_URL is https: cookies are Secure and HSTS is sent. */
  https: boolean;
  /** The HTML page answering an error raised in the scope (a refused CSRF token is 403). */
  errorPage(status: number): string;
}

/**
 * The flags of every dashboard cookie: never read by scripts, never sent from another site's
 * page, only to the dashboard's paths, and Secure on https.
 */
export function pageCookieOptions(https: boolean): CookieSerializeOptions {
  return { path: DASHBOARD_COOKIE_PATH, httpOnly: true, sameSite: 'strict', secure: https };
}

/**
 * Makes an encapsulated Fastify scope (`fastify.register(async (scope) => …)`) a scope of HTML
 * pages: form bodies, cookies, a CSRF check on every POST (403 otherwise, before the handler
 * runs), the pages' strict headers through helmet (pageHelmetOptions), `Cache-Control: no-store` unless a
 * route sets its own, and errors answered as HTML pages. Nothing leaks to the rest of the app:
 * the JSON API keeps its own parsers, headers and error bodies.
 */
export async function registerPageScope(scope: FastifyInstance, options: PageScopeOptions): Promise<void> {
  // Whatever form parser the app has is inherited; this scope uses formbody's.
  removeFormParser(scope);
  await scope.register(fastifyFormbody);
  await scope.register(fastifyCookie);
  await scope.register(fastifyCsrfProtection, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: CSRF_COOKIE,
    cookieOpts: pageCookieOptions(options.https),
    logLevel: 'info',
  });
  await scope.register(fastifyHelmet, { global: true, ...pageHelmetOptions(options.https) });
  scope.addHook('preHandler', (request, reply, done) => {
    if (request.method !== 'POST') return done();
    scope.csrfProtection(request, reply, done);
  });
  scope.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  scope.setErrorHandler((error: FastifyError, request, reply) => {
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'page failed');
    void reply.code(status).type('text/html; charset=utf-8').send(options.errorPage(status));
  });
}
