import type { OrderView } from '@payouts/checkout';
import type { Environment } from '@payouts/domain';
import { ErrorSummary, HostedField, HostedPage, HostedPostForm } from '@payouts/web';
import type { ComponentChildren, VNode } from 'preact';
import { STYLESHEET_PATH } from '../recipient/views/layout';
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

/** One column, readable on a phone first; no script: the recipient pages' look, titled Checkout. */
function CheckoutPage(props: { environment: Environment; title: string; children?: ComponentChildren }) {
  return (
    <HostedPage
      title={props.title}
      site="Checkout"
      stylesheet={STYLESHEET_PATH}
      testDataNote={props.environment === 'sandbox' ? 'Sandbox: test payments, no real money moves.' : null}
    >
      {props.children}
    </HostedPage>
  );
}

function Summary({ context: { merchantName, order, amount } }: { context: PageContext }) {
  return (
    <>
      <p class="payer">{merchantName}</p>
      {order.product ? <p>{order.product}</p> : null}
      <p class="amount">{`${amount} ${order.currency}`}</p>
    </>
  );
}

export interface PaymentForm {
  action: string;
  csrfToken: string;
  errors?: FormErrors;
  decline?: string | null;
  values?: Record<string, string>;
}

/** The payment form of the order's method, with what went wrong last time, if anything. */
export function PaymentPage({ context, form }: { context: PageContext; form: PaymentForm }) {
  const errors = form.errors ?? {};
  const declined = form.decline ? DECLINES[form.decline] : undefined;
  const card = context.order.method === 'card';
  return (
    <CheckoutPage environment={context.environment} title="Pay">
      <Summary context={context} />
      {declined ? (
        <div class="errors" role="alert">
          <p>{declined}</p>
        </div>
      ) : null}
      <ErrorSummary errors={errors} />
      <HostedPostForm action={form.action} csrfToken={form.csrfToken} noValidate>
        {card ? (
          <>
            <HostedField
              name="card_number"
              label="Card number"
              inputMode="numeric"
              autocomplete="cc-number"
              error={errors.card_number}
            />
            <HostedField
              name="expiry"
              label="Expiry (MM/YY)"
              inputMode="numeric"
              autocomplete="cc-exp"
              error={errors.expiry}
              value={form.values?.expiry}
            />
            <HostedField
              name="security_code"
              label="Security code"
              inputMode="numeric"
              autocomplete="cc-csc"
              error={errors.security_code}
            />
            <HostedField
              name="name_on_card"
              label="Name on card"
              autocomplete="cc-name"
              error={errors.name_on_card}
              value={form.values?.name_on_card}
            />
          </>
        ) : (
          <HostedField
            name="wallet_account"
            label="Wallet account"
            error={errors.wallet_account}
            value={form.values?.wallet_account}
          />
        )}
        <button type="submit">Pay</button>
      </HostedPostForm>
      {context.environment === 'sandbox' ? <SandboxValues card={card} /> : null}
    </CheckoutPage>
  );
}

function SandboxValues({ card }: { card: boolean }) {
  return card ? (
    <p class="test-values">
      Test cards: 4242 4242 4242 4242 is paid; 4000 0000 0000 0002 is declined; 4000 0000 0000 9995 is
      declined for insufficient funds.
    </p>
  ) : (
    <p class="test-values">Test wallets: an account ending in "fail" is declined; any other is paid.</p>
  );
}

export function PaidPage({ context }: { context: PageContext }) {
  return (
    <CheckoutPage environment={context.environment} title="Payment received">
      <Summary context={context} />
      <p class="status">Paid. Thank you.</p>
      <p>You can close this page.</p>
    </CheckoutPage>
  );
}

export function problemPage(environment: Environment, title: string, message: string): VNode {
  return (
    <CheckoutPage environment={environment} title={title}>
      <p>{message}</p>
    </CheckoutPage>
  );
}
