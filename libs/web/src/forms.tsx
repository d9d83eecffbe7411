import type { ComponentChildren } from 'preact';
import { FieldFrame } from './field-frame';

/** The form field that carries the CSRF token (the name @fastify/csrf-protection reads). */
export const CSRF_FIELD = '_csrf';

export interface PostFormProps {
  action: string;
  /** From `reply.generateCsrf()`: checked on every POST of the page scope. */
  csrfToken: string;
  /** An accessible name when the page has several forms (e.g. "Environment"). */
  label?: string;
  class?: string;
  children?: ComponentChildren;
}

/** A POST form that always carries the CSRF token: the only way the kit makes a form. */
export function PostForm({ action, csrfToken, label, class: className, children }: PostFormProps) {
  return (
    <form method="post" action={action} aria-label={label} class={className}>
      <input type="hidden" name={CSRF_FIELD} value={csrfToken} />
      {children}
    </form>
  );
}

export interface FieldProps {
  name: string;
  /** The visible label: every input has one. */
  label: string;
  type?: 'text' | 'password' | 'email' | 'number' | 'search' | 'url' | 'date';
  value?: string;
  /** Shown under the label and read with the input (aria-describedby). */
  hint?: string;
  /** What is wrong with the value: shown, read with the input, and the input marked invalid. */
  error?: string | null;
  required?: boolean;
  autocomplete?: string;
  inputMode?: 'text' | 'numeric' | 'decimal' | 'email' | 'url';
}

/** The dashboard stylesheet's classes of a field's frame (FieldFrame). */
export const DASHBOARD_FIELD_CLASSES = { field: 'field', invalid: 'field field-invalid', error: 'error' };

/** A labelled input with its hint and error tied to it for screen readers. */
export function Field(props: FieldProps) {
  const id = `field-${props.name}`;
  return (
    <FieldFrame
      id={id}
      label={props.label}
      hint={props.hint}
      error={props.error}
      classes={DASHBOARD_FIELD_CLASSES}
    >
      {(describedBy) => (
        <input
          id={id}
          name={props.name}
          // Preact types each input type apart; the union of the types a Field allows is not one of them.
          type={(props.type ?? 'text') as 'text'}
          value={props.value}
          required={props.required}
          autocomplete={props.autocomplete}
          inputMode={props.inputMode}
          aria-describedby={describedBy}
          aria-invalid={props.error ? 'true' : undefined}
        />
      )}
    </FieldFrame>
  );
}

export interface TextAreaFieldProps {
  name: string;
  label: string;
  value?: string;
  hint?: string;
  error?: string | null;
  rows?: number;
}

/** A labelled multi-line text input (one value a line, say), with its hint and error. */
export function TextAreaField({ name, label, value, hint, error, rows = 4 }: TextAreaFieldProps) {
  const id = `field-${name}`;
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} classes={DASHBOARD_FIELD_CLASSES}>
      {(describedBy) => (
        <textarea
          id={id}
          name={name}
          rows={rows}
          spellcheck={false}
          autocomplete="off"
          aria-describedby={describedBy}
          aria-invalid={error ? 'true' : undefined}
        >
          {value ?? ''}
        </textarea>
      )}
    </FieldFrame>
  );
}

export interface SubmitButtonProps {
  children: ComponentChildren;
  /** A button that submits a value of its own (e.g. one button per environment). */
  name?: string;
  value?: string;
  /** Marks the button of the state that is already on (aria-pressed). */
  pressed?: boolean;
  class?: string;
}

export function SubmitButton({ children, name, value, pressed, class: className }: SubmitButtonProps) {
  return (
    <button
      type="submit"
      name={name}
      value={value}
      aria-pressed={pressed === undefined ? undefined : pressed ? 'true' : 'false'}
      class={className}
    >
      {children}
    </button>
  );
}
