// Founding a desk profile (operators/found): its first one or two admins, each typing their own name and passphrase
// (twice) in turn at this desk; why two founders give four-eyes from the start. Shared by onboarding and Operators.
// The passphrases stay in this form's inputs until the one call that founds the desk, and are cleared after it.
import { useState, type FormEvent } from 'react';
import type { RosterView } from '../../../electron/contract';
import type { ContractError } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field, fieldError } from '../components/Field';
import { t } from '../i18n';
import { NewPassphraseFields } from '../components/NewPassphraseFields';
import { useOperatorsStore } from '../stores/operators';

interface FounderDraft {
  readonly name: string;
  readonly passphrase: string;
  readonly confirm: string;
}

const EMPTY: FounderDraft = { name: '', passphrase: '', confirm: '' };

interface FoundingProps {
  /** The profile being founded, for the heading. */
  readonly profile: string | null;
  readonly onFounded: (roster: RosterView) => void;
}

export function Founding({ profile, onFounded }: FoundingProps): React.JSX.Element {
  const [step, setStep] = useState<0 | 1>(0);
  const [founders, setFounders] = useState<readonly [FounderDraft, FounderDraft]>([EMPTY, EMPTY]);
  const [mismatch, setMismatch] = useState(false);
  const [sameName, setSameName] = useState(false);
  const [error, setError] = useState<ContractError | null>(null);
  const [busy, setBusy] = useState(false);
  const current = founders[step];

  function update(field: keyof FounderDraft, value: string): void {
    setFounders(step === 0 ? [{ ...founders[0], [field]: value }, founders[1]] : [founders[0], { ...founders[1], [field]: value }]);
    setMismatch(false);
    setSameName(false);
  }

  /** The current founder's two passphrases agree (and, for the second, the name differs from the first's). */
  function checked(): boolean {
    if (current.passphrase !== current.confirm) {
      setMismatch(true);
      return false;
    }
    if (step === 1 && current.name.trim().toLowerCase() === founders[0].name.trim().toLowerCase()) {
      setSameName(true);
      return false;
    }
    return true;
  }

  async function found(count: 1 | 2): Promise<void> {
    setBusy(true);
    const admins = founders.slice(0, count).map((founder) => ({ operator: founder.name.trim(), passphrase: founder.passphrase }));
    const result = await useOperatorsStore.getState().found(admins);
    setBusy(false);
    if (result.ok) {
      setFounders([EMPTY, EMPTY]);
      setError(null);
      onFounded(result.value);
    } else setError(result.error);
  }

  function submit(event: FormEvent): void {
    event.preventDefault();
    if (!checked()) return;
    if (step === 0) {
      setError(null);
      setStep(1);
    } else void found(2);
  }

  function foundAlone(): void {
    if (checked()) void found(1);
  }

  const fields = error?.fields;
  const index = step;
  return (
    <section className="card stack" aria-labelledby="founding-title" data-testid="@founding">
      <h2 id="founding-title">{profile === null ? t('account.founding.title') : t('account.founding.titleForProfile', { profile })}</h2>
      <p>{t('account.founding.intro')}</p>
      <div className="notice notice--info" data-testid="@founding/why-two">
        <p className="notice__title">{t('account.founding.whyTwo.title')}</p>
        <p>{t('account.founding.whyTwo.text')}</p>
      </div>
      <form key={step} className="stack narrow" onSubmit={submit} aria-label={step === 0 ? t('account.founding.firstAdmin') : t('account.founding.secondAdmin')} data-testid={`@founding/admin-${step + 1}`}>
        <p className="notice__title">
          {step === 0 ? t('account.founding.step1') : t('account.founding.step2', { first: founders[0].name.trim() })}
        </p>
        <Field label={t('account.founding.name')} error={sameName ? t('account.founding.sameName') : fieldError(fields, `admins.${index}.operator`, 'name')}>
          {(control) => (
            <input {...control} className="input" autoComplete="off" autoFocus value={current.name} onChange={(event) => update('name', event.target.value)} required data-testid="@founding/name" />
          )}
        </Field>
        <NewPassphraseFields
          label={t('account.founding.passphrase')}
          value={current.passphrase}
          again={current.confirm}
          onChange={(value) => update('passphrase', value)}
          onAgainChange={(value) => update('confirm', value)}
          error={fieldError(fields, `admins.${index}.passphrase`, 'passphrase')}
          mismatch={mismatch}
          testIds={{ passphrase: '@founding/passphrase', again: '@founding/confirm' }}
        />
        <ErrorNotice error={error} testId="@founding/error" />
        <div className="actions">
          {step === 0 ? (
            <>
              <button type="submit" className="button button--primary" data-testid="@founding/next">
                {t('account.founding.next')}
              </button>
              <button type="button" className="button" disabled={busy} onClick={foundAlone} data-testid="@founding/found-alone">
                {busy ? t('account.founding.founding') : t('account.founding.alone')}
              </button>
            </>
          ) : (
            <>
              <button type="submit" className="button button--primary" disabled={busy} data-testid="@founding/found">
                {busy ? t('account.founding.founding') : t('account.founding.both')}
              </button>
              <button
                type="button"
                className="button"
                onClick={() => {
                  setFounders([{ ...founders[0], passphrase: '', confirm: '' }, EMPTY]);
                  setError(null);
                  setStep(0);
                }}
              >
                {t('account.founding.backToFirst')}
              </button>
            </>
          )}
        </div>
      </form>
    </section>
  );
}
