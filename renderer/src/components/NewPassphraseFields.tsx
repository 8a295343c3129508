// A new passphrase typed twice (founding, accepting an invitation, changing one's own): the one place a form chooses
// a passphrase, with its hint, the engine's field error, and the message when the two typings differ.
import { t } from '../i18n';
import { Field } from './Field';

interface NewPassphraseFieldsProps {
  /** "Your passphrase", "Your new passphrase", "New passphrase". */
  readonly label: string;
  readonly value: string;
  readonly again: string;
  readonly onChange: (value: string) => void;
  readonly onAgainChange: (value: string) => void;
  /** The engine's message for this field, if any. */
  readonly error: string | null;
  readonly mismatch: boolean;
  readonly hint?: string;
  readonly testIds: { readonly passphrase: string; readonly again: string };
}

export function NewPassphraseFields(props: NewPassphraseFieldsProps): React.JSX.Element {
  return (
    <>
      <Field label={props.label} hint={props.hint ?? t('operators.newPassphrase.hint')} error={props.error}>
        {(control) => (
          <input
            {...control}
            className="input"
            type="password"
            autoComplete="new-password"
            value={props.value}
            onChange={(event) => props.onChange(event.target.value)}
            required
            data-testid={props.testIds.passphrase}
          />
        )}
      </Field>
      <Field label={t('operators.newPassphrase.again', { label: props.label })} error={props.mismatch ? t('operators.newPassphrase.differ') : null}>
        {(control) => (
          <input
            {...control}
            className="input"
            type="password"
            autoComplete="new-password"
            value={props.again}
            onChange={(event) => props.onAgainChange(event.target.value)}
            required
            data-testid={props.testIds.again}
          />
        )}
      </Field>
    </>
  );
}
