import type { VNode } from 'preact';
import { render } from 'preact-render-to-string';

/**
 * The HTML document of a page: the doctype, then the page, which must render a Document (Layout
 * and PublicLayout do), so language, character set and viewport are never forgotten. Text and
 * attribute values are escaped by the renderer: a merchant's or customer's text is safe in a page.
 */
export function renderPage<Props>(page: VNode<Props>): string {
  const html = render(page);
  if (!html.startsWith('<html lang="')) {
    throw new TypeError('renderPage takes a page that renders a Document (use Layout or PublicLayout)');
  }
  return `<!DOCTYPE html>${html}`;
}
