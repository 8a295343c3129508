// A record's label in a table row (deposit, withdrawal, deposit address, address-book entry) with a small in-place
// edit: saving asks who is acting (an operator's signed action), unless the cell may be signed by the unlocked session
// (a record's label: SessionState.signsLabelsUntil), which the engine still checks; a refused session signature falls
// back to asking. The label shown comes through the display-safe bridge; the typed one is echoed escaped by the dialog.
import { useState, type FormEvent } from 'react';
import { LABEL_MAX_LENGTH } from '../../../electron/contract/limits';
import type { Result } from '../api';
import { t } from '../i18n';
import { askOperator, type ActingOperator } from '../stores/operator-prompt';
import { useSessionStore } from '../stores/session';

interface LabelCellProps {
  /** The label now ('' or null: none). */
  readonly label: string | null;
  /** What the record is, for the button's name and the dialog: "deposit DP123…". */
  readonly what: string;
  readonly save: (label: string, as: ActingOperator) => Promise<Result<unknown>>;
  /** Saves signed by the unlocked session's operator (no passphrase asked); absent: every save asks. */
  readonly saveInSession?: (label: string) => Promise<Result<unknown>>;
  readonly testId: string;
}

export function LabelCell({ label, what, save, saveInSession, testId }: LabelCellProps): React.JSX.Element {
  const [draft, setDraft] = useState<string | null>(null);
  const signsUntil = useSessionStore((state) => state.session?.signsLabelsUntil ?? null);
  const current = label ?? '';

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (draft === null) return;
    const text = draft.trim();
    if (saveInSession !== undefined && signsUntil !== null && signsUntil > Date.now()) {
      const saved = await saveInSession(text);
      if (saved.ok) {
        setDraft(null);
        return;
      }
    }
    const result = await askOperator({
      title: text === '' ? t('payees.labelCell.removeTitle') : t('payees.labelCell.setTitle'),
      description: text === '' ? t('payees.labelCell.removeDescription', { what }) : t('payees.labelCell.setDescription', { what, label: text }),
      confirmLabel: text === '' ? t('payees.labelCell.removeConfirm') : t('payees.labelCell.saveConfirm'),
      run: (as) => save(text, as),
    });
    if (result?.ok === true) setDraft(null);
  }

  if (draft === null) {
    return (
      <span className="label-cell">
        <span className="label-cell__text" title={current} data-testid={`${testId}-text`}>
          {current}
        </span>
        <button type="button" className="button button--link button--tiny" onClick={() => setDraft(current)} aria-label={current === '' ? t('payees.labelCell.addLabelTo', { what }) : t('payees.labelCell.editLabelOf', { what })} data-testid={`${testId}-edit`}>
          {current === '' ? t('payees.labelCell.addLabel') : t('payees.labelCell.edit')}
        </button>
      </span>
    );
  }
  return (
    <form className="label-cell label-cell--editing" onSubmit={(event) => void submit(event)} data-testid={`${testId}-form`}>
      <input
        className="input input--tiny"
        value={draft}
        maxLength={LABEL_MAX_LENGTH}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setDraft(null);
        }}
        aria-label={t('payees.labelCell.labelOf', { what })}
        autoFocus
        data-testid={`${testId}-input`}
      />
      <button type="submit" className="button button--primary button--tiny" data-testid={`${testId}-save`}>
        {t('payees.labelCell.save')}
      </button>
      <button type="button" className="button button--tiny" onClick={() => setDraft(null)}>
        {t('payees.labelCell.cancel')}
      </button>
    </form>
  );
}
