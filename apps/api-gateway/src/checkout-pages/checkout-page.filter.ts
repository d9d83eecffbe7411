import type { AppConfig } from '@payouts/config';
import type { Environment } from '@payouts/domain';
import { toApiError } from '@payouts/http';
import type { PageNotFound } from '@payouts/platform';
import { applyPageHeaders, isCsrfRefusal, sendPage } from '@payouts/web';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { problemPage } from './checkout-page-views';

export interface CheckoutErrorPage {
  status: number;
  title: string;
  message: string;
  headers: Record<string, string>;
}

/**
 * What the payer reads when the page itself failed: the status the API would answer (and its
 * Retry-After) in words. toApiError logs the unexpected ones by message and stack, which never
 * hold the request body; the card number is only ever in the body.
 */
export function checkoutErrorPage(exception: unknown): CheckoutErrorPage {
  const { status, headers } = toApiError(exception);
  if (status === 404) return { ...PAYMENT_NOT_FOUND, headers };
  // Busy, a lost database connection, or another attempt on the order at the same moment: the
  // same payment may simply be tried again (a paid order's page then says it is paid).
  if (status === 503 || status === 409) {
    return {
      status,
      headers,
      title: 'Please try again',
      message: 'We could not take the payment just now. Open the payment link again in a minute.',
    };
  }
  return {
    status: 500,
    headers: {},
    title: 'Something went wrong',
    message: 'Something went wrong on our side. Open the payment link again in a few minutes.',
  };
}

export const PAYMENT_NOT_FOUND: CheckoutErrorPage = {
  status: 404,
  headers: {},
  title: 'Payment not found',
  message: 'This payment link is not valid. Check the link you were given.',
};

const PAGE_EXPIRED: CheckoutErrorPage = {
  status: 403,
  headers: {},
  title: 'Page expired',
  message: 'This form has expired. Open the payment link again.',
};

/** The checkout page's paths: `/checkout` and everything under it (the page is `/checkout/:token`). */
const CHECKOUT_PAGE_PATH = /^\/checkout(?:[/?]|$)/;

/**
 * A checkout page path that no route takes (`/checkout/`, `/checkout/a/b`) or whose target is
 * refused (`/checkout/%2e%2e`, a token with a percent-encoded character): the 404 page of an
 * unknown token, for a GET or a form post alike (createApp's hook, page-not-found.ts), with the
 * page's headers.
 */
export function checkoutPageNotFound(https: boolean): PageNotFound {
  return (request, reply) => {
    if (!CHECKOUT_PAGE_PATH.test(request.url)) return false;
    applyPageHeaders(request, reply, https);
    void sendErrorPage(reply, PAYMENT_NOT_FOUND, 'production');
    return true;
  };
}

/** The request's own protocol is http behind a proxy that ends TLS; the public URL is what payers open. */
export function servedOverHttps(config: AppConfig): boolean {
  return config.publicBaseUrl.startsWith('https://');
}

/** The environment of the order whose page a request is on, once the route has found the order. */
const orderEnvironments = new WeakMap<FastifyRequest, Environment>();

/** The order of this request's page is known: a refused form's page then carries its sandbox note. */
export function onOrderPage(request: FastifyRequest, environment: Environment): void {
  orderEnvironments.set(request, environment);
}

/**
 * The checkout page scope's answer to what a route raised: pages too, never the API's JSON (as
 * the recipient pages'). A refused CSRF token: "Page expired", in the order's environment.
 */
export function checkoutPageError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (isCsrfRefusal(error)) {
    void sendErrorPage(reply, PAGE_EXPIRED, orderEnvironments.get(request) ?? 'production');
    return;
  }
  // The order (and so its environment) is unknown here: no sandbox banner.
  void sendErrorPage(reply, checkoutErrorPage(error), 'production');
}

/** A page that says why there is no payment form, with its status and headers. */
export function sendErrorPage(
  reply: FastifyReply,
  page: CheckoutErrorPage,
  environment: Environment,
): FastifyReply {
  for (const [name, value] of Object.entries(page.headers)) void reply.header(name, value);
  return sendPage(reply, page.status, problemPage(environment, page.title, page.message));
}
