// The "who is acting?" dialog for privileged actions: operator name and passphrase (the contract's `as`), plus a
// reason where the action needs one. The passphrase stays in this form's input until the one call it is sent with.
// What the action will do often echoes typed text (an address, a name): it is shown escaped (displayText). A decision
// about a withdrawal or a key shows its fingerprint first, for the person acting to compare. The fields are prepared
// for a new prompt in the render that shows it, never after it is open: nothing typed into an open dialog is reset,
// and a prompt shown again after a refusal keeps the operator name typed before (the passphrase never outlives its
// call). `data-ready` is set once the dialog is open and prepared (tests wait for it before typing).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { displayText } from '../format';
import { t } from '../i18n';
import { useOperatorPromptStore } from '../stores/operator-prompt';
import { useSessionStore } from '../stores/session';
import { ApproverReview } from './ApproverReview';
import { DemoOperators } from './DemoOperators';
import { ErrorNotice } from './ErrorNotice';
import { Fingerprint } from './Fingerprint';
import { Field, fieldError } from './Field';

export function OperatorDialog(): React.JSX.Element {
  const pending = useOperatorPromptStore((state) => state.pending);
  const error = useOperatorPromptStore((state) => state.error);
  const busy = useOperatorPromptStore((state) => state.busy);
  const sessionOperator = useSessionStore((state) => state.session?.operator ?? null);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [operator, setOperator] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [reason, setReason] = useState('');
  const [reasonMissing, setReasonMissing] = useState(false);
  const [preparedFor, setPreparedFor] = useState<typeof pending>(null);

  // A new prompt (or none): the fields are set during this render, before the effect below opens the dialog.
  if (pending !== preparedFor) {
    setPreparedFor(pending);
    setPassphrase('');
    if (pending !== null) {
      setOperator((typed) => sessionOperator ?? typed);
      setReason('');
      setReasonMissing(false);
    }
  }

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog === null) return;
    if (pending !== null && preparedFor === pending) {
      if (!dialog.open) dialog.showModal();
      dialog.dataset['ready'] = 'true';
    } else if (pending === null && dialog.open) {
      delete dialog.dataset['ready'];
      dialog.close();
    }
  }, [pending, preparedFor]);

  function submit(event: FormEvent): void {
    event.preventDefault();
    if (pending?.reason?.required === true && reason.trim() === '') {
      setReasonMissing(true);
      return;
    }
    void useOperatorPromptStore.getState().confirm({ operator: operator.trim(), passphrase }, reason.trim());
  }

  const fields = error?.fields;
  return (
    <dialog
      ref={dialogRef}
      className="dialog"
      aria-labelledby="operator-dialog-title"
      onCancel={(event) => {
        event.preventDefault();
        useOperatorPromptStore.getState().cancel();
      }}
      data-testid="@operator-dialog"
    >
      {pending === null ? null : (
        <form onSubmit={submit} className="dialog__form">
          <h2 id="operator-dialog-title" className="dialog__title">
            {displayText(pending.title)}
          </h2>
          {pending.fingerprint === undefined ? null : <Fingerprint {...pending.fingerprint} testId="@operator-dialog/fingerprint" />}
          <p data-testid="@operator-dialog/description">{displayText(pending.description)}</p>
          {pending.review === undefined ? null : <ApproverReview view={pending.review} testId="@operator-dialog/review" />}
          {pending.hint === undefined ? null : <p className="muted">{displayText(pending.hint)}</p>}
          <DemoOperators />
          <Field label={t('operators.dialog.operator')} error={fieldError(fields, 'as.operator', 'operator')}>
            {(control) => (
              <input
                {...control}
                className="input"
                autoComplete="username"
                value={operator}
                onChange={(event) => setOperator(event.target.value)}
                required
                autoFocus={operator === ''}
                data-testid="@operator-dialog/operator"
              />
            )}
          </Field>
          <Field label={t('operators.dialog.passphrase')} error={fieldError(fields, 'as.passphrase', 'passphrase')}>
            {(control) => (
              <input
                {...control}
                className="input"
                type="password"
                autoComplete="current-password"
                value={passphrase}
                onChange={(event) => setPassphrase(event.target.value)}
                required
                autoFocus={operator !== ''}
                data-testid="@operator-dialog/passphrase"
              />
            )}
          </Field>
          {pending.reason === undefined ? null : (
            <Field label={pending.reason.label} error={reasonMissing ? t('operators.dialog.sayWhy') : fieldError(fields, 'reason')}>
              {(control) => (
                <textarea
                  {...control}
                  className="input"
                  rows={2}
                  maxLength={500}
                  value={reason}
                  onChange={(event) => setReason(event.target.value)}
                  data-testid="@operator-dialog/reason"
                />
              )}
            </Field>
          )}
          <ErrorNotice error={error} testId="@operator-dialog/error" />
          <div className="dialog__actions">
            <button type="button" className="button" onClick={() => useOperatorPromptStore.getState().cancel()}>
              {t('operators.cancel')}
            </button>
            <button
              type="submit"
              className={`button ${pending.danger === true ? 'button--danger' : 'button--primary'}`}
              disabled={busy}
              data-testid="@operator-dialog/confirm"
            >
              {busy ? t('operators.dialog.working') : pending.confirmLabel}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
