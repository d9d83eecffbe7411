import type { ComponentChildren } from 'preact';
import { HostedPage } from '@payouts/web';

export const STYLESHEET_PATH = '/recipient-assets/recipient.css';

export interface Frame {
  title: string;
  environment: 'production' | 'sandbox';
}

/** Every recipient page: the kit's hosted page with the pages' stylesheet and the sandbox's note. */
export function RecipientPage({ title, environment, children }: Frame & { children?: ComponentChildren }) {
  return (
    <HostedPage
      title={title}
      site="Payout"
      stylesheet={STYLESHEET_PATH}
      testDataNote={environment === 'sandbox' ? 'Sandbox: test payouts, no real money moves.' : null}
    >
      {children}
    </HostedPage>
  );
}

/** What just happened (a code was sent), announced politely. */
export function Notice({ text }: { text: string | null | undefined }) {
  return text ? (
    <p class="notice" role="status">
      {text}
    </p>
  ) : null;
}

/** The look of the recipient's pages and of the hosted checkout page (served at STYLESHEET_PATH). */
export const STYLESHEET = `:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5}
body{margin:0;background:#f6f7f9;color:#1b1f24}
main{max-width:34rem;margin:0 auto;padding:1.5rem 1rem 3rem;background:#fff;min-height:100vh;box-sizing:border-box}
h1{font-size:1.5rem;margin:0 0 1rem}
.sandbox{margin:0;padding:.5rem 1rem;background:#fff4ce;color:#5c4400;text-align:center;font-weight:600}
.payer{margin:0;font-weight:600}
.amount{font-size:2rem;font-weight:700;margin:.25rem 0 1rem}
.field{margin:0 0 1rem}
label,legend{display:block;font-weight:600;margin-bottom:.25rem}
input[type=text]{width:100%;box-sizing:border-box;font-size:1.1rem;padding:.6rem;border:2px solid #5a6472;border-radius:.3rem}
input:focus,button:focus,a:focus{outline:3px solid #1a5fd0;outline-offset:2px}
.invalid input{border-color:#b3261e}
.field-error,.errors{color:#b3261e}
.errors{border:2px solid #b3261e;padding:.5rem 1rem;border-radius:.3rem;margin-bottom:1rem}
.hint{color:#4a5360;margin:0 0 .25rem;font-size:.95rem}
.notice{background:#e7f1ff;padding:.5rem 1rem;border-radius:.3rem}
button{font-size:1.1rem;padding:.7rem 1.2rem;border:0;border-radius:.3rem;background:#1a5fd0;color:#fff;cursor:pointer;width:100%}
button.secondary{background:#e4e7eb;color:#1b1f24;margin-top:.5rem}
fieldset{border:0;padding:0;margin:0 0 1rem}
.method{display:flex;gap:.5rem;align-items:center;margin:.25rem 0}
.method input{width:1.25rem;height:1.25rem}
.status{font-size:1.25rem;font-weight:700}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}
dt{font-weight:600}
dd{margin:0}
.test-values{font-size:.9rem;color:#4a5360}
`;
