import { Body, Controller, Get, Headers, Inject, Param, Post, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { AccountsRepository } from '@payouts/accounts';
import {
  hashPageToken,
  isWellFormedPageToken,
  OrderQueries,
  PageOrder,
  PaymentInProgressError,
  PayOrderCommand,
  PayOrderResult,
} from '@payouts/checkout';
import type { Clock } from '@payouts/clock';
import type { AppConfig } from '@payouts/config';
import { DomainError } from '@payouts/domain';
import { APP_CONFIG, CLOCK } from '@payouts/platform';
import type { FastifyReply } from 'fastify';
import { ACCOUNTS } from '../gateway.tokens';
import { readCookie, setPageHeaders } from '../recipient/page-headers';
import { CHECKOUT_CSRF_COOKIE, CheckoutCsrf } from './checkout-csrf';
import { CheckoutPageFilter, servedOverHttps } from './checkout-page.filter';
import { PageContext, paidPage, paymentPage, problemPage } from './checkout-page-views';
import { readCardForm, readWalletForm } from './payment-form';

type Page = { status: number; body: string; location?: string };

/**
 * The hosted checkout page (docs/design.md#hosted-page): `order_url` opens the form of the order's method;
 * its POST is one attempt (PayOrderCommand). Declined: the form again with why. Paid: 303 to
 * `redirect_url` with `order_id` added, or to this page, which then says it is paid. Expired: 410
 * from `expires_at` on the order's clock. Unknown token: 404. Every answer is a page, never JSON
 * (CheckoutPageFilter for what fails).
 */
@ApiExcludeController()
@UseFilters(CheckoutPageFilter)
@Controller('checkout')
export class CheckoutPagesController {
  /** Served over https (behind a TLS proxy, too): Secure cookie and HSTS, as the recipient pages. */
  private readonly https: boolean;

  constructor(
    private readonly orders: OrderQueries,
    private readonly commands: CommandBus,
    private readonly csrf: CheckoutCsrf,
    @Inject(ACCOUNTS) private readonly accounts: AccountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.https = servedOverHttps(config);
  }

  @Get(':token')
  async show(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    const found = await this.pageOrder(token);
    if ('status' in found) return this.send(reply, found);
    const { order, context } = found;
    if (order.view.status === 'SUCCESS') return this.send(reply, { status: 200, body: paidPage(context) });
    const csrf = this.csrf.issue(token);
    reply.header('set-cookie', csrfCookie(token, csrf.nonce, this.https));
    return this.send(
      reply,
      {
        status: 200,
        body: paymentPage(context, {
          action: `/checkout/${token}`,
          csrfToken: csrf.token,
          decline: order.lastDecline,
        }),
      },
      order.redirectUrl,
    );
  }

  @Post(':token')
  async pay(
    @Param('token') token: string,
    @Body() body: unknown,
    @Headers('cookie') cookie: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const found = await this.pageOrder(token);
    if ('status' in found) return this.send(reply, found);
    const { order, context } = found;
    // A paid order is never charged again: the page says it is paid.
    if (order.view.status === 'SUCCESS') return this.send(reply, { status: 200, body: paidPage(context) });
    const fields = formFields(body);
    if (!this.csrf.check(token, readCookie(cookie, CHECKOUT_CSRF_COOKIE), fields.csrf_token)) {
      return this.send(reply, {
        status: 403,
        body: problemPage(
          context.environment,
          'Page expired',
          'This form has expired. Open the payment link again.',
        ),
      });
    }
    const csrf = this.csrf.issue(token);
    reply.header('set-cookie', csrfCookie(token, csrf.nonce, this.https));
    const form = { action: `/checkout/${token}`, csrfToken: csrf.token };
    const read =
      order.view.method === 'card'
        ? readCardForm(fields, this.clock.now(context.environment))
        : readWalletForm(fields);
    // What the payer may see again (never the card number or its security code).
    const values = {
      expiry: fields.expiry ?? '',
      name_on_card: fields.name_on_card ?? '',
      wallet_account: fields.wallet_account ?? '',
    };
    if (read.errors) {
      const page = { status: 400, body: paymentPage(context, { ...form, errors: read.errors, values }) };
      return this.send(reply, page, order.redirectUrl);
    }
    let result: PayOrderResult;
    try {
      result = await this.commands.execute(new PayOrderCommand(order.view.id, read.instrument));
    } catch (error) {
      if (error instanceof DomainError && error.code === 'order_not_payable') {
        const again = await this.pageOrder(token);
        if (!('status' in again) && again.order.view.status === 'SUCCESS') {
          return this.send(reply, { status: 200, body: paidPage(again.context) });
        }
        return this.send(reply, expired(context.environment));
      }
      // Another attempt on this order (another tab, another process) is still with the acquirer.
      if (error instanceof PaymentInProgressError) {
        return this.send(reply, {
          status: 409,
          body: problemPage(
            context.environment,
            'Payment in progress',
            'A payment for this order is being processed. Open the payment link again in a moment to see its outcome.',
          ),
        });
      }
      throw error;
    }
    if (!result.paid) {
      // 402: the attempt was made and refused; the form is there to try again.
      const page = { status: 402, body: paymentPage(context, { ...form, decline: result.reason, values }) };
      return this.send(reply, page, order.redirectUrl);
    }
    const location = order.redirectUrl ? withOrderId(order.redirectUrl, order.view.id) : `/checkout/${token}`;
    return this.send(reply, { status: 303, body: '', location });
  }

  /** The order and what its page shows, or the page that says why there is none. */
  private async pageOrder(token: string): Promise<{ order: PageOrder; context: PageContext } | Page> {
    const order = isWellFormedPageToken(token)
      ? await this.orders.byPageTokenHash(hashPageToken(token))
      : null;
    if (!order) {
      return {
        status: 404,
        body: problemPage(
          'production',
          'Payment not found',
          'This payment link is not valid. Check the link you were given.',
        ),
      };
    }
    const past = Date.parse(order.view.expires_at) <= this.clock.now(order.environment).getTime();
    if (order.view.status === 'EXPIRED' || (order.view.status === 'PENDING' && past))
      return expired(order.environment);
    const merchantName = (await this.accounts.accountName(order.accountId)) ?? 'the merchant';
    return {
      order,
      context: { environment: order.environment, merchantName, order: order.view, amount: order.amount },
    };
  }

  /**
   * A page with its security headers. A page with the payment form lets that form's answer send
   * the browser on to the merchant's `redirect_url` (CSP form-action covers the redirect).
   */
  private send(reply: FastifyReply, page: Page, redirectUrl?: string | null): void {
    const formOrigin = redirectUrl ? new URL(redirectUrl).origin : null;
    setPageHeaders(reply, { https: this.https, formOrigin });
    if (page.location) void reply.header('location', page.location);
    void reply.status(page.status).type('text/html; charset=utf-8').send(page.body);
  }
}

function expired(environment: PageContext['environment']): Page {
  return {
    status: 410,
    body: problemPage(
      environment,
      'Payment expired',
      'This payment has expired. Ask the shop for a new payment link.',
    ),
  };
}

/** Scoped to this order's page; Secure whenever the page is served over https (as the recipient's). */
function csrfCookie(token: string, nonce: string, https: boolean): string {
  const cookie = `${CHECKOUT_CSRF_COOKIE}=${nonce}; Path=/checkout/${token}; HttpOnly; SameSite=Strict`;
  return https ? `${cookie}; Secure` : cookie;
}

function withOrderId(redirectUrl: string, orderId: number): string {
  const url = new URL(redirectUrl);
  url.searchParams.set('order_id', String(orderId));
  return url.href;
}

/**
 * The posted form's text fields. The page's own form sends only strings (form-body.ts); anything
 * else (a JSON body, a number or object where text belongs) is dropped here, so that it fails the
 * CSRF check or the form's validation instead of a string method.
 */
function formFields(body: unknown): Record<string, string> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  return Object.fromEntries(
    Object.entries(body as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}
