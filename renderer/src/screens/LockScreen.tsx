// The idle lock: covers the desk until an operator enters name and passphrase (session/unlock); an invited operator,
// who has no passphrase yet, accepts their invitation right here.
import { useState, type FormEvent } from 'react';
import type { ContractError } from '../api';
import { DemoOperators } from '../components/DemoOperators';
import { ErrorNotice } from '../components/ErrorNotice';
import { reloadEverything } from '../events';
import { t, tRich } from '../i18n';
import { Field, fieldError } from '../components/Field';
import { useSessionStore } from '../stores/session';
import { AcceptInvitation } from './Operators';

export function LockScreen(): React.JSX.Element {
  const profile = useSessionStore((state) => state.session?.profile ?? null);
  const [operator, setOperator] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [error, setError] = useState<ContractError | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    setBusy(true);
    const result = await useSessionStore.getState().unlock(operator.trim(), passphrase);
    setBusy(false);
    setPassphrase('');
    setError(result.ok ? null : result.error);
    if (result.ok) reloadEverything();
  }

  return (
    <div className="lock" role="dialog" aria-modal="true" aria-labelledby="lock-title" data-testid="@lock">
      <main className="lock__card">
        <h1 id="lock-title">{t('account.lock.title')}</h1>
        <p className="muted">
          {t('account.lock.intro')} {profile === null ? null : <>{tRich('account.lock.profile', { profile: <strong>{profile}</strong> })} </>}
          {t('account.lock.enter')}
        </p>
        <DemoOperators />
        <form onSubmit={(event) => void submit(event)} className="stack">
          <Field label={t('account.lock.operator')} error={fieldError(error?.fields, 'operator')}>
            {(control) => (
              <input
                {...control}
                className="input"
                autoComplete="username"
                autoFocus
                required
                value={operator}
                onChange={(event) => setOperator(event.target.value)}
                data-testid="@lock/operator"
              />
            )}
          </Field>
          <Field label={t('account.lock.passphrase')} error={fieldError(error?.fields, 'passphrase')}>
            {(control) => (
              <input
                {...control}
                className="input"
                type="password"
                autoComplete="current-password"
                required
                value={passphrase}
                onChange={(event) => setPassphrase(event.target.value)}
                data-testid="@lock/passphrase"
              />
            )}
          </Field>
          <ErrorNotice error={error} testId="@lock/error" />
          <button type="submit" className="button button--primary" disabled={busy} data-testid="@lock/unlock-button">
            {busy ? t('account.lock.checking') : t('account.lock.unlock')}
          </button>
        </form>
        <details className="guide" data-testid="@lock/invitation">
          <summary>{t('account.lock.invitation')}</summary>
          <p className="small">{t('account.lock.invitationText')}</p>
          <AcceptInvitation />
        </details>
      </main>
    </div>
  );
}
