import { DASHBOARD_PATHS, PublicLayout, renderPage } from '@payouts/web';

const MESSAGES: Record<number, { title: string; text: string }> = {
  400: { title: 'Something in the form was not right', text: 'Go back, check the form and send it again.' },
  403: {
    title: 'This form has expired',
    text: 'The form was not sent from this dashboard page, or it is too old. Nothing was changed. Go back, reload the page and try again.',
  },
  404: { title: 'Page not found', text: 'There is no such page in the dashboard.' },
  413: { title: 'The form was too large', text: 'Go back and send less.' },
  415: { title: 'The form could not be read', text: 'Go back and send the form from the page.' },
};

const FAILED = {
  title: 'Something went wrong',
  text: 'Nothing may have been changed. Wait a moment and try again.',
};

/** The dashboard scope's answer to an error (registerPageScope's errorPage). */
export function renderErrorPage(status: number): string {
  const message = MESSAGES[status] ?? FAILED;
  return renderPage(
    <PublicLayout title={message.title}>
      <p>{message.text}</p>
      <p>
        <a href={DASHBOARD_PATHS.home}>Back to the dashboard</a>
      </p>
    </PublicLayout>,
  );
}
