import type { ComponentChildren } from 'preact';

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

/** A labelled input with its hint and error tied to it for screen readers. */
export function Field(props: FieldProps) {
  const id = `field-${props.name}`;
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = props.error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div class={props.error ? 'field field-invalid' : 'field'}>
      <label for={id}>{props.label}</label>
      {props.hint ? (
        <p class="hint" id={hintId}>
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p class="error" id={errorId}>
          {props.error}
        </p>
      ) : null}
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
    </div>
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
