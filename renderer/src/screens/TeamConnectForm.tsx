// The form that connects this workstation to a team database (team/join, and team/init where the desk may move): the
// database URL and this workstation's name, then an admin enrols it in the operator dialog. Settings → Team desk and
// Onboarding's "Join a team desk" share it. The operator's own mistakes keep the dialog open; the database's refusals
// (not a URL, wrong password, unreachable, another desk) close it and show under the form with the engine's message.
// Joining first shows the desk's genesis fingerprint (team/preview): the joiner compares it with an admin on the desk.
import { useState, type FormEvent } from 'react';
import type { TeamGenesisView, TeamStatusView } from '../../../electron/contract';
import type { ContractError, Result } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field, fieldError } from '../components/Field';
import { t, tRich } from '../i18n';
import { askOperator } from '../stores/operator-prompt';
import { useTeamStore } from '../stores/team';

/** Refusals about the acting operator: the dialog stays open so they can type their name or passphrase again. */
const OPERATOR_REFUSALS: ReadonlySet<ContractError['code']> = new Set(['wrongPassphrase', 'forbidden', 'lockedOut']);

type ConnectKind = 'init' | 'join';

interface TeamConnectFormProps {
  /** The screen's test id prefix, e.g. `@settings` (the form's controls are `<scope>/team-database` and so on). */
  readonly scope: string;
  /** Offers moving this desk into an empty team database too (a desk that holds a chain; not a fresh workstation). */
  readonly offerInit: boolean;
  readonly onConnected?: (status: TeamStatusView) => void;
}

export function TeamConnectForm({ scope, offerInit, onConnected }: TeamConnectFormProps): React.JSX.Element {
  const [database, setDatabase] = useState('');
  const [workstation, setWorkstation] = useState('');
  const [error, setError] = useState<ContractError | null>(null);
  const [genesis, setGenesis] = useState<TeamGenesisView | null>(null);

  /** Joining, step 1: the desk's genesis fingerprint, shown for comparison before anyone is asked to sign. */
  async function preview(event: FormEvent): Promise<void> {
    event.preventDefault();
    const result = await useTeamStore.getState().preview(database.trim());
    setError(result.ok ? null : result.error);
    setGenesis(result.ok ? result.value.genesis : null);
  }

  async function connect(kind: ConnectKind, event?: FormEvent): Promise<void> {
    event?.preventDefault();
    const prompt = await askOperator<Result<TeamStatusView>>({
      title: kind === 'init' ? t('account.teamConnect.initTitle') : t('account.teamConnect.joinTitle'),
      description: t('account.teamConnect.description'),
      confirmLabel: kind === 'init' ? t('account.teamConnect.initConfirm') : t('account.teamConnect.joinConfirm'),
      run: async (as) => {
        const result = await useTeamStore.getState().connect(kind, database.trim(), workstation.trim(), as, genesis?.fingerprint);
        return !result.ok && OPERATOR_REFUSALS.has(result.error.code) ? result : { ok: true, value: result };
      },
    });
    if (prompt === null || !prompt.ok) return;
    const result = prompt.value;
    setError(result.ok ? null : result.error);
    if (!result.ok) return;
    setDatabase('');
    setGenesis(null);
    onConnected?.(result.value);
  }

  return (
    <form className="stack" onSubmit={(event) => void (genesis === null ? preview(event) : connect('join', event))} aria-label={t('account.teamConnect.form')}>
      <Field label={t('account.teamConnect.database')} hint={t('account.teamConnect.databaseHint')} error={fieldError(error?.fields, 'database')}>
        {(control) => (
          <input
            {...control}
            className="input"
            type="password"
            autoComplete="off"
            value={database}
            onChange={(event) => {
              setDatabase(event.target.value);
              setGenesis(null);
            }}
            data-testid={`${scope}/team-database`}
          />
        )}
      </Field>
      <Field label={t('account.teamConnect.workstation')} error={fieldError(error?.fields, 'workstation')}>
        {(control) => <input {...control} className="input" value={workstation} onChange={(event) => setWorkstation(event.target.value)} data-testid={`${scope}/team-workstation`} />}
      </Field>
      {genesis === null ? null : (
        <p className="notice" role="status">
          {tRich('account.teamConnect.genesis', {
            fingerprint: <strong data-testid={`${scope}/team-genesis`}>{genesis.fingerprint}</strong>,
            profiles: genesis.profiles.join(', '),
          })}
        </p>
      )}
      <ErrorNotice error={error} testId={`${scope}/team-error`} />
      <div className="inline-form__submit">
        <button type="submit" className="button" data-testid={`${scope}/team-join`}>
          {genesis === null ? t('account.teamConnect.join') : t('account.teamConnect.joinMatching')}
        </button>
        {offerInit ? (
          <button type="button" className="button" onClick={() => void connect('init')} data-testid={`${scope}/team-init`}>
            {t('account.teamConnect.init')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
