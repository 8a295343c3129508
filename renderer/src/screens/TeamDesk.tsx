// The Settings panel of team mode: whether this desk is a team desk, connected since when (or unreachable since when
// and why), how fresh its copy is, the rows of the team database it refused, and an admin's forms to move this desk
// into an empty team database (team/init), join one (team/join) or stop (team/leave). docs/team.md explains the model.
import { useEffect, useState, type FormEvent } from 'react';
import type { ContractError } from '../api';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field, fieldError } from '../components/Field';
import { askOperator } from '../stores/operator-prompt';
import { useTeamStore } from '../stores/team';

export function TeamDesk(): React.JSX.Element {
  const status = useTeamStore((state) => state.status);
  const [database, setDatabase] = useState('');
  const [workstation, setWorkstation] = useState('');
  const [error, setError] = useState<ContractError | null>(null);
  useEffect(() => {
    void useTeamStore.getState().load();
  }, []);

  async function connect(kind: 'init' | 'join', event?: FormEvent): Promise<void> {
    event?.preventDefault();
    const result = await askOperator({
      title: kind === 'init' ? 'Move this desk into a team database' : 'Join a team desk',
      description: 'An admin enrols this workstation: the other workstations trust its events only through that signature.',
      confirmLabel: kind === 'init' ? 'Move the desk' : 'Join',
      run: (as) => useTeamStore.getState().connect(kind, database.trim(), workstation.trim(), as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    if (result.ok) setDatabase('');
  }

  async function leave(): Promise<void> {
    const result = await askOperator({
      title: 'Stop team mode on this workstation',
      description: 'This workstation keeps its copy of the desk; the team database is not changed.',
      confirmLabel: 'Stop team mode',
      run: (as) => useTeamStore.getState().leave(as),
    });
    if (result !== null) setError(result.ok ? null : result.error);
  }

  return (
    <section className="card" aria-labelledby="team-title" data-testid="@settings/team">
      <h2 id="team-title">Team desk</h2>
      {status === null ? (
        <p className="muted small">Loading…</p>
      ) : status.enabled ? (
        <>
          <p data-testid="@settings/team-connection" role="status">
            {status.connected ? 'Connected' : `Team database unreachable: ${status.reason ?? 'no answer'}`} since <DateTime at={status.since} />
          </p>
          <p className="muted small">
            {status.database} — this workstation: {status.workstation}. Last verified row {status.verifiedSeq}
            {status.verifiedAt === null ? null : (
              <>
                {' '}
                at <DateTime at={status.verifiedAt} />
              </>
            )}
            .{status.connected ? null : ' Reviewing works from this copy; decisions wait until the database is back.'}
          </p>
          {status.halted === null ? null : (
            <p className="notice notice--error" data-testid="@settings/team-halted">
              Not trusted: {status.halted}
            </p>
          )}
          {status.refused.length === 0 ? null : (
            <ul className="small" data-testid="@settings/team-refused">
              {status.refused.map((refusal) => (
                <li key={`${refusal.source}:${refusal.rowName}:${refusal.reason}`}>{refusal.reason}</li>
              ))}
            </ul>
          )}
          <button type="button" className="button" onClick={() => void leave()} data-testid="@settings/team-leave">
            Stop team mode here
          </button>
        </>
      ) : (
        <form className="stack" onSubmit={(event) => void connect('join', event)}>
          <p className="muted small">Several workstations can share this desk on PostgreSQL: one approval queue, one audit.</p>
          <Field label="Team database URL" hint="postgres://ROLE:PASSWORD@HOST:PORT/DATABASE; the password is kept in this computer's keychain" error={fieldError(error?.fields, 'database')}>
            {(control) => <input {...control} className="input" type="password" autoComplete="off" value={database} onChange={(event) => setDatabase(event.target.value)} data-testid="@settings/team-database" />}
          </Field>
          <Field label="This workstation's name" error={fieldError(error?.fields, 'workstation')}>
            {(control) => <input {...control} className="input" value={workstation} onChange={(event) => setWorkstation(event.target.value)} data-testid="@settings/team-workstation" />}
          </Field>
          <div className="inline-form__submit">
            <button type="submit" className="button" data-testid="@settings/team-join">
              Join a team desk
            </button>
            <button type="button" className="button" onClick={() => void connect('init')} data-testid="@settings/team-init">
              Move this desk into an empty team database
            </button>
          </div>
        </form>
      )}
      <ErrorNotice error={error} />
    </section>
  );
}
