import type { CredentialSummary, IssuedCredential } from '@payouts/accounts';
import { TIME_ZONES } from '@payouts/accounts';
import { ORDER_METHODS } from '@payouts/domain';
import type { AccountPricing, Environment, OrderMethod } from '@payouts/domain';
import {
  CopyField,
  DASHBOARD_PATHS,
  DataTable,
  DetailsList,
  EmptyState,
  Field,
  hrefWith,
  Layout,
  LocalTime,
  Notice,
  PageFrame,
  Pagination,
  PostForm,
  SelectField,
  SubmitButton,
  TextAreaField,
} from '@payouts/web';
import { CheckboxGroup, SettingsSection } from './settings-fields';
import type { EnvironmentSettings } from '@payouts/accounts';
import type { CheckoutWebhookAttempt } from '@payouts/webhooks';

/** Checkout webhook attempts per page of the Settings page's delivery log. */
export const ATTEMPTS_PAGE = 10;

/** One ledger's retained target (0.00 before any is set). */
interface RetainedTarget {
  currency: string;
  amount: string;
}

/** Where each of the page's forms posts: one route per form, under the page's own path. */
export const SETTINGS_PATHS = {
  page: DASHBOARD_PATHS.settings,
  payouts: `${DASHBOARD_PATHS.settings}/payouts`,
  returnUrlOrigins: `${DASHBOARD_PATHS.settings}/return-url-origins`,
  retainedTarget: `${DASHBOARD_PATHS.settings}/retained-target`,
  timeZone: `${DASHBOARD_PATHS.settings}/time-zone`,
  issueCredential: `${DASHBOARD_PATHS.settings}/credentials`,
  revokeCredential: `${DASHBOARD_PATHS.settings}/credentials/revoke`,
  checkoutWebhook: `${DASHBOARD_PATHS.settings}/checkout-webhook`,
  testWebhook: `${DASHBOARD_PATHS.settings}/checkout-webhook/test`,
} as const;

/** The page's forms: a refusal is shown at the form that was sent. */
export type SettingsForm =
  | 'payouts'
  | 'returnUrlOrigins'
  | 'retainedTarget'
  | 'timeZone'
  | 'issueCredential'
  | 'revokeCredential'
  | 'checkoutWebhook'
  | 'testWebhook';

/** What was refused: the API's message, and the field (the API's `param`) when there is one. */
export interface SettingsRefusal {
  form: SettingsForm;
  message: string;
  param?: string;
}

/** Each form's section, and the page field of each API `param` it can be refused on. */
const FORM_SECTIONS: Record<SettingsForm, string> = {
  payouts: 'payouts',
  returnUrlOrigins: 'return-url-origins',
  retainedTarget: 'retained-target',
  timeZone: 'time-zone',
  issueCredential: 'issue-credential',
  revokeCredential: 'credentials',
  checkoutWebhook: 'checkout-webhook',
  testWebhook: 'test-webhook',
};
const PARAM_FIELDS: Record<string, string> = {
  origins: 'field-origins',
  amount: 'field-amount',
  currency: 'field-currency',
  time_zone: 'field-time_zone',
  kind: 'field-kind',
  scopes: 'field-scopes',
  url: 'field-url',
  signing_credential_id: 'field-signing_credential_id',
};

export const CREDENTIALS_PAGE = 20;

const ENVIRONMENT_NAMES: Record<Environment, string> = { production: 'production', sandbox: 'the sandbox' };

const METHOD_NAMES: Record<OrderMethod, string> = {
  card: 'Card',
  mobile_wallet: 'Mobile wallet',
  cash_app: 'Cash app',
  online_wallet: 'Online wallet',
  p2p_app: 'Peer-to-peer app',
};

const SCOPE_NAMES: Record<string, string> = {
  'payouts:read': 'Read payouts (payouts:read)',
  'payouts:write': 'Send payouts (payouts:write)',
};

/** The notices a POST's 303 may name (`?notice=`), in words for the environment shown. */
export function settingsNotices(environment: Environment) {
  const where = ENVIRONMENT_NAMES[environment];
  return {
    payouts_on: `Payouts are switched on in ${where}.`,
    payouts_off: `Payouts are switched off in ${where}: payout requests are refused until you switch them on.`,
    origins_saved: `The return URL origins of ${where} are saved.`,
    retained_target_saved: `The retained target is saved. The figure below follows within a moment.`,
    time_zone_saved: 'The time zone is saved: every time in the dashboard is now shown in it.',
    credential_revoked: 'The credential is revoked: requests with it are refused from now on.',
    webhook_saved: `The checkout webhook URL of ${where} is saved: orders created from now on send their webhooks to it.`,
    test_webhook_delivered:
      'The test webhook was delivered: your URL answered with a 2xx status, so it will receive real ones.',
  } as const;
}

export interface SettingsPageProps {
  frame: PageFrame;
  environment: Environment;
  settings: EnvironmentSettings;
  retainedTargets: readonly RetainedTarget[];
  pricing: AccountPricing;
  /** This environment's credentials, newest first: one page of them and how many in all. */
  credentials: { total: number; offset: number; rows: readonly CredentialSummary[] };
  /** The environment's checkout credentials that can sign a test webhook. */
  signingCredentials: readonly CredentialSummary[];
  attempts: { total: number; offset: number; limit: number; rows: readonly CheckoutWebhookAttempt[] };
  /** The page's list offsets, kept in pagination links. */
  query: Record<string, string | undefined>;
  notice?: string | null;
  refusal?: SettingsRefusal | null;
  /** What was typed in the refused form, shown again. */
  values?: Readonly<Record<string, string | undefined>>;
  /** A credential just issued: its token (and secret) shown this once. */
  issued?: IssuedCredential | null;
}

/**
 * Settings (docs/dashboard.md#settings): the payouts switch, return URL origins, retained target
 * and pricing of the session's environment, the account's time zone, its credentials and the
 * checkout webhook with its test and delivery log. Each section's form posts to its own route.
 */
export function SettingsPage(props: SettingsPageProps) {
  const { frame, environment, refusal, notice, issued } = props;
  const where = ENVIRONMENT_NAMES[environment];
  return (
    <Layout title="Settings" current="settings" frame={frame} path={SETTINGS_PATHS.page}>
      <p>
        Payouts, origins, retained target, pricing, credentials and the checkout webhook below are those of{' '}
        <strong>{where}</strong>. Switch the environment at the top to see the other's.
      </p>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {refusal ? <RefusalSummary refusal={refusal} /> : null}
      {issued ? <IssuedCredentialPanel issued={issued} /> : null}
      <PayoutsSection {...props} />
      <ReturnUrlOriginsSection {...props} />
      <RetainedTargetSection {...props} />
      <PricingSection {...props} />
      <TimeZoneSection {...props} />
      <CredentialsSection {...props} />
      <CheckoutWebhookSection {...props} />
    </Layout>
  );
}

/** The refusal at the top of the page, linking to the field (or section) it is about. */
function RefusalSummary({ refusal }: { refusal: SettingsRefusal }) {
  const target = (refusal.param && PARAM_FIELDS[refusal.param]) || FORM_SECTIONS[refusal.form];
  return (
    <Notice kind="error">
      <p class="settings-refusal">
        Nothing was changed: <a href={`#${target}`}>{refusal.message}</a>
      </p>
    </Notice>
  );
}

/** The refusal's message when it is about `param` of `form`, for the field to show. */
function errorAt(props: SettingsPageProps, form: SettingsForm, param: string): string | null {
  const refusal = props.refusal;
  if (!refusal || refusal.form !== form || refusal.param !== param) return null;
  return refusal.message;
}

/** The refusal's message when it is about `form` but none of its fields (a credential not found). */
function formError(props: SettingsPageProps, form: SettingsForm): string | null {
  const refusal = props.refusal;
  if (!refusal || refusal.form !== form) return null;
  if (refusal.param && PARAM_FIELDS[refusal.param]) return null;
  return refusal.message;
}

function FormError({ message }: { message: string | null }) {
  return message ? <p class="error">{message}</p> : null;
}

function IssuedCredentialPanel({ issued }: { issued: IssuedCredential }) {
  const kind = issued.kind === 'checkout' ? 'checkout' : 'payout';
  return (
    <section class="settings-issued" aria-labelledby="issued-heading">
      <h2 id="issued-heading">Copy your new {kind} credential now</h2>
      <p class="settings-warning">
        {issued.secret
          ? 'This is the only time the API key and its API secret are shown. '
          : 'This is the only time the token is shown. '}
        Copy {issued.secret ? 'them' : 'it'} now and keep {issued.secret ? 'them' : 'it'} secret: only a
        fingerprint is kept, so nobody can show {issued.secret ? 'them' : 'it'} again. If{' '}
        {issued.secret ? 'they are' : 'it is'} lost, issue a new credential and revoke this one.
      </p>
      <CopyField
        name="token"
        label={issued.kind === 'checkout' ? 'API key (Bearer token)' : 'Token (Bearer)'}
        value={issued.token}
      />
      {issued.secret ? (
        <CopyField
          name="secret"
          label="API secret"
          value={issued.secret}
          hint="Checkout webhooks of orders created with this key are signed with it (X-Service-Signature)."
        />
      ) : null}
      <DetailsList
        rows={[
          ['Kind', issued.kind === 'checkout' ? 'Checkout' : 'Payout'],
          ['Environment', issued.environment === 'production' ? 'Production' : 'Sandbox'],
          ['Scopes', issued.scopes.length > 0 ? issued.scopes.join(', ') : null],
          ['Ends in', issued.token.slice(-4)],
        ]}
      />
      <p>
        <a href={SETTINGS_PATHS.page}>I have copied it: back to Settings</a>
      </p>
    </section>
  );
}

function PayoutsSection(props: SettingsPageProps) {
  const { settings, frame, environment } = props;
  const where = ENVIRONMENT_NAMES[environment];
  return (
    <SettingsSection id="payouts" heading="Payouts">
      <DetailsList
        rows={[
          ['Approval by your service operator', settings.payoutsApproved ? 'Approved' : 'Not approved yet'],
          [`Payouts in ${where}`, settings.payoutsEnabled ? 'On' : 'Off'],
        ]}
      />
      {settings.payoutsApproved ? null : (
        <p class="settings-warning">
          The account is not approved for payouts yet: every payout request is refused (
          <code>payouts_not_approved</code>) until your service operator approves it, even with payouts
          switched on here.
        </p>
      )}
      <FormError message={formError(props, 'payouts')} />
      <PostForm action={SETTINGS_PATHS.payouts} csrfToken={frame.csrfToken} label="Payouts switch">
        <SubmitButton
          class={settings.payoutsEnabled ? 'danger' : 'primary'}
          name="enabled"
          value={settings.payoutsEnabled ? 'false' : 'true'}
        >
          {settings.payoutsEnabled ? 'Switch payouts off' : 'Switch payouts on'}
        </SubmitButton>
      </PostForm>
    </SettingsSection>
  );
}

function ReturnUrlOriginsSection(props: SettingsPageProps) {
  const { settings, frame, values, refusal } = props;
  const typed = refusal?.form === 'returnUrlOrigins' ? values?.origins : undefined;
  return (
    <SettingsSection id="return-url-origins" heading="Return URL origins">
      <p>
        Create Payout accepts a <code>return_url</code> only on these origins.
      </p>
      <PostForm
        action={SETTINGS_PATHS.returnUrlOrigins}
        csrfToken={frame.csrfToken}
        label="Return URL origins"
      >
        <TextAreaField
          name="origins"
          label="Origins, one a line"
          hint="Scheme, host and port only, such as https://shop.example.com (no path, no wildcard). Leave it empty to register none."
          value={typed ?? settings.returnUrlOrigins.join('\n')}
          error={errorAt(props, 'returnUrlOrigins', 'origins')}
        />
        <SubmitButton class="primary">Save origins</SubmitButton>
      </PostForm>
    </SettingsSection>
  );
}

function RetainedTargetSection(props: SettingsPageProps) {
  const { retainedTargets, frame, values, refusal } = props;
  const refused = refusal?.form === 'retainedTarget';
  return (
    <SettingsSection id="retained-target" heading="Retained target">
      <p>
        How much of the available balance the automatic settlement leaves on each ledger. It is not a cap on
        payouts.
      </p>
      <DetailsList
        rows={retainedTargets.map((t) => [`Retained in ${t.currency}`, `${t.amount} ${t.currency}`])}
      />
      <PostForm action={SETTINGS_PATHS.retainedTarget} csrfToken={frame.csrfToken} label="Retained target">
        <Field
          name="amount"
          label="Amount"
          hint="0 or more, at most 2 decimal places, such as 250.00."
          inputMode="decimal"
          value={refused ? values?.amount : undefined}
          error={errorAt(props, 'retainedTarget', 'amount')}
        />
        <SelectField
          name="currency"
          label="Currency"
          options={retainedTargets.map((t) => [t.currency, t.currency] as const)}
          value={refused ? values?.currency : retainedTargets[0]?.currency}
          error={errorAt(props, 'retainedTarget', 'currency')}
        />
        <SubmitButton class="primary">Save retained target</SubmitButton>
      </PostForm>
    </SettingsSection>
  );
}

function PricingSection({ pricing, environment }: SettingsPageProps) {
  const rows = ORDER_METHODS.map((method) => ({
    method,
    ...pricing.methods[method],
    days: pricing.clearingDays[method],
  }));
  return (
    <SettingsSection id="pricing" heading="Pricing">
      <p>
        What each payment method costs and how long its money takes to become available. Set by your service
        operator; read only here.
      </p>
      <DataTable
        caption={`Pricing in ${ENVIRONMENT_NAMES[environment]}`}
        rowKey={(row) => row.method}
        rows={rows}
        columns={[
          { header: 'Method', cell: (row) => METHOD_NAMES[row.method] },
          { header: 'Percent of the amount', cell: (row) => `${row.percent}%`, numeric: true },
          { header: 'Fixed fee', cell: (row) => row.fixed, numeric: true },
          {
            header: 'Clearing',
            cell: (row) => (row.days === 1 ? '1 day' : `${row.days} days`),
            numeric: true,
          },
        ]}
      />
    </SettingsSection>
  );
}

function TimeZoneSection(props: SettingsPageProps) {
  const { frame, values, refusal } = props;
  return (
    <SettingsSection id="time-zone" heading="Time zone">
      <PostForm action={SETTINGS_PATHS.timeZone} csrfToken={frame.csrfToken} label="Time zone">
        <SelectField
          name="time_zone"
          label="Time zone"
          hint="Every time in the dashboard is shown in it. It is the account's, for both environments."
          options={TIME_ZONES.map((zone) => [zone, zone.replace(/_/g, ' ')] as const)}
          value={refusal?.form === 'timeZone' ? values?.time_zone : frame.timeZone}
          error={errorAt(props, 'timeZone', 'time_zone')}
        />
        <SubmitButton class="primary">Save time zone</SubmitButton>
      </PostForm>
    </SettingsSection>
  );
}

function CredentialsSection(props: SettingsPageProps) {
  const { credentials, frame, environment, query, values, refusal } = props;
  const where = ENVIRONMENT_NAMES[environment];
  const refused = refusal?.form === 'issueCredential';
  const ticked = (scope: string) => refused && values?.[scope] === 'on';
  return (
    <SettingsSection id="credentials" heading="Credentials">
      <p>
        The Bearer tokens your systems call the API with in {where}. Only the last four characters of each are
        kept to tell them apart.
      </p>
      <FormError message={formError(props, 'revokeCredential')} />
      {credentials.total === 0 ? (
        <EmptyState title={`No credentials in ${where} yet`}>
          <p>Issue one below: a checkout credential to take payments, a payout credential to send payouts.</p>
        </EmptyState>
      ) : (
        <>
          <DataTable
            caption={`Credentials in ${where}`}
            rowKey={(row) => row.credentialId}
            rows={credentials.rows}
            columns={[
              { header: 'Kind', cell: (row) => (row.kind === 'checkout' ? 'Checkout' : 'Payout') },
              {
                header: 'Environment',
                cell: (row) => (row.environment === 'production' ? 'Production' : 'Sandbox'),
              },
              { header: 'Scopes', cell: (row) => (row.scopes.length > 0 ? row.scopes.join(', ') : '—') },
              { header: 'Token ends in', cell: (row) => <code>{row.tokenHint}</code> },
              {
                header: 'Created',
                cell: (row) => <LocalTime at={row.createdAt} timeZone={frame.timeZone} />,
              },
              {
                header: 'Revoked',
                cell: (row) =>
                  row.revokedAt ? (
                    <LocalTime at={row.revokedAt} timeZone={frame.timeZone} />
                  ) : (
                    <PostForm
                      action={SETTINGS_PATHS.revokeCredential}
                      csrfToken={frame.csrfToken}
                      class="settings-inline-form"
                    >
                      <input type="hidden" name="credential_id" value={row.credentialId} />
                      <SubmitButton class="danger">
                        Revoke<span class="visually-hidden"> the credential ending in {row.tokenHint}</span>
                      </SubmitButton>
                    </PostForm>
                  ),
              },
            ]}
          />
          <Pagination
            total={credentials.total}
            offset={credentials.offset}
            shown={credentials.rows.length}
            limit={CREDENTIALS_PAGE}
            noun="credentials"
            hrefFor={(offset) =>
              `${hrefWith(SETTINGS_PATHS.page, query, { credentials_offset: offset })}#credentials`
            }
          />
        </>
      )}
      <h3 id="issue-credential">Issue a credential</h3>
      <PostForm
        action={SETTINGS_PATHS.issueCredential}
        csrfToken={frame.csrfToken}
        label="Issue a credential"
      >
        <p>It is issued for {where}. Its token is shown once, on the next page.</p>
        <SelectField
          name="kind"
          label="Kind"
          options={[
            ['payout', 'Payout: sends payouts'],
            ['checkout', 'Checkout: takes payments (an API key and its API secret)'],
          ]}
          value={refused ? values?.kind : 'payout'}
          error={errorAt(props, 'issueCredential', 'kind')}
        />
        <CheckboxGroup
          id="scopes"
          legend="Scopes"
          hint="A payout credential needs at least one; a checkout credential takes none."
          options={[
            {
              name: 'scope_payouts_read',
              label: SCOPE_NAMES['payouts:read']!,
              checked: ticked('scope_payouts_read'),
            },
            {
              name: 'scope_payouts_write',
              label: SCOPE_NAMES['payouts:write']!,
              checked: ticked('scope_payouts_write'),
            },
          ]}
          error={errorAt(props, 'issueCredential', 'scopes')}
        />
        <SubmitButton class="primary">Issue credential</SubmitButton>
      </PostForm>
    </SettingsSection>
  );
}

function CheckoutWebhookSection(props: SettingsPageProps) {
  const { settings, frame, environment, values, refusal, signingCredentials, attempts, query } = props;
  const where = ENVIRONMENT_NAMES[environment];
  const typedUrl = refusal?.form === 'checkoutWebhook' ? values?.url : undefined;
  return (
    <SettingsSection id="checkout-webhook" heading="Checkout webhook">
      <p>
        When an order is paid, its webhook goes to the URL it was created with, signed with the API secret of
        the checkout credential that created it. Orders created in {where} from now on use this URL.
      </p>
      <PostForm
        action={SETTINGS_PATHS.checkoutWebhook}
        csrfToken={frame.csrfToken}
        label="Checkout webhook URL"
      >
        <Field
          name="url"
          label="Checkout webhook URL"
          type="url"
          hint="An https URL whose host resolves to public addresses only."
          value={typedUrl ?? settings.checkoutWebhookUrl ?? ''}
          error={refusal?.param === 'url' ? refusal.message : null}
          autocomplete="off"
        />
        <SubmitButton class="primary">Save URL</SubmitButton>
      </PostForm>

      <h3 id="test-webhook">Send test webhook</h3>
      <p>
        Posts <code>{'{"order_id":0,"status":"SUCCESS","amount":1,"product":"Test webhook"}'}</code> to the
        URL once, now, signed with the API secret of the checkout credential you choose. It is not kept in the
        delivery log.
      </p>
      <FormError message={formError(props, 'testWebhook')} />
      {!settings.checkoutWebhookUrl ? (
        <p>Save a checkout webhook URL first.</p>
      ) : signingCredentials.length === 0 ? (
        <p>Issue a checkout credential in {where} first: the test is signed with its API secret.</p>
      ) : (
        <PostForm action={SETTINGS_PATHS.testWebhook} csrfToken={frame.csrfToken} label="Send test webhook">
          <SelectField
            name="signing_credential_id"
            label="Sign with"
            options={signingCredentials.map(
              (c) => [c.credentialId, `Checkout credential ending in ${c.tokenHint}`] as const,
            )}
            value={refusal?.form === 'testWebhook' ? values?.signing_credential_id : undefined}
            error={errorAt(props, 'testWebhook', 'signing_credential_id')}
          />
          <SubmitButton class="secondary">Send test webhook</SubmitButton>
        </PostForm>
      )}

      <h3 id="checkout-webhook-log">Delivery log</h3>
      {attempts.total === 0 ? (
        <EmptyState title={`No checkout webhooks sent in ${where} yet`}>
          <p>
            When an order created with a webhook URL is paid, every attempt to deliver its webhook is listed
            here: up to 4, over about 21 minutes, until your URL answers with a 2xx status.
          </p>
        </EmptyState>
      ) : (
        <>
          <DataTable
            caption={`Checkout webhook attempts in ${where}, newest first`}
            rowKey={(row) => `${row.deliveryId}-${row.attemptNumber}`}
            rows={attempts.rows}
            columns={[
              { header: 'Time', cell: (row) => <LocalTime at={row.attemptedAt} timeZone={frame.timeZone} /> },
              { header: 'Order', cell: (row) => String(row.orderId), numeric: true },
              { header: 'Attempt', cell: (row) => `${row.attemptNumber} of ${row.maxAttempts}` },
              { header: 'Result', cell: (row) => (row.delivered ? 'Delivered' : 'Failed') },
              {
                header: 'Status code',
                cell: (row) => (row.statusCode === null ? 'No answer' : String(row.statusCode)),
                numeric: true,
              },
              { header: 'Latency', cell: (row) => `${row.latencyMs} ms`, numeric: true },
              { header: 'Error', cell: (row) => row.error ?? '—' },
            ]}
          />
          <Pagination
            total={attempts.total}
            offset={attempts.offset}
            shown={attempts.rows.length}
            limit={attempts.limit}
            noun="attempts"
            hrefFor={(offset) =>
              `${hrefWith(SETTINGS_PATHS.page, query, { log_offset: offset })}#checkout-webhook-log`
            }
          />
        </>
      )}
    </SettingsSection>
  );
}
