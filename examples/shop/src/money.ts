/**
 * Amounts as the API writes them ("24.90"), handled as whole cents: adding and comparing money in
 * floating point goes wrong (0.1 + 0.2), integers up to 2^53 never do.
 */
const AMOUNT = /^(0|[1-9]\d{0,8})(?:\.(\d{1,2}))?$/;

/** "24.9" or "24.90" → 2490; anything else (a sign, an exponent, three decimals) → undefined. */
export function toCents(text: string): number | undefined {
  const match = AMOUNT.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** 2490 → "24.90". */
export function fromCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
