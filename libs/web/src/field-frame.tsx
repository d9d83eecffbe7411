import type { ComponentChildren } from 'preact';

export interface FieldFrameProps {
  /** The control's id: the label names it, and the hint and error ids are made from it. */
  id: string;
  /** The visible label: every control has one. */
  label: string;
  /** Shown under the label and read with the control. */
  hint?: string;
  /** What is wrong with the value: shown, and read with the control. */
  error?: string | null;
  /** The class of the wrapper, valid and invalid, and of the error line (each stylesheet's own). */
  classes: { field: string; invalid: string; error: string };
  /** The control itself, given what its aria-describedby names (undefined for nothing). */
  children: (describedBy: string | undefined) => ComponentChildren;
}

/**
 * A labelled form control with its hint and error tied to it for screen readers: the frame every
 * field of a page shares, whatever its control (input, select, text area) and stylesheet.
 */
export function FieldFrame({ id, label, hint, error, classes, children }: FieldFrameProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div class={error ? classes.invalid : classes.field}>
      <label for={id}>{label}</label>
      {hint ? (
        <p class="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p class={classes.error} id={errorId}>
          {error}
        </p>
      ) : null}
      {children([hintId, errorId].filter(Boolean).join(' ') || undefined)}
    </div>
  );
}
