// A labelled form control with its hint and its error next to it (wired with aria-describedby / aria-invalid).
import { useId, type ReactNode } from 'react';

export interface ControlProps {
  readonly id: string;
  readonly 'aria-describedby'?: string;
  readonly 'aria-invalid'?: boolean;
}

interface FieldProps {
  readonly label: ReactNode;
  readonly hint?: ReactNode;
  readonly error?: string | null | undefined;
  readonly className?: string;
  readonly testId?: string;
  readonly children: (control: ControlProps) => ReactNode;
}

export function Field({ label, hint, error, className, testId, children }: FieldProps): React.JSX.Element {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint === undefined ? null : hintId, error ? errorId : null].filter((part) => part !== null).join(' ');
  return (
    <div className={`field${error ? ' field--invalid' : ''}${className === undefined ? '' : ` ${className}`}`}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {children({ id, ...(describedBy === '' ? {} : { 'aria-describedby': describedBy }), ...(error ? { 'aria-invalid': true } : {}) })}
      {hint === undefined ? null : (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error ? (
        <p id={errorId} className="field__error" data-testid={testId === undefined ? undefined : `${testId}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The message for `field` from a contract error's per-field map, trying a few spellings (`as.passphrase`, `amount`). */
export function fieldError(fields: Readonly<Record<string, string>> | undefined, ...names: string[]): string | null {
  if (fields === undefined) return null;
  for (const name of names) {
    const message = fields[name];
    if (message !== undefined) return message;
  }
  return null;
}
