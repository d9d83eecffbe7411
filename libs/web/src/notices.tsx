import type { ComponentChildren } from 'preact';

export interface NoticeProps {
  /** `success` is announced politely (role status); `error` at once (role alert). */
  kind: 'success' | 'error' | 'info';
  children: ComponentChildren;
}

/** A message at the top of a page: the outcome of the form just sent, or a refusal. */
export function Notice({ kind, children }: NoticeProps) {
  return (
    <div class={kind === 'error' ? 'notice-error' : 'notice'} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export interface EmptyStateProps {
  /** What is missing, e.g. "No payouts yet". */
  title: string;
  /** What to do about it: a sentence and usually a link. */
  children: ComponentChildren;
}

/** A list with nothing to show says so, and says what to do next. */
export function EmptyState({ title, children }: EmptyStateProps) {
  return (
    <div class="empty-state">
      <p class="empty-state-title">{title}</p>
      <div>{children}</div>
    </div>
  );
}

/**
 * Notices carried across a redirect (POST, then 303 to a page): the page's URL names one of a
 * fixed set of codes (`?notice=payout_cancelled`), never the text, so a link cannot put words on
 * the page. Unknown codes show nothing.
 */
export function noticeFor<Code extends string>(
  query: unknown,
  messages: Readonly<Record<Code, string>>,
): string | null {
  const code = (query as Record<string, unknown> | undefined)?.notice;
  if (typeof code !== 'string' || !Object.prototype.hasOwnProperty.call(messages, code)) return null;
  return messages[code as Code];
}
