import type { PayoutMerchantView } from '@payouts/read-models';
import {
  CopyField,
  DetailsList,
  Layout,
  LocalTime,
  Notice,
  PageFrame,
  PostForm,
  SubmitButton,
  Timeline,
  TimelineEntry,
} from '@payouts/web';
import { IDEMPOTENCY_FIELD, SEND_PAYOUTS_PATHS } from '../send-payouts-paths';
import type { PageRefusal } from '../send-payouts-refusals';
import { refusalText } from '../send-payouts-refusals';
import { money, statusWords } from './payout-words';

/** The claim link of a link payout awaiting its recipient, or why it is not shown. */
export type PayoutLink = { url: string; expiresAt: string } | { problem: PageRefusal } | null;

export interface PayoutPageProps {
  frame: PageFrame;
  payout: PayoutMerchantView;
  timeline: readonly TimelineEntry[];
  link: PayoutLink;
  /** The outcome of the action just done (a notice code's text). */
  notice?: string | null;
  refusal?: PageRefusal;
  /** This render's idempotency keys, one per action form. */
  keys: { rotate: string; cancel: string };
}

/** One payout: its fields as Get Payout gives them, its claim link, its actions and its history. */
export function PayoutPage({ frame, payout, timeline, link, notice, refusal, keys }: PayoutPageProps) {
  const timeZone = frame.timeZone;
  const at = (value: string | null) => (value ? <LocalTime at={value} timeZone={timeZone} /> : null);
  const open = payout.status === 'awaiting_choice';
  return (
    <Layout
      // Not the id: a heading of one long word would widen a phone's page (the id is the first field).
      title="Payout details"
      current="sendPayouts"
      frame={frame}
      // The other environment has no such payout: the switch goes back to the list.
      path={SEND_PAYOUTS_PATHS.list}
    >
      {refusal ? (
        <Notice kind="error">
          <p>{refusalText(refusal)}</p>
        </Notice>
      ) : notice ? (
        <Notice kind="success">
          <p>{notice}</p>
        </Notice>
      ) : null}
      <h2>Details</h2>
      <DetailsList
        rows={[
          ['Payout ID', <span class="send-payouts-id">{payout.payout_id}</span>],
          ['Status', `${statusWords(payout.status)} (${payout.status})`],
          ['Status version', String(payout.status_version)],
          ['Amount', money(payout.amount, payout.currency)],
          ['Fee', money(payout.fee, payout.currency)],
          ['Total reserved', money(payout.total_reserved, payout.currency)],
          ['Funds released', payout.funds_released ? 'Yes: returned to the balance' : 'No'],
          ['Merchant reference', payout.merchant_reference],
          ['Customer ID', payout.customer_id],
          ['Delivery', payout.delivery === 'link' ? 'Claim link (link)' : 'Redirect (redirect)'],
          ['Source', payout.source],
          ['Case reference', payout.case_reference],
          ['Method chosen', payout.selected_method],
          ['Reason', payout.safe_reason],
          ['Receipt', payout.receipt_reference],
          ['Created', at(payout.created_at)],
          ['Confirmed by the recipient', at(payout.accepted_at)],
          ['Recipient deadline', at(payout.payout_expires_at)],
          ['Last change', at(payout.updated_at)],
        ]}
      />
      {payout.delivery === 'link' ? (
        <section aria-labelledby="claim-link-heading">
          <h2 id="claim-link-heading">Claim link</h2>
          <ClaimLink link={link} open={open} timeZone={timeZone} />
          {open ? (
            <PostForm
              action={SEND_PAYOUTS_PATHS.rotateLink(payout.payout_id)}
              csrfToken={frame.csrfToken}
              label="Rotate link"
            >
              <input type="hidden" name={IDEMPOTENCY_FIELD} value={keys.rotate} />
              <p class="hint">
                Only if the link reached the wrong person: a new link replaces it, and the old link, its codes
                and sessions stop working. The deadline stays the same.
              </p>
              <SubmitButton class="secondary">Rotate link</SubmitButton>
            </PostForm>
          ) : null}
        </section>
      ) : null}
      {open ? (
        <section aria-labelledby="cancel-heading">
          <h2 id="cancel-heading">Cancel</h2>
          <PostForm
            action={SEND_PAYOUTS_PATHS.cancel(payout.payout_id)}
            csrfToken={frame.csrfToken}
            label="Cancel payout"
          >
            <input type="hidden" name={IDEMPOTENCY_FIELD} value={keys.cancel} />
            <p class="hint">
              {money(payout.total_reserved, payout.currency)} (amount plus fee) returns to the balance and the
              link stops working. Not possible once the recipient has confirmed.
            </p>
            <SubmitButton class="danger">Cancel payout</SubmitButton>
          </PostForm>
        </section>
      ) : null}
      <Timeline heading="History" entries={timeline} timeZone={timeZone} />
      <p>
        <a href={SEND_PAYOUTS_PATHS.list}>Back to the payouts</a>
      </p>
    </Layout>
  );
}

function ClaimLink({ link, open, timeZone }: { link: PayoutLink; open: boolean; timeZone: string }) {
  if (!open) {
    return <p>The recipient can no longer claim this payout, so its link is not shown.</p>;
  }
  if (link === null) return null;
  if ('problem' in link) {
    return link.problem.code === 'link_unavailable' ? (
      <p>
        The current link cannot be shown again (it was issued under an earlier key). Rotate it to get a new
        one.
      </p>
    ) : (
      <p>{refusalText(link.problem)}</p>
    );
  }
  return (
    <div class="send-payouts-link">
      <CopyField
        name="claim_link"
        label="Link to send to the recipient"
        value={link.url}
        hint="Select it and copy it. The service does not send it: send it yourself, to the recipient only."
      />
      <p>
        It works until <LocalTime at={link.expiresAt} timeZone={timeZone} />.
      </p>
    </div>
  );
}

export function PayoutNotFoundPage({ frame }: { frame: PageFrame }) {
  return (
    <Layout title="Payout not found" current="sendPayouts" frame={frame} path={SEND_PAYOUTS_PATHS.list}>
      <p>
        There is no such payout in {frame.environment === 'sandbox' ? 'the sandbox' : 'production'} for this
        account. A payout of the other environment is seen after switching to it.
      </p>
      <p>
        <a href={SEND_PAYOUTS_PATHS.list}>Back to the payouts</a>
      </p>
    </Layout>
  );
}
