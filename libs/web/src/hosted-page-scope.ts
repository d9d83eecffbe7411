import fastifyCookie from '@fastify/cookie';
import fastifyCsrfProtection from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { HelmetOptions } from 'helmet';
import { formField } from './form-fields';

/** The field the hosted pages' forms carry their CSRF token in (the name their clients post). */
export const HOSTED_CSRF_FIELD = 'csrf_token';

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** More fields than any hosted page's form has. */
const MAX_FORM_FIELDS = 20;

/** Where @fastify/csrf-protection reads the secret in a request's session (its default key). */
const CSRF_SESSION_KEY = '_csrf';

/**
 * The security headers of a page, as helmet takes them: no script at all, styles and images only
 * from the service, forms only to it (and to `formOrigin`, where a form's answer sends the browser
 * on to a merchant), never framed, no referrer, HSTS on https.
 */
export function pageHelmetOptions(https: boolean, formOrigin?: string | null): HelmetOptions {
  return {
    contentSecurityPolicy: pageContentSecurityPolicy(formOrigin),
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  };
}

function pageContentSecurityPolicy(formOrigin?: string | null) {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'"],
      formAction: formOrigin ? ["'self'", formOrigin] : ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
  };
}

/**
 * A page whose form's answer sends the browser on to `origin` (a merchant's return or redirect
 * URL): its CSP form-action names that origin too, or the browser would stop at the redirect.
 */
export function allowFormAnswersTo(reply: FastifyReply, origin: string | null | undefined): void {
  if (origin) void reply.helmet({ contentSecurityPolicy: pageContentSecurityPolicy(origin) });
}

/**
 * The same headers, and no-store, on a page answered outside a page scope: by createApp's first
 * hook (a page path no route takes, page-not-found.ts) or by a Nest controller.
 */
export function applyPageHeaders(request: FastifyRequest, reply: FastifyReply, https: boolean): void {
  helmet(pageHelmetOptions(https))(request.raw, reply.raw, () => undefined);
  void reply.header('cache-control', 'no-store');
}

/** A form body that is not flat fields each named once (400, the app's error answer). */
export class MalformedFormError extends Error {
  readonly statusCode = 400;

  constructor() {
    super('malformed form');
    this.name = 'MalformedFormError';
  }
}

/**
 * A hosted page's form body: flat text fields, each name once, at most 20 of them; anything else
 * is refused with 400 before a route runs. (The app's body limit, 64 KiB, applies first.)
 */
export function parseHostedForm(body: string): Record<string, string> {
  const fields: Record<string, string> = Object.create(null);
  let count = 0;
  for (const [name, value] of new URLSearchParams(body)) {
    count += 1;
    if (count > MAX_FORM_FIELDS || Object.hasOwn(fields, name)) throw new MalformedFormError();
    fields[name] = value;
  }
  return fields;
}

/**
 * A posted form's text fields (what formbody made of it, or of a JSON body the scope also reads):
 * anything not text, a number or an object where text belongs, is dropped, so that it fails the
 * CSRF check or the form's own validation rather than a string method.
 */
export function formFields(body: unknown): Record<string, string> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  return Object.fromEntries(
    Object.entries(body as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

/**
 * Takes the instance's form parser away (Nest's Fastify adapter adds one for every route): the
 * JSON API then answers a form with 415, and only page scopes, which add their own, take forms.
 * Call it on the app before it listens; page scopes inherit what it has then.
 */
export function removeFormParser(instance: FastifyInstance): void {
  if (instance.hasContentTypeParser(FORM_TYPE)) instance.removeContentTypeParser(FORM_TYPE);
}

export interface HostedPageScopeOptions {
  /** PUBLIC_BASE_URL is https: cookies are Secure and HSTS is sent. */
  https: boolean;
  /**
   * Where the CSRF secret is kept. `{ cookie }`: in a cookie of that name (HttpOnly,
   * SameSite=Strict, Secure on https), set by `reply.generateCsrf({ path })` for the page's path.
   * `'session'`: in the app's own server-side session, which a route hands to the request with
   * useSessionCsrfSecret before it renders or checks a form; no cookie of its own.
   */
  csrfSecret: { cookie: string } | 'session';
  /**
   * The page answering an error a route raised, a refused CSRF token (isCsrfRefusal) included.
   * An error raised before any route ran (a body too large or malformed, a content type that is
   * not a form or JSON) gets the app's own answer, as on every route.
   */
  errorPage(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void;
}

/**
 * Makes an encapsulated Fastify scope a scope of hosted pages (the recipient's pages, the checkout
 * page): form bodies (@fastify/formbody, strict fields), cookies (@fastify/cookie), the CSRF
 * tokens of @fastify/csrf-protection in the field `csrf_token`, which each route checks with
 * formTokenIsValid where its page decides, the pages' headers (@fastify/helmet, as
 * pageHelmetOptions), `Cache-Control: no-store` unless a route sets its own, and errors as pages.
 * Nothing leaks to the JSON API.
 */
export async function registerHostedPageScope(
  scope: FastifyInstance,
  options: HostedPageScopeOptions,
): Promise<void> {
  removeFormParser(scope);
  await scope.register(fastifyFormbody, { parser: parseHostedForm });
  await scope.register(fastifyCookie);
  const getToken = (request: FastifyRequest) => formField(request.body, HOSTED_CSRF_FIELD);
  if (options.csrfSecret === 'session') {
    scope.decorateRequest('session', null);
    await scope.register(fastifyCsrfProtection, {
      sessionPlugin: '@fastify/session',
      sessionKey: CSRF_SESSION_KEY,
      getToken,
      logLevel: 'info',
    });
  } else {
    await scope.register(fastifyCsrfProtection, {
      cookieKey: options.csrfSecret.cookie,
      cookieOpts: { httpOnly: true, sameSite: 'strict', secure: options.https },
      getToken,
      logLevel: 'info',
    });
  }
  await scope.register(fastifyHelmet, { global: true, ...pageHelmetOptions(options.https) });
  const routeRan = new WeakSet<FastifyRequest>();
  scope.addHook('preHandler', (request, _reply, done) => {
    routeRan.add(request);
    done();
  });
  scope.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  scope.setErrorHandler((error: FastifyError, request, reply) => {
    // Thrown on: the app's error handler answers, as for an API route.
    if (!routeRan.has(request)) throw error;
    options.errorPage(error, request, reply);
  });
}

/** Hands the session's CSRF secret to the request (a scope whose `csrfSecret` is `'session'`). */
export function useSessionCsrfSecret(request: FastifyRequest, secret: string): void {
  (request as unknown as { session: Record<string, string> }).session = { [CSRF_SESSION_KEY]: secret };
}

/**
 * The scope's CSRF check (@fastify/csrf-protection's), run by a route where its page decides, so
 * that its own answers come first (an ended session, an unknown or paid order): true when the
 * form carries a token made from this browser's secret. Otherwise the plugin has answered with
 * its 403 error, which the scope's errorPage turns into the page's "form expired" page, and the
 * route returns the reply.
 */
export function formTokenIsValid(request: FastifyRequest, reply: FastifyReply): boolean {
  let valid = false;
  request.server.csrfProtection(request, reply, () => {
    valid = true;
  });
  return valid;
}

/** A token refused by formTokenIsValid: missing, not of this secret, or no secret at all. */
export function isCsrfRefusal(error: { code?: string }): boolean {
  return error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET';
}
