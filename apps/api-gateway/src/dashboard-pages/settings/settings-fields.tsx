import type { ComponentChildren } from 'preact';

/**
 * The Settings page's own controls, built as the kit's fields are: a visible label for every
 * control, the hint and the error read with it (aria-describedby) and the control marked invalid.
 */

function describedBy(...ids: (string | undefined)[]): string | undefined {
  return ids.filter(Boolean).join(' ') || undefined;
}

export interface CheckboxOption {
  /** The checkbox's own field name (each box posts `on` under its name when ticked). */
  name: string;
  label: string;
  checked?: boolean;
}

export interface CheckboxGroupProps {
  /** The group's id stem (its error is `field-<id>-error`). */
  id: string;
  legend: string;
  options: readonly CheckboxOption[];
  hint?: string;
  error?: string | null;
}

/** Labelled checkboxes in a fieldset whose legend names the group; hint and error read with it. */
export function CheckboxGroup({ id, legend, options, hint, error }: CheckboxGroupProps) {
  const stem = `field-${id}`;
  const hintId = hint ? `${stem}-hint` : undefined;
  const errorId = error ? `${stem}-error` : undefined;
  return (
    <fieldset
      id={stem}
      class={error ? 'settings-checkboxes field-invalid' : 'settings-checkboxes'}
      aria-describedby={describedBy(hintId, errorId)}
    >
      <legend>{legend}</legend>
      {hint ? (
        <p class="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p class="error" id={errorId}>
          {error}
        </p>
      ) : null}
      {options.map((option) => (
        <div key={option.name} class="settings-checkbox">
          <input id={`field-${option.name}`} type="checkbox" name={option.name} checked={option.checked} />
          <label for={`field-${option.name}`}>{option.label}</label>
        </div>
      ))}
    </fieldset>
  );
}

/** A section of the Settings page: an h2 and what belongs under it. */
export function SettingsSection({
  id,
  heading,
  children,
}: {
  id: string;
  heading: string;
  children: ComponentChildren;
}) {
  return (
    <section class="settings-section" aria-labelledby={`${id}-heading`} id={id}>
      <h2 id={`${id}-heading`}>{heading}</h2>
      {children}
    </section>
  );
}
