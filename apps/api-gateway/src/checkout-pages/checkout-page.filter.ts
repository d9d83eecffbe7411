import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { AppConfig } from '@payouts/config';
import { toApiError } from '@payouts/http';
import { APP_CONFIG } from '@payouts/platform';
import type { PageNotFound } from '@payouts/platform';
import type { FastifyReply } from 'fastify';
import { setPageHeaders } from '../recipient/page-headers';
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

const PAYMENT_NOT_FOUND: CheckoutErrorPage = {
  status: 404,
  headers: {},
  title: 'Payment not found',
  message: 'This payment link is not valid. Check the link you were given.',
};

/** The checkout page's paths: `/checkout` and everything under it (the page is `/checkout/:token`). */
const CHECKOUT_PAGE_PATH = /^\/checkout(?:[/?]|$)/;

/**
 * A checkout page path that no route takes (`/checkout/`, `/checkout/a/b`) or whose target is
 * refused (`/checkout/%2e%2e`, a token with a percent-encoded character): the 404 page of an
 * unknown token, for a GET or a form post alike (createApp's hook, page-not-found.ts).
 */
export function checkoutPageNotFound(https: boolean): PageNotFound {
  return (request, reply) => {
    if (!CHECKOUT_PAGE_PATH.test(request.url)) return false;
    sendErrorPage(reply, PAYMENT_NOT_FOUND, https);
    return true;
  };
}

/** The request's own protocol is http behind a proxy that ends TLS; the public URL is what payers open. */
export function servedOverHttps(config: AppConfig): boolean {
  return config.publicBaseUrl.startsWith('https://');
}

/** Failures on the hosted checkout page are pages too, never the API's JSON (as the recipient pages). */
@Catch()
export class CheckoutPageFilter implements ExceptionFilter {
  private readonly https: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.https = servedOverHttps(config);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    sendErrorPage(host.switchToHttp().getResponse<FastifyReply>(), checkoutErrorPage(exception), this.https);
  }
}

function sendErrorPage(reply: FastifyReply, page: CheckoutErrorPage, https: boolean): void {
  setPageHeaders(reply, { https });
  for (const [name, value] of Object.entries(page.headers)) void reply.header(name, value);
  // The order (and so its environment) is unknown here: no sandbox banner.
  void reply
    .status(page.status)
    .type('text/html; charset=utf-8')
    .send(problemPage('production', page.title, page.message));
}
