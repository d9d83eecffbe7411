/** A refusal the pages show as an HTML page with this HTTP status; the message is for the recipient. */
export class RecipientPageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'RecipientPageError';
  }
}

export const linkNotFound = () =>
  new RecipientPageError(404, 'Link not found', 'This link is not valid. Check that you copied all of it.');
export const linkReplaced = () =>
  new RecipientPageError(
    410,
    'Link replaced',
    'This link was replaced by a newer one. Use the most recent link you received from the sender.',
  );
export const handoffUnusable = () =>
  new RecipientPageError(
    410,
    'Link already used',
    'This link can be used only once and for 10 minutes. Go back to the merchant’s site to start again.',
  );
export const sessionEnded = () =>
  new RecipientPageError(
    401,
    'Session ended',
    'Your session has ended. Open the link you received again to continue.',
  );
export const formExpired = () =>
  new RecipientPageError(
    403,
    'Form expired',
    'This form has expired or did not come from this page. Go back, reload the page and try again.',
  );
