/**
 * What counts as an e-mail address we can deliver to: the one rule shared by Create Payout (its
 * DTO and its decider) and every mailer, so a payout is never created for an address the mailer
 * then refuses.
 *
 * Deliberately narrower than RFC 5322: one bare `local@domain`, nothing a mail header could read
 * as more (no display name, no list, no quoted local part, since quotes can carry spaces, line
 * breaks, `@` and `,`), and only what any SMTP relay takes without extensions (an ASCII local
 * part; a non-ASCII one needs SMTPUTF8). International domain names are accepted: the mailer
 * sends them as punycode.
 */

/** RFC 5321 4.5.3.1.3: a path is at most 256 octets including its angle brackets. */
export const EMAIL_ADDRESS_MAX_LENGTH = 254;
/** RFC 5321 4.5.3.1.1. */
const LOCAL_PART_MAX_LENGTH = 64;
/** RFC 1035 2.3.4 (counted in characters for an international label, before punycode). */
const DOMAIN_LABEL_MAX_LENGTH = 63;

/** A dot-atom of RFC 5322 atext, ASCII only: no leading, trailing or doubled dot. */
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
/** Letters (any script), digits and inner hyphens; no underscore, no empty label (so no trailing dot). */
const DOMAIN_LABEL = /^[\p{L}\p{Nd}](?:[\p{L}\p{M}\p{Nd}-]*[\p{L}\p{M}\p{Nd}])?$/u;
/** The top-level label: letters, or a punycode A-label; never all digits (a bare IP address). */
const TOP_LEVEL_LABEL = /^(?:\p{L}[\p{L}\p{M}]+|xn--[a-z0-9-]+)$/iu;
/** Full-width forms look like ASCII but are other names once punycoded. */
const FULL_WIDTH = /[\uFF01-\uFF5E]/;

/** True when `value` is one bare e-mail address that the mailer accepts and can deliver to. */
export function isDeliverableEmailAddress(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > EMAIL_ADDRESS_MAX_LENGTH) return false;
  const at = value.indexOf('@');
  if (at < 1 || at !== value.lastIndexOf('@')) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length > LOCAL_PART_MAX_LENGTH || !LOCAL_PART.test(local)) return false;
  if (FULL_WIDTH.test(domain)) return false;
  const labels = domain.split('.');
  const topLevel = labels[labels.length - 1] ?? '';
  return (
    labels.length >= 2 &&
    labels.every((label) => [...label].length <= DOMAIN_LABEL_MAX_LENGTH && DOMAIN_LABEL.test(label)) &&
    TOP_LEVEL_LABEL.test(topLevel)
  );
}
