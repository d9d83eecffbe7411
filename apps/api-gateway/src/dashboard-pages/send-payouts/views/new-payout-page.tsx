import {
  DASHBOARD_PATHS,
  DetailsList,
  Field,
  Layout,
  Notice,
  PageFrame,
  PostForm,
  SelectField,
  SubmitButton,
} from '@payouts/web';
import { IDEMPOTENCY_FIELD, SEND_PAYOUTS_PATHS } from '../send-payouts-paths';
import type { PageRefusal } from '../send-payouts-refusals';
import { refusalText } from '../send-payouts-refusals';

/** The form's fields: Create Payout's fields of a link payout, under the API's names. */
export const PAYOUT_FORM_FIELDS = [
  'amount',
  'currency',
  'customer_email',
  'merchant_reference',
  'description',
  'case_reference',
  'original_payment_id',
] as const;
export type PayoutFormField = (typeof PAYOUT_FORM_FIELDS)[number];
export type PayoutFormValues = Partial<Record<PayoutFormField, string>>;

/** What the account can send now (Get Payout Balance), or why that is not known. */
export type PayoutAllowance =
  | {
      available: true;
      availableForNewCommitments: string;
      feePerPayout: string;
      minPayout: string;
      maxPayout: string;
      currency: string;
    }
  | { available: false; reason: string };

export interface NewPayoutPageProps {
  frame: PageFrame;
  values: PayoutFormValues;
  /** This render's idempotency key (a hidden field). */
  idempotencyKey: string;
  refusal?: PageRefusal;
  allowance: PayoutAllowance;
  /** The account's preconditions refuse payouts here (switched off, not approved): said up front. */
  blocked?: PageRefusal;
}

/**
 * Send a payout: Create Payout's form for a link payout. The service reserves amount plus fee and
 * gives a claim link for the merchant to send; the recipient chooses how to be paid.
 */
export function NewPayoutPage({
  frame,
  values,
  idempotencyKey,
  refusal,
  allowance,
  blocked,
}: NewPayoutPageProps) {
  const errorAt = (name: PayoutFormField) => (refusal?.param === name ? refusal.message : null);
  return (
    <Layout title="Send a payout" current="sendPayouts" frame={frame} path={SEND_PAYOUTS_PATHS.create}>
      {refusal ? (
        <Notice kind="error">
          <p>{refusalText(refusal)}</p>
          {refusal.code === 'payouts_disabled' ? <SettingsHint /> : null}
        </Notice>
      ) : blocked ? (
        <Notice kind="info">
          <p>{refusalText(blocked)}</p>
          {blocked.code === 'payouts_disabled' ? <SettingsHint /> : null}
        </Notice>
      ) : null}
      <p>
        The amount and the fee are reserved from the balance at once. You get a claim link to send to the
        recipient (the service does not send it); they verify their e-mail address and choose how to be paid.
        An unclaimed payout expires after 7 days and its money returns to the balance.
      </p>
      <h2>Balance</h2>
      {allowance.available ? (
        <DetailsList
          rows={[
            ['Available for new payouts', `${allowance.availableForNewCommitments} ${allowance.currency}`],
            ['Fee per payout', `${allowance.feePerPayout} ${allowance.currency}`],
            ['Payout amount', `${allowance.minPayout} to ${allowance.maxPayout} ${allowance.currency}`],
          ]}
        />
      ) : (
        <p>The balance cannot be shown: {allowance.reason}.</p>
      )}
      <h2>Payout</h2>
      <PostForm action={SEND_PAYOUTS_PATHS.create} csrfToken={frame.csrfToken} label="Send a payout">
        <input type="hidden" name={IDEMPOTENCY_FIELD} value={idempotencyKey} />
        <Field
          name="amount"
          label="Amount"
          hint="Such as 25.00: at most 2 decimal places. The fee is added on top."
          inputMode="decimal"
          autocomplete="off"
          required
          value={values.amount}
          error={errorAt('amount')}
        />
        <SelectField
          name="currency"
          label="Currency"
          options={[['USD', 'USD (US dollar)']]}
          value={values.currency ?? 'USD'}
          error={errorAt('currency')}
        />
        <Field
          name="customer_email"
          label="Recipient's e-mail address"
          hint="A code is sent there before the recipient can choose how to be paid."
          type="email"
          autocomplete="off"
          required
          value={values.customer_email}
          error={errorAt('customer_email')}
        />
        <Field
          name="merchant_reference"
          label="Merchant reference"
          hint="Your own id for this payout, such as a refund number: unique for this account, forever."
          autocomplete="off"
          required
          value={values.merchant_reference}
          error={errorAt('merchant_reference')}
        />
        <Field
          name="description"
          label="Description (optional)"
          hint="Shown to the recipient."
          autocomplete="off"
          value={values.description}
          error={errorAt('description')}
        />
        <Field
          name="case_reference"
          label="Case reference (optional)"
          hint="Your ticket id; never shown to the recipient."
          autocomplete="off"
          value={values.case_reference}
          error={errorAt('case_reference')}
        />
        <Field
          name="original_payment_id"
          label="Original payment (optional)"
          hint="The payment this refunds."
          autocomplete="off"
          value={values.original_payment_id}
          error={errorAt('original_payment_id')}
        />
        <SubmitButton class="primary">Create payout</SubmitButton>
      </PostForm>
      <p>
        <a href={SEND_PAYOUTS_PATHS.list}>Back to the payouts</a>
      </p>
    </Layout>
  );
}

function SettingsHint() {
  return (
    <p>
      An administrator switches payouts on in <a href={DASHBOARD_PATHS.settings}>Settings</a>.
    </p>
  );
}
