import type { OrderView } from '@payouts/checkout';
import type { Environment } from '@payouts/domain';
import { html, SafeHtml } from '../recipient/views/html';
import { csrfInput, errorSummary, STYLESHEET_PATH, textField } from '../recipient/views/layout';
import type { FormErrors } from './payment-form';

/** What every checkout page shows: who is paid, for what, how much. */
export interface PageContext {
  environment: Environment;
  merchantName: string;
  order: OrderView;
  /** The order's decimal amount with 2 places (PageOrder.amount), never formatted from `Amount`. */
  amount: string;
}

const DECLINES: Record<string, string> = {
  card_declined: 'Your card was declined. Try another card.',
  insufficient_funds: 'Your card was declined: insufficient funds. Try another card.',
  wallet_declined: 'Your wallet declined the payment. Try another account.',
};

/** One column, readable on a phone first; no script. */
function layout(environment: Environment, title: string, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title} · Checkout</title>
        <link rel="stylesheet" href="${STYLESHEET_PATH}" />
      </head>
      <body>
        ${environment === 'sandbox' ? html`<p class="sandbox" role="note">Sandbox: test payments, no real money moves.</p>` : ''}
        <main id="main">
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html> `.value;
}

function summary({ merchantName, order, amount }: PageContext): SafeHtml {
  return html`<p class="payer">${merchantName}</p>
    ${order.product ? html`<p>${order.product}</p>` : ''}
    <p class="amount">${amount} ${order.currency}</p>`;
}

/** The payment form of the order's method, with what went wrong last time, if anything. */
export function paymentPage(
  context: PageContext,
  form: {
    action: string;
    csrfToken: string;
    errors?: FormErrors;
    decline?: string | null;
    values?: Record<string, string>;
  },
): string {
  const errors = form.errors ?? {};
  const declined = form.decline ? DECLINES[form.decline] : undefined;
  const fields =
    context.order.method === 'card'
      ? html`${textField({ name: 'card_number', label: 'Card number', inputmode: 'numeric', autocomplete: 'cc-number', error: errors.card_number })}
        ${textField({ name: 'expiry', label: 'Expiry (MM/YY)', inputmode: 'numeric', autocomplete: 'cc-exp', error: errors.expiry, value: form.values?.expiry })}
        ${textField({ name: 'security_code', label: 'Security code', inputmode: 'numeric', autocomplete: 'cc-csc', error: errors.security_code })}
        ${textField({ name: 'name_on_card', label: 'Name on card', autocomplete: 'cc-name', error: errors.name_on_card, value: form.values?.name_on_card })}`
      : html`${textField({ name: 'wallet_account', label: 'Wallet account', error: errors.wallet_account, value: form.values?.wallet_account })}`;
  return layout(
    context.environment,
    'Pay',
    html`${summary(context)}
      ${declined ? html`<div class="errors" role="alert"><p>${declined}</p></div>` : ''}
      ${errorSummary(errors)}
      <form method="post" action="${form.action}" novalidate>
        ${csrfInput(form.csrfToken)} ${fields}
        <button type="submit">Pay</button>
      </form>
      ${context.environment === 'sandbox' ? sandboxValues(context.order.method === 'card') : ''}`,
  );
}

function sandboxValues(card: boolean): SafeHtml {
  return card
    ? html`<p class="test-values">
        Test cards: 4242 4242 4242 4242 is paid; 4000 0000 0000 0002 is declined; 4000 0000 0000 9995 is
        declined for insufficient funds.
      </p>`
    : html`<p class="test-values">
        Test wallets: an account ending in "fail" is declined; any other is paid.
      </p>`;
}

export function paidPage(context: PageContext): string {
  return layout(
    context.environment,
    'Payment received',
    html`${summary(context)}
      <p class="status">Paid. Thank you.</p>
      <p>You can close this page.</p>`,
  );
}

export function problemPage(environment: Environment, title: string, message: string): string {
  return layout(environment, title, html`<p>${message}</p>`);
}
