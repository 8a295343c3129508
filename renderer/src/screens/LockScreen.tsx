// The idle lock: covers the desk until an operator enters name and passphrase (session/unlock); an invited operator,
// who has no passphrase yet, accepts their invitation right here.
import { useState, type FormEvent } from 'react';
import type { ContractError } from '../api';
import { DemoOperators } from '../components/DemoOperators';
import { ErrorNotice } from '../components/ErrorNotice';
import { reloadEverything } from '../events';
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
        <h1 id="lock-title">Treasury Desk is locked</h1>
        <p className="muted">
          The desk locks itself after a while without use. {profile === null ? null : <>Profile: <strong>{profile}</strong>. </>}
          Enter your operator name and passphrase to continue.
        </p>
        <DemoOperators />
        <form onSubmit={(event) => void submit(event)} className="stack">
          <Field label="Operator" error={fieldError(error?.fields, 'operator')}>
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
          <Field label="Passphrase" error={fieldError(error?.fields, 'passphrase')}>
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
            {busy ? 'Checking…' : 'Unlock'}
          </button>
        </form>
        <details className="guide" data-testid="@lock/invitation">
          <summary>I have an invitation</summary>
          <p className="small">An admin gave you a one-time code and you have no passphrase yet: accept it here, with a passphrase of your own.</p>
          <AcceptInvitation />
        </details>
      </main>
    </div>
  );
}
