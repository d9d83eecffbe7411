/**
 * One field of a posted form: its text, or undefined when it is missing or sent more than once
 * (formbody makes a repeated name an array; a page never needs one).
 */
export function formField(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}
