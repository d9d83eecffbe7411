// Characters XML 1.0 forbids even escaped: an SVG served as a file (image/svg+xml) holding one does
// not parse at all, so they are dropped rather than escaped.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const SPECIAL = /[&<>"']/g;
const ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text for SVG content or a double-quoted attribute: a merchant's name or a currency in a title
 * can never open a tag, end an attribute or start an entity, inline in HTML or as a file.
 */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '').replace(SPECIAL, (c) => ENTITY[c]!);
}
