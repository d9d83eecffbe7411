import type { ComponentChildren } from 'preact';
import { FieldFrame } from './field-frame';
import { DASHBOARD_FIELD_CLASSES } from './forms';

export interface FilterFormProps {
  /** The list's own path: filters are a GET, so the filtered list has an address of its own. */
  action: string;
  /** Its accessible name, e.g. "Filter payouts". */
  label: string;
  children: ComponentChildren;
}

/** A GET form over a list: no CSRF token (it changes nothing), its fields become the query. */
export function FilterForm({ action, label, children }: FilterFormProps) {
  return (
    <form method="get" action={action} aria-label={label} class="filters">
      {children}
      <div class="filter-actions">
        <button type="submit" class="primary">
          Apply
        </button>
        <a href={action}>Clear filters</a>
      </div>
    </form>
  );
}

export interface SelectFieldProps {
  name: string;
  label: string;
  /** Value and visible text; the first is usually `['', 'Any']`. */
  options: readonly (readonly [string, string])[];
  value?: string;
  hint?: string;
  error?: string | null;
}

/** A labelled select, with hint and error tied to it as Field does. */
export function SelectField({ name, label, options, value, hint, error }: SelectFieldProps) {
  const id = `field-${name}`;
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} classes={DASHBOARD_FIELD_CLASSES}>
      {(describedBy) => (
        <select id={id} name={name} aria-describedby={describedBy} aria-invalid={error ? 'true' : undefined}>
          {options.map(([optionValue, text]) => (
            <option key={optionValue} value={optionValue} selected={optionValue === (value ?? '')}>
              {text}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

export interface CopyFieldProps {
  name: string;
  label: string;
  value: string;
  hint?: string;
}

/**
 * A value to copy (a claim link, a secret shown once): a read-only input, so it can be selected
 * and copied with the keyboard or a long press, with no script on the page.
 */
export function CopyField({ name, label, value, hint }: CopyFieldProps) {
  const id = `copy-${name}`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        type="text"
        readOnly
        value={value}
        aria-describedby={hint ? `${id}-hint` : undefined}
        class="copy-value"
      />
    </div>
  );
}
