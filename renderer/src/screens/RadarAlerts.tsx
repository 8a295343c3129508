// The poisoning radar on the dashboard (issue 21 item 3): each deposit sender that looks like an address-book entry,
// the entry it looks like and how, its first deposit, and where its clearance stands; an admin clears one (the first
// proposes, a second, independent admin confirms). Shown only while the radar flagged something.
import { useEffect, useState } from 'react';
import type { ContractError, PoisoningAlertView } from '../../../electron/contract';
import { Amount } from '../components/Amount';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { t, tRich, type MessageId } from '../i18n';
import { askOperator } from '../stores/operator-prompt';
import { useRadarStore } from '../stores/radar';

const STATUS_TEXT: Readonly<Record<PoisoningAlertView['status'], MessageId>> = {
  blocked: 'payees.radar.status.blocked',
  clearing: 'payees.radar.status.clearing',
  clearScheduled: 'payees.radar.status.clearScheduled',
  cleared: 'payees.radar.status.cleared',
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
      title: confirming ? t('payees.radar.clear.confirm') : t('payees.radar.clear.proposeTitle'),
      description: t('payees.radar.clear.description', { sender: alert.sender, looksLike: alert.looksLike, similarity: alert.similarity }),
      hint: confirming
        ? alert.clearing === null
          ? t('payees.radar.clear.confirmHintNoProposer')
          : t('payees.radar.clear.confirmHint', { proposer: alert.clearing.proposer })
        : t('payees.radar.clear.proposeHint'),
      confirmLabel: confirming ? t('payees.radar.clear.confirm') : t('payees.radar.clear.propose'),
      danger: true,
      run: (as) => useRadarStore.getState().clear(alert.sender, as),
    });
    if (result !== null) setError(result.ok ? null : result.error);
  }

  return (
    <section className={`card${radar.blocked > 0 ? ' card--warn' : ''}`} aria-labelledby="radar-title" data-testid="@dashboard/radar">
      <h2 id="radar-title">
        {radar.blocked > 0 ? t('payees.radar.title.refused', { count: radar.blocked }) : t('payees.radar.title.cleared')}
      </h2>
      <p className="muted small">{t('payees.radar.intro')}</p>
      <ErrorNotice error={error} testId="@dashboard/radar-error" />
      <ul className="stack findings">
        {radar.alerts.map((alert) => (
          <li key={alert.sender} data-testid="@dashboard/radar-item" data-status={alert.status}>
            <p>
              {tRich('payees.radar.looksLike', { sender: <strong className="mono">{alert.sender}</strong>, looksLike: <span className="mono">{alert.looksLike}</span>, similarity: alert.similarity })}
            </p>
            <p className="muted small">
              {tRich('payees.radar.firstDeposit', {
                amount: <Amount value={alert.firstDeposit.amount} currency={alert.firstDeposit.currency} />,
                at: <DateTime at={alert.firstDeposit.at} />,
                txid: <span className="mono">{alert.firstDeposit.txid}</span>,
                deposits: alert.deposits,
              })}
            </p>
            <p>
              <span className={`badge badge--${alert.status === 'cleared' ? 'neutral' : 'bad'}`} data-testid="@dashboard/radar-status">
                {t(STATUS_TEXT[alert.status])}
              </span>{' '}
              {alert.status === 'blocked' || alert.status === 'clearing' ? (
                <button type="button" className="button button--link" onClick={() => void clear(alert)} data-testid="@dashboard/radar-clear">
                  {alert.clearing === null ? t('payees.radar.proposeButton') : t('payees.radar.clear.confirm')}
                </button>
              ) : null}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
