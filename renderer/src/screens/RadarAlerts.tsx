// The poisoning radar on the dashboard (issue 21 item 3): each deposit sender that looks like an address-book entry,
// the entry it looks like and how, its first deposit, and where its clearance stands; an admin clears one (the first
// proposes, a second, independent admin confirms). Shown only while the radar flagged something.
import { useEffect, useState } from 'react';
import type { ContractError, PoisoningAlertView } from '../../../electron/contract';
import { Amount } from '../components/Amount';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { askOperator } from '../stores/operator-prompt';
import { useRadarStore } from '../stores/radar';

const STATUS_TEXT: Readonly<Record<PoisoningAlertView['status'], string>> = {
  blocked: 'Refused: it cannot be paid',
  clearing: 'Clearing: waits for a second admin',
  clearScheduled: 'Cleared, in force after the loosening delay',
  cleared: 'Cleared by two admins',
};

export function RadarAlerts(): React.JSX.Element | null {
  const radar = useRadarStore((state) => state.radar);
  const [error, setError] = useState<ContractError | null>(null);
  useEffect(() => {
    void useRadarStore.getState().load();
  }, []);
  if (radar === null || radar.alerts.length === 0) return null;

  async function clear(alert: PoisoningAlertView): Promise<void> {
    const confirming = alert.clearing !== null;
    const result = await askOperator({
      title: confirming ? 'Confirm the clearance' : 'Propose clearing this address',
      description: `${alert.sender} looks like address-book entry ${alert.looksLike} (${alert.similarity}) and sent a deposit: likely address poisoning. Clear it only if you checked with the owner that it is theirs.`,
      hint: confirming ? `An admin other than ${alert.clearing?.proposer ?? 'the proposer'} confirms with their own passphrase.` : 'An admin proposes; another, independent admin confirms.',
      confirmLabel: confirming ? 'Confirm the clearance' : 'Propose the clearance',
      danger: true,
      run: (as) => useRadarStore.getState().clear(alert.sender, as),
    });
    if (result !== null) setError(result.ok ? null : result.error);
  }

  return (
    <section className={`card${radar.blocked > 0 ? ' card--warn' : ''}`} aria-labelledby="radar-title" data-testid="@dashboard/radar">
      <h2 id="radar-title">
        {radar.blocked > 0 ? `${radar.blocked} likely address-poisoning sender${radar.blocked === 1 ? '' : 's'} refused` : 'Address-poisoning senders, cleared'}
      </h2>
      <p className="muted small">
        A deposit came from an address that looks like one in the address book. Never copy an address from the deposit history; these are refused at
        preflight, request and send until two admins clear them.
      </p>
      <ErrorNotice error={error} testId="@dashboard/radar-error" />
      <ul className="stack findings">
        {radar.alerts.map((alert) => (
          <li key={alert.sender} data-testid="@dashboard/radar-item" data-status={alert.status}>
            <p>
              <strong className="mono">{alert.sender}</strong> looks like <span className="mono">{alert.looksLike}</span> ({alert.similarity}).
            </p>
            <p className="muted small">
              First deposit <Amount value={alert.firstDeposit.amount} currency={alert.firstDeposit.currency} /> on <DateTime at={alert.firstDeposit.at} />, txid{' '}
              <span className="mono">{alert.firstDeposit.txid}</span>; {alert.deposits} deposit{alert.deposits === 1 ? '' : 's'} in all.
            </p>
            <p>
              <span className={`badge badge--${alert.status === 'cleared' ? 'neutral' : 'bad'}`} data-testid="@dashboard/radar-status">
                {STATUS_TEXT[alert.status]}
              </span>{' '}
              {alert.status === 'blocked' || alert.status === 'clearing' ? (
                <button type="button" className="button button--link" onClick={() => void clear(alert)} data-testid="@dashboard/radar-clear">
                  {alert.clearing === null ? 'Propose clearing it' : 'Confirm the clearance'}
                </button>
              ) : null}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
