// The Settings panel of team mode: whether this desk is a team desk, connected since when (or unreachable since when
// and why), how fresh its copy is, the rows of the team database it refused, and an admin's forms to move this desk
// into an empty team database (team/init) or join one (team/join) through TeamConnectForm, or stop (team/leave); and a
// verification of the whole team chain from its genesis on request (team/verify).
// docs/team.md explains the model.
import { useEffect, useState } from 'react';
import type { ContractError } from '../api';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { t, tRich } from '../i18n';
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
      title: t('account.team.leaveTitle'),
      description: t('account.team.leaveDescription'),
      confirmLabel: t('account.team.leaveConfirm'),
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
      <h2 id="team-title">{t('account.team.title')}</h2>
      {status === null ? (
        <p className="muted small">{t('account.team.loading')}</p>
      ) : status.enabled ? (
        <>
          <p data-testid="@settings/team-connection" role="status">
            {status.connected
              ? tRich('account.team.connectedSince', { since: <DateTime at={status.since} /> })
              : tRich('account.team.unreachableSince', { reason: status.reason ?? t('account.team.noAnswer'), since: <DateTime at={status.since} /> })}
          </p>
          <p className="muted small">
            {t('account.team.where', { database: status.database, workstation: status.workstation })}{' '}
            {/* The row is a sequence number, shown as the engine gives it (not grouped like a quantity). */}
            {status.verifiedAt === null
              ? t('account.team.lastVerified', { row: String(status.verifiedSeq) })
              : tRich('account.team.lastVerifiedAt', { row: String(status.verifiedSeq), at: <DateTime at={status.verifiedAt} /> })}
            {status.connected ? null : ` ${t('account.team.offlineCopy')}`}
          </p>
          {status.genesis === null ? null : (
            <p className="small">
              {tRich('account.team.genesis', { fingerprint: <strong data-testid="@settings/team-genesis">{status.genesis.fingerprint}</strong> })}
            </p>
          )}
          {status.halted === null ? null : (
            <p className="notice notice--error" data-testid="@settings/team-halted">
              {t('account.team.notTrusted', { reason: status.halted })}
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
              {tRich('account.team.verified', {
                at: <DateTime at={verified.at} />,
                rows: verified.rows,
                verdict: verified.trusted ? t('account.team.verifiedTrusted') : t('account.team.verifiedNotTrusted'),
                refused: status.refused.length === 0 ? '' : t('account.team.verifiedRefused', { count: status.refused.length }),
              })}
            </p>
          )}
          <div className="actions">
            <button type="button" className="button" onClick={() => void verify()} disabled={verifying} data-testid="@settings/team-verify">
              {verifying ? t('account.team.verifying') : t('account.team.verify')}
            </button>
            <button type="button" className="button" onClick={() => void leave()} data-testid="@settings/team-leave">
              {t('account.team.leave')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="muted small">{t('account.team.intro')}</p>
          <TeamConnectForm scope="@settings" offerInit />
        </>
      )}
      <ErrorNotice error={error} />
    </section>
  );
}
