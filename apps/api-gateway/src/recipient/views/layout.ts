import { html, SafeHtml } from './html';

export const STYLESHEET_PATH = '/recipient-assets/recipient.css';

export interface Frame {
  title: string;
  environment: 'production' | 'sandbox';
}

/** Every page: one column, readable on a phone, one h1, an error summary the screen reader announces. */
export function layout(frame: Frame, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${frame.title} · Payout</title>
        <link rel="stylesheet" href="${STYLESHEET_PATH}" />
      </head>
      <body>
        ${frame.environment === 'sandbox' ? html`<p class="sandbox" role="note">Sandbox: test payouts, no real money moves.</p>` : ''}
        <main id="main">
          <h1>${frame.title}</h1>
          ${body}
        </main>
      </body>
    </html> `.value;
}

export function errorSummary(errors: Record<string, string>): SafeHtml {
  const entries = Object.entries(errors);
  if (entries.length === 0) return html``;
  return html`<div class="errors" role="alert" tabindex="-1">
    <p>Please check the following:</p>
    <ul>
      ${entries.map(([field, message]) => html`<li><a href="#${field}">${message}</a></li>`)}
    </ul>
  </div>`;
}

export function notice(text: string | null | undefined): SafeHtml {
  return text ? html`<p class="notice" role="status">${text}</p>` : html``;
}

export interface FieldOptions {
  name: string;
  label: string;
  value?: string;
  error?: string;
  autocomplete?: string;
  inputmode?: 'numeric' | 'email' | 'tel' | 'text';
  hint?: string;
}

export function textField(field: FieldOptions): SafeHtml {
  const describedBy = [field.hint ? `${field.name}-hint` : '', field.error ? `${field.name}-error` : '']
    .filter(Boolean)
    .join(' ');
  return html`<div class="field${field.error ? ' invalid' : ''}">
    <label for="${field.name}">${field.label}</label>
    ${field.hint ? html`<p class="hint" id="${field.name}-hint">${field.hint}</p>` : ''}
    ${field.error ? html`<p class="field-error" id="${field.name}-error">${field.error}</p>` : ''}
    <input
      id="${field.name}"
      name="${field.name}"
      type="text"
      value="${field.value ?? ''}"
      ${
        field.autocomplete ? html` autocomplete="${field.autocomplete}"` : ''
      }${field.inputmode ? html` inputmode="${field.inputmode}"` : ''}${
        describedBy ? html` aria-describedby="${describedBy}"` : ''
      }${field.error ? html` aria-invalid="true"` : ''}
    />
  </div>`;
}

export function csrfInput(token: string): SafeHtml {
  return html`<input type="hidden" name="csrf_token" value="${token}" />`;
}

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
