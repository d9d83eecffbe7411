import type { ComponentChildren } from 'preact';
import { FieldFrame } from './field-frame';
import { HOSTED_CSRF_FIELD } from './hosted-page-scope';

export interface HostedPageProps {
  /** The page's heading, and its title with `site` after it. */
  title: string;
  /** What the title names after the page's own ("Payout", "Checkout"). */
  site: string;
  /** The page's stylesheet: the hosted pages have their own look, not the dashboard's. */
  stylesheet: string;
  /** A line above the page marking test data (the sandbox's), or none. */
  testDataNote?: string | null;
  children?: ComponentChildren;
}

/**
 * A page the service hosts for a merchant's customer (the recipient's pages, the checkout page):
 * one column, readable on a phone, no navigation, one h1, and the whole document renderPage wants
 * (language, character set, viewport), with no referrer sent from it.
 */
export function HostedPage({ title, site, stylesheet, testDataNote, children }: HostedPageProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{`${title} · ${site}`}</title>
        <link rel="stylesheet" href={stylesheet} />
      </head>
      <body>
        {testDataNote ? (
          <p class="sandbox" role="note">
            {testDataNote}
          </p>
        ) : null}
        <main id="main">
          <h1>{title}</h1>
          {children}
        </main>
      </body>
    </html>
  );
}

export interface HostedPostFormProps {
  action: string;
  /** From `reply.generateCsrf()` in a hosted page scope; checked with formTokenIsValid. */
  csrfToken: string;
  /** The page shows its own errors (an error summary and each field's), not the browser's. */
  noValidate?: boolean;
  children?: ComponentChildren;
}

/** A hosted page's POST form: it always carries the CSRF token, in the field `csrf_token`. */
export function HostedPostForm({ action, csrfToken, noValidate, children }: HostedPostFormProps) {
  return (
    <form method="post" action={action} noValidate={noValidate}>
      <input type="hidden" name={HOSTED_CSRF_FIELD} value={csrfToken} />
      {children}
    </form>
  );
}

export interface HostedFieldProps {
  /** The field's name, and the input's id (an error summary links to it). */
  name: string;
  /** The visible label: every input has one. */
  label: string;
  value?: string;
  /** Shown under the label and read with the input. */
  hint?: string;
  /** What is wrong with the value: shown, read with the input, and the input marked invalid. */
  error?: string | null;
  autocomplete?: string;
  inputMode?: 'numeric' | 'email' | 'tel' | 'text';
}

/** The classes of the hosted pages' stylesheet for a field. */
const HOSTED_FIELD_CLASSES = { field: 'field', invalid: 'field invalid', error: 'field-error' };

/** A labelled text input of a hosted page (its id is its name), its hint and error tied to it. */
export function HostedField({ name, label, value, hint, error, autocomplete, inputMode }: HostedFieldProps) {
  return (
    <FieldFrame id={name} label={label} hint={hint} error={error} classes={HOSTED_FIELD_CLASSES}>
      {(describedBy) => (
        <input
          id={name}
          name={name}
          type="text"
          value={value ?? ''}
          autocomplete={autocomplete}
          inputMode={inputMode}
          aria-describedby={describedBy}
          aria-invalid={error ? 'true' : undefined}
        />
      )}
    </FieldFrame>
  );
}

/**
 * What is wrong with the form, at its top: announced at once (role alert), each message a link to
 * its field (the field's name is its id). Nothing when nothing is wrong.
 */
export function ErrorSummary({ errors }: { errors: Readonly<Record<string, string>> }) {
  const entries = Object.entries(errors);
  if (entries.length === 0) return null;
  return (
    <div class="errors" role="alert" tabIndex={-1}>
      <p>Please check the following:</p>
      <ul>
        {entries.map(([field, message]) => (
          <li key={field}>
            <a href={`#${field}`}>{message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}
