import type { ComponentChildren } from 'preact';
import { DASHBOARD_PATHS, PRODUCT_NAME } from './paths';

export interface DocumentProps {
  /** The page's own title; the product name is appended. */
  title: string;
  /** Class of <body>: `sandbox` marks every page of the sandbox as test data. */
  bodyClass?: string;
  children?: ComponentChildren;
}

/**
 * The whole <html> of a page: language, character set, viewport and the one stylesheet. Every
 * page renders inside one (Layout and PublicLayout do), and renderPage refuses anything else.
 */
export function Document({ title, bodyClass, children }: DocumentProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · ${PRODUCT_NAME}`}</title>
        <link rel="stylesheet" href={DASHBOARD_PATHS.stylesheet} />
      </head>
      <body class={bodyClass}>{children}</body>
    </html>
  );
}
