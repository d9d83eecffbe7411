import { DASHBOARD_PATHS, Field, PostForm, PublicLayout, SubmitButton } from '@payouts/web';

/** The form field of the admin token. */
export const ADMIN_TOKEN_FIELD = 'admin_token';

export interface SignInPageProps {
  csrfToken: string;
  /** What was wrong with the token sent, shown at the field. */
  error?: string | null;
  /** Sign-in is locked for this address until then: the form is not shown. */
  lockedUntil?: Date | null;
}

/** Sign-in with the account's admin token (the one the dashboard's JSON API takes as Bearer). */
export function SignInPage({ csrfToken, error, lockedUntil }: SignInPageProps) {
  if (lockedUntil) {
    return (
      <PublicLayout title="Sign-in locked">
        <p class="notice-error">
          Too many wrong admin tokens were sent from your network. Sign-in from it is locked until{' '}
          {formatUtcTime(lockedUntil)} UTC, whatever token is sent.
        </p>
        <p>Wait until then and try again. If you have lost your admin token, ask your service operator.</p>
      </PublicLayout>
    );
  }
  return (
    <PublicLayout title="Sign in">
      <p>Sign in to your account's dashboard with its admin token.</p>
      <PostForm action={DASHBOARD_PATHS.signIn} csrfToken={csrfToken}>
        <Field
          name={ADMIN_TOKEN_FIELD}
          label="Admin token"
          type="password"
          hint="It starts with adm_. Your service operator gave it to you when the account was created."
          error={error}
          required
          autocomplete="current-password"
        />
        <SubmitButton class="primary">Sign in</SubmitButton>
      </PostForm>
    </PublicLayout>
  );
}

function formatUtcTime(time: Date): string {
  return time.toISOString().slice(11, 16);
}
