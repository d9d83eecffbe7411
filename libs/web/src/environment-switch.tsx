import { PostForm, SubmitButton } from './forms';
import type { PageFrame, PageEnvironment } from './page-frame';
import { DASHBOARD_PATHS } from './paths';

/** The form field naming the path the environment switch returns to. */
export const RETURN_TO_FIELD = 'return_to';

const LABELS: Record<PageEnvironment, string> = { production: 'Production', sandbox: 'Sandbox' };

/**
 * Production or sandbox, on every signed-in page: one button per environment, the current one
 * pressed. The switch changes the session's environment and returns to `returnTo`.
 */
export function EnvironmentSwitch({ frame, returnTo }: { frame: PageFrame; returnTo: string }) {
  return (
    <PostForm
      action={DASHBOARD_PATHS.environment}
      csrfToken={frame.csrfToken}
      label="Environment"
      class="environment-switch"
    >
      <input type="hidden" name={RETURN_TO_FIELD} value={returnTo} />
      <span class="environment-label" aria-hidden="true">
        Environment
      </span>
      {(['production', 'sandbox'] as const).map((environment) => (
        <SubmitButton
          key={environment}
          name="environment"
          value={environment}
          pressed={frame.environment === environment}
        >
          {LABELS[environment]}
        </SubmitButton>
      ))}
    </PostForm>
  );
}
