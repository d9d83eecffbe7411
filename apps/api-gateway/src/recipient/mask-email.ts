/** `jane.doe@example.com` → `j•••••e@example.com`: enough for the recipient to recognise, little for anyone else. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  const local = email.slice(0, at);
  const masked =
    local.length <= 2
      ? `${local[0]}•`
      : `${local[0]}${'•'.repeat(Math.min(local.length - 2, 6))}${local.at(-1)}`;
  return `${masked}${email.slice(at)}`;
}
