// The Settings panel of team mode: whether this desk is a team desk, connected since when (or unreachable since when
// and why), how fresh its copy is, the rows of the team database it refused, and an admin's forms to move this desk
// into an empty team database (team/init) or join one (team/join) through TeamConnectForm, or stop (team/leave); and a
// verification of the whole team chain from its genesis on request (team/verify).
// docs/team.md explains the model.
import { useEffect, useState } from 'react';
import type { ContractError } from '../api';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { askOperator } from '../stores/operator-prompt';
import { useTeamStore } from '../stores/team';
import { TeamConnectForm } from './TeamConnectForm';

export function TeamDesk(): React.JSX.Element {
  const status = useTeamStore((state) => state.status);
  const [error, setError] = useState<ContractError | null>(null);
  const [verifying, setVerifying] = useState(false);
  /** When a verification asked here last finished, and what it found. */
  const [verified, setVerified] = useState<{ readonly at: number; readonly rows: number; readonly trusted: boolean } | null>(null);
  useEffect(() => {
    void useTeamStore.getState().load();
  }, []);

  async function leave(): Promise<void> {
    const result = await askOperator({
      title: 'Stop team mode on this workstation',
      description: 'This workstation keeps its copy of the desk; the team database is not changed.',
      confirmLabel: 'Stop team mode',
      run: (as) => useTeamStore.getState().leave(as),
    });
    if (result !== null) setError(result.ok ? null : result.error);
  }

  async function verify(): Promise<void> {
    setVerifying(true);
    const result = await useTeamStore.getState().verify();
    setVerifying(false);
    setError(result.ok ? null : result.error);
    if (result.ok) setVerified({ at: Date.now(), rows: result.value.verifiedSeq, trusted: result.value.halted === null });
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
          {status.genesis === null ? null : (
            <p className="small">
              Desk genesis fingerprint <strong data-testid="@settings/team-genesis">{status.genesis.fingerprint}</strong>: a workstation joining compares it with this one.
            </p>
          )}
          {status.halted === null ? null : (
            <p className="notice notice--error" data-testid="@settings/team-halted">
              Not trusted: {status.halted}
            </p>
          )}
          {status.enrolment === null ? null : (
            <p className="notice" data-testid="@settings/team-enrolment">
              {status.enrolment}
            </p>
          )}
          {status.refused.length === 0 ? null : (
            <ul className="small" data-testid="@settings/team-refused">
              {status.refused.map((refusal) => (
                <li key={`${refusal.source}:${refusal.rowName}:${refusal.reason}`}>{refusal.reason}</li>
              ))}
            </ul>
          )}
          {verified === null ? null : (
            <p role="status" data-testid="@settings/team-verified">
              Verified again from the genesis at <DateTime at={verified.at} />: {verified.rows} rows,{' '}
              {verified.trusted ? 'every statement holds under the pinned trust roots' : 'not trusted (see above)'}
              {status.refused.length === 0 ? '' : `; ${status.refused.length} rows refused (listed above)`}.
            </p>
          )}
          <div className="actions">
            <button type="button" className="button" onClick={() => void verify()} disabled={verifying} data-testid="@settings/team-verify">
              {verifying ? 'Verifying…' : 'Verify the team chain now'}
            </button>
            <button type="button" className="button" onClick={() => void leave()} data-testid="@settings/team-leave">
              Stop team mode here
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="muted small">Several workstations can share this desk on PostgreSQL: one approval queue, one audit.</p>
          <TeamConnectForm scope="@settings" offerInit />
        </>
      )}
      <ErrorNotice error={error} />
    </section>
  );
}
