import type { ReceivingMethod } from '@payouts/domain';
import { ErrorSummary, HostedField, HostedFieldProps, HostedPostForm } from '@payouts/web';
import { Frame, Notice, RecipientPage } from './layout';

export interface PayoutSummary {
  /** Who is paying: the merchant's account name, shown as text. */
  merchantName: string;
  amount: string;
  currency: string;
  description: string | null;
}

/** Who pays and how much, at the top of every page about a payout. */
function AmountBlock({ payout, verb = 'is sending you' }: { payout: PayoutSummary; verb?: string }) {
  return (
    <>
      <p class="payer">{`${payout.merchantName} ${verb}`}</p>
      <p class="amount">
        {`$${payout.amount} `}
        <span class="currency">{payout.currency}</span>
      </p>
      {payout.description ? <p>{payout.description}</p> : null}
    </>
  );
}

/** The payer line of the status page: a paid payout was sent, an ended one is no longer coming. */
function payerVerb(status: string): string {
  if (status === 'paid') return 'sent you';
  if (['cancelled', 'expired', 'failed'].includes(status)) return 'was sending you';
  return 'is sending you';
}

export interface VerifyEmailView {
  payout: PayoutSummary;
  maskedEmail: string;
  codeSent: boolean;
  csrfToken: string;
  actions: { sendCode: string; verify: string };
  message?: string | null;
  error?: string | null;
}

export function VerifyEmailPage({ frame, view }: { frame: Frame; view: VerifyEmailView }) {
  return (
    <RecipientPage {...frame}>
      <AmountBlock payout={view.payout} />
      <p>
        To receive this payout, confirm that you can read e-mail sent to <strong>{view.maskedEmail}</strong>.
      </p>
      <Notice text={view.message} />
      {view.error ? <ErrorSummary errors={{ code: view.error }} /> : null}
      {view.codeSent ? (
        <HostedPostForm action={view.actions.verify} csrfToken={view.csrfToken} noValidate>
          <HostedField
            name="code"
            label="Verification code"
            hint="The 6-digit code we e-mailed you. It is valid for 10 minutes."
            autocomplete="one-time-code"
            inputMode="numeric"
            error={view.error}
          />
          <button type="submit">Verify</button>
        </HostedPostForm>
      ) : null}
      <HostedPostForm action={view.actions.sendCode} csrfToken={view.csrfToken}>
        <button type="submit" class={view.codeSent ? 'secondary' : undefined}>
          {view.codeSent ? 'Send a new code' : 'Send me a code'}
        </button>
      </HostedPostForm>
    </RecipientPage>
  );
}

export const METHOD_LABELS: Record<ReceivingMethod, string> = {
  bank_transfer: 'Bank transfer',
  debit_card: 'Debit card',
  wallet: 'Wallet (e-mail or phone)',
};

/** The receiving details each method asks for, in one form (the chosen method's are read). */
const DETAIL_FIELDSETS: readonly { legend: string; fields: readonly HostedFieldProps[] }[] = [
  {
    legend: 'Bank transfer',
    fields: [
      { name: 'account_holder', label: 'Account holder', autocomplete: 'name' },
      { name: 'routing_number', label: 'Routing number', inputMode: 'numeric', hint: '9 digits' },
      { name: 'account_number', label: 'Account number', inputMode: 'numeric' },
    ],
  },
  {
    legend: 'Debit card',
    fields: [
      { name: 'cardholder_name', label: 'Name on card', autocomplete: 'cc-name' },
      { name: 'card_number', label: 'Card number', autocomplete: 'cc-number', inputMode: 'numeric' },
      { name: 'expiry', label: 'Expiry (MM/YY)', autocomplete: 'cc-exp', inputMode: 'numeric' },
    ],
  },
  {
    legend: 'Wallet',
    fields: [
      { name: 'wallet_handle', label: 'Wallet e-mail or phone (+15551234567)', autocomplete: 'email' },
    ],
  },
];

export interface ChooseMethodView {
  payout: PayoutSummary;
  csrfToken: string;
  action: string;
  method: ReceivingMethod | null;
  values: Record<string, string>;
  errors: Record<string, string>;
  sandbox: boolean;
}

export function ChooseMethodPage({ frame, view }: { frame: Frame; view: ChooseMethodView }) {
  return (
    <RecipientPage {...frame}>
      <AmountBlock payout={view.payout} />
      <ErrorSummary errors={view.errors} />
      <HostedPostForm action={view.action} csrfToken={view.csrfToken} noValidate>
        <fieldset>
          <legend id="method">How would you like to receive it?</legend>
          {(Object.keys(METHOD_LABELS) as ReceivingMethod[]).map((method) => (
            <div class="method" key={method}>
              <input
                type="radio"
                id={`method-${method}`}
                name="method"
                value={method}
                checked={view.method === method}
              />
              <label for={`method-${method}`}>{METHOD_LABELS[method]}</label>
            </div>
          ))}
        </fieldset>
        {DETAIL_FIELDSETS.map(({ legend, fields }) => (
          <fieldset key={legend}>
            <legend>{legend}</legend>
            {fields.map((detail) => (
              <HostedField
                key={detail.name}
                {...detail}
                value={view.values[detail.name] ?? ''}
                error={view.errors[detail.name]}
              />
            ))}
          </fieldset>
        ))}
        {view.sandbox ? (
          <p class="test-values">
            Sandbox test values: an account, card or phone number ending in 0002 fails, ending in 0003 goes to
            review; wallet fail@… fails, review@… goes to review.
          </p>
        ) : null}
        <button type="submit">Continue</button>
      </HostedPostForm>
    </RecipientPage>
  );
}

export interface ConfirmView {
  payout: PayoutSummary;
  methodLabel: string;
  details: string;
  csrfToken: string;
  actions: { confirm: string; change: string };
}

export function ConfirmPage({ frame, view }: { frame: Frame; view: ConfirmView }) {
  return (
    <RecipientPage {...frame}>
      <AmountBlock payout={view.payout} />
      <dl>
        <dt>Method</dt>
        <dd>{view.methodLabel}</dd>
        <dt>Paid to</dt>
        <dd>{view.details}</dd>
      </dl>
      <p>Once you confirm, the payout is sent and cannot be changed.</p>
      <HostedPostForm action={view.actions.confirm} csrfToken={view.csrfToken}>
        <button type="submit">{`Confirm and receive $${view.payout.amount}`}</button>
      </HostedPostForm>
      <form method="get" action={view.actions.change}>
        <input type="hidden" name="change" value="1" />
        <button type="submit" class="secondary">
          Change details
        </button>
      </form>
    </RecipientPage>
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

export interface StatusView {
  payout: PayoutSummary & { status: string; safeReason: string | null; receiptReference: string | null };
  methodLabel: string | null;
  returnUrl: string | null;
}

export function StatusPage({ frame, view }: { frame: Frame; view: StatusView }) {
  const status = STATUS_TEXT[view.payout.status] ?? { heading: view.payout.status, text: '' };
  const queued = view.payout.status === 'processing' && view.payout.safeReason === 'awaiting_float';
  return (
    <RecipientPage {...frame}>
      <AmountBlock payout={view.payout} verb={payerVerb(view.payout.status)} />
      <p class="status" role="status" data-status={view.payout.status}>
        {status.heading}
      </p>
      <p>
        {queued
          ? 'Your payout is queued and will be sent automatically. No action is needed from you.'
          : status.text}
      </p>
      <dl>
        {view.methodLabel ? (
          <>
            <dt>Method</dt>
            <dd>{view.methodLabel}</dd>
          </>
        ) : null}
        {view.payout.receiptReference ? (
          <>
            <dt>Receipt</dt>
            <dd>{view.payout.receiptReference}</dd>
          </>
        ) : null}
      </dl>
      {view.returnUrl ? (
        <p>
          <a href={view.returnUrl}>Return to the merchant</a>
        </p>
      ) : null}
      <p class="hint">You can come back to this page at any time while this browser session lasts.</p>
    </RecipientPage>
  );
}

export function ProblemPage({ frame, message }: { frame: Frame; message: string }) {
  return (
    <RecipientPage {...frame}>
      <p>{message}</p>
    </RecipientPage>
  );
}
