import type { ReceivingMethod } from '@payouts/domain';
import { html, SafeHtml } from './html';
import { csrfInput, errorSummary, Frame, layout, notice, textField } from './layout';

export interface PayoutSummary {
  /** Who is paying: the merchant's account name, never trusted as markup. */
  merchantName: string;
  amount: string;
  currency: string;
  description: string | null;
}

/** Who pays and how much, at the top of every page about a payout. */
function amountBlock(payout: PayoutSummary, verb = 'is sending you'): SafeHtml {
  return html`<p class="payer">${payout.merchantName} ${verb}</p>
    <p class="amount">$${payout.amount} <span class="currency">${payout.currency}</span></p>
    ${payout.description ? html`<p>${payout.description}</p>` : ''}`;
}

/** The payer line of the status page: a paid payout was sent, an ended one is no longer coming. */
function payerVerb(status: string): string {
  if (status === 'paid') return 'sent you';
  if (['cancelled', 'expired', 'failed'].includes(status)) return 'was sending you';
  return 'is sending you';
}

export function verifyEmailPage(
  frame: Frame,
  view: {
    payout: PayoutSummary;
    maskedEmail: string;
    codeSent: boolean;
    csrfToken: string;
    actions: { sendCode: string; verify: string };
    message?: string | null;
    error?: string | null;
  },
): string {
  return layout(
    frame,
    html`${amountBlock(view.payout)}
      <p>
        To receive this payout, confirm that you can read e-mail sent to <strong>${view.maskedEmail}</strong>.
      </p>
      ${notice(view.message)} ${view.error ? errorSummary({ code: view.error }) : ''}
      ${
        view.codeSent
          ? html`<form method="post" action="${view.actions.verify}" novalidate>
              ${csrfInput(view.csrfToken)}
              ${textField({
                name: 'code',
                label: 'Verification code',
                hint: 'The 6-digit code we e-mailed you. It is valid for 10 minutes.',
                autocomplete: 'one-time-code',
                inputmode: 'numeric',
                error: view.error ?? undefined,
              })}
              <button type="submit">Verify</button>
            </form>`
          : ''
      }
      <form method="post" action="${view.actions.sendCode}">
        ${csrfInput(view.csrfToken)}
        <button type="submit" ${view.codeSent ? html` class="secondary"` : ''}>
          ${view.codeSent ? 'Send a new code' : 'Send me a code'}
        </button>
      </form>`,
  );
}

export const METHOD_LABELS: Record<ReceivingMethod, string> = {
  bank_transfer: 'Bank transfer',
  debit_card: 'Debit card',
  wallet: 'Wallet (e-mail or phone)',
};

export function chooseMethodPage(
  frame: Frame,
  view: {
    payout: PayoutSummary;
    csrfToken: string;
    action: string;
    method: ReceivingMethod | null;
    values: Record<string, string>;
    errors: Record<string, string>;
    sandbox: boolean;
  },
): string {
  const checked = (method: ReceivingMethod) => (view.method === method ? html` checked` : '');
  const v = (name: string) => view.values[name] ?? '';
  const e = (name: string) => view.errors[name];
  return layout(
    frame,
    html`${amountBlock(view.payout)} ${errorSummary(view.errors)}
      <form method="post" action="${view.action}" novalidate>
        ${csrfInput(view.csrfToken)}
        <fieldset>
          <legend id="method">How would you like to receive it?</legend>
          ${(Object.keys(METHOD_LABELS) as ReceivingMethod[]).map(
            (method) =>
              html`<div class="method">
                <input
                  type="radio"
                  id="method-${method}"
                  name="method"
                  value="${method}"
                  ${checked(method)}
                />
                <label for="method-${method}">${METHOD_LABELS[method]}</label>
              </div>`,
          )}
        </fieldset>
        <fieldset>
          <legend>Bank transfer</legend>
          ${textField({ name: 'account_holder', label: 'Account holder', value: v('account_holder'), error: e('account_holder'), autocomplete: 'name' })}
          ${textField({ name: 'routing_number', label: 'Routing number', value: v('routing_number'), error: e('routing_number'), inputmode: 'numeric', hint: '9 digits' })}
          ${textField({ name: 'account_number', label: 'Account number', value: v('account_number'), error: e('account_number'), inputmode: 'numeric' })}
        </fieldset>
        <fieldset>
          <legend>Debit card</legend>
          ${textField({ name: 'cardholder_name', label: 'Name on card', value: v('cardholder_name'), error: e('cardholder_name'), autocomplete: 'cc-name' })}
          ${textField({ name: 'card_number', label: 'Card number', value: v('card_number'), error: e('card_number'), autocomplete: 'cc-number', inputmode: 'numeric' })}
          ${textField({ name: 'expiry', label: 'Expiry (MM/YY)', value: v('expiry'), error: e('expiry'), autocomplete: 'cc-exp', inputmode: 'numeric' })}
        </fieldset>
        <fieldset>
          <legend>Wallet</legend>
          ${textField({ name: 'wallet_handle', label: 'Wallet e-mail or phone (+15551234567)', value: v('wallet_handle'), error: e('wallet_handle'), autocomplete: 'email' })}
        </fieldset>
        ${
          view.sandbox
            ? html`<p class="test-values">
                Sandbox test values: an account, card or phone number ending in 0002 fails, ending in 0003
                goes to review; wallet fail@… fails, review@… goes to review.
              </p>`
            : ''
        }
        <button type="submit">Continue</button>
      </form>`,
  );
}

export function confirmPage(
  frame: Frame,
  view: {
    payout: PayoutSummary;
    methodLabel: string;
    details: string;
    csrfToken: string;
    actions: { confirm: string; change: string };
  },
): string {
  return layout(
    frame,
    html`${amountBlock(view.payout)}
      <dl>
        <dt>Method</dt>
        <dd>${view.methodLabel}</dd>
        <dt>Paid to</dt>
        <dd>${view.details}</dd>
      </dl>
      <p>Once you confirm, the payout is sent and cannot be changed.</p>
      <form method="post" action="${view.actions.confirm}">
        ${csrfInput(view.csrfToken)}
        <button type="submit">Confirm and receive $${view.payout.amount}</button>
      </form>
      <form method="get" action="${view.actions.change}">
        <input type="hidden" name="change" value="1" />
        <button type="submit" class="secondary">Change details</button>
      </form>`,
  );
}

const STATUS_TEXT: Record<string, { heading: string; text: string }> = {
  awaiting_choice: { heading: 'Waiting for you', text: 'Choose how to receive this payout.' },
  processing: { heading: 'On its way', text: 'Your payout is being sent. This usually takes a few minutes.' },
  review_required: {
    heading: 'Being checked',
    text: 'Your payout is being reviewed before it is sent. No action is needed from you.',
  },
  paid: { heading: 'Paid', text: 'Your payout has been sent.' },
  failed: {
    heading: 'Not sent',
    text: 'We could not send this payout. The sender has been told; please contact them.',
  },
  expired: { heading: 'Expired', text: 'This payout was not claimed in time. Please contact the sender.' },
  cancelled: { heading: 'Cancelled', text: 'The sender cancelled this payout.' },
};

export function statusPage(
  frame: Frame,
  view: {
    payout: PayoutSummary & { status: string; safeReason: string | null; receiptReference: string | null };
    methodLabel: string | null;
    returnUrl: string | null;
  },
): string {
  const status = STATUS_TEXT[view.payout.status] ?? { heading: view.payout.status, text: '' };
  const queued = view.payout.status === 'processing' && view.payout.safeReason === 'awaiting_float';
  return layout(
    frame,
    html`${amountBlock(view.payout, payerVerb(view.payout.status))}
      <p class="status" role="status" data-status="${view.payout.status}">${status.heading}</p>
      <p>
        ${queued ? 'Your payout is queued and will be sent automatically. No action is needed from you.' : status.text}
      </p>
      <dl>
        ${
          view.methodLabel
            ? html`<dt>Method</dt>
                <dd>${view.methodLabel}</dd>`
            : ''
        }
        ${
          view.payout.receiptReference
            ? html`<dt>Receipt</dt>
                <dd>${view.payout.receiptReference}</dd>`
            : ''
        }
      </dl>
      ${view.returnUrl ? html`<p><a href="${view.returnUrl}">Return to the merchant</a></p>` : ''}
      <p class="hint">You can come back to this page at any time while this browser session lasts.</p>`,
  );
}

export function problemPage(frame: Frame, view: { message: string }): string {
  return layout(frame, html`<p>${view.message}</p>`);
}
