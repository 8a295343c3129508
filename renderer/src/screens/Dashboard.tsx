// Dashboard: balances per currency (available and frozen, exact strings from balances/list; a currency the service
// added later is marked), totals per asset across chains and a balance history chart (BalanceTotals.tsx), sync state
// and freshness per resource (sync/status), whether the deposit history is complete or how far its walk got, with the
// full walk (sync/run {full: true}), "Sync now" (sync/run), the hide-balances toggle (every screen follows it), pending
// approvals, the poisoning radar's flagged senders (RadarAlerts.tsx), the withdrawals stuck now (withdrawals/list {stuck})
// with what to do next, and the service's currency table with fees and minimums.
import { useEffect } from 'react';
import type { DepositHistoryView, DepositRef, DepositVerification } from '../../../electron/contract';
import { BalanceAmount } from '../components/BalanceAmount';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { HideBalancesToggle } from '../components/HideBalancesToggle';
import { Amount } from '../components/Amount';
import { RecordFields } from '../components/RecordFields';
import { StuckFlag } from '../components/StuckFlag';
import { SyncFreshnessTable } from '../components/SyncFreshnessTable';
import { currencyLabel, timeAgo, currencyNameOf } from '../format';
import { t, tRich } from '../i18n';
import { useNow } from '../hooks';
import { useBalancesStore } from '../stores/balances';
import { useNavigationStore } from '../stores/navigation';
import { useSyncStore } from '../stores/sync';
import { awaitingApprovalCount, useWithdrawalsStore } from '../stores/withdrawals';
import { AssetTotals, BalanceHistory } from './BalanceTotals';
import { CurrencyTable, NewCurrencyBadge } from './CurrencyTable';
import { RadarAlerts } from './RadarAlerts';

/** How often the dashboard asks which orders are stuck (being stuck is a matter of time, not of an event). */
const STUCK_REFRESH_MS = 60_000;

export function Dashboard(): React.JSX.Element {
  const balances = useBalancesStore((state) => state.balances);
  const loaded = useBalancesStore((state) => state.loaded);
  const error = useBalancesStore((state) => state.error);
  const status = useSyncStore((state) => state.status);
  const connection = useSyncStore((state) => state.connection);
  const running = useSyncStore((state) => state.running);
  const syncError = useSyncStore((state) => state.error);
  // A batch payout waiting for approval counts once, like in the approvals queue.
  const waiting = useWithdrawalsStore(awaitingApprovalCount);
  const now = useNow(10_000);
  const balancesState = status?.resources.find((resource) => resource.resource === 'balances');
  const freshest = balancesState?.lastSuccessAt ?? balances.reduce<number | null>((latest, balance) => (latest === null || balance.observedAt > latest ? balance.observedAt : latest), null);

  return (
    <>
      <div className="toolbar">
        <p className="freshness" data-testid="@dashboard/freshness">
          {connection === null ? null : (
            <span className={`dot dot--${connection.online ? 'online' : 'offline'}`} aria-hidden="true" />
          )}
          {connection?.online === false ? `${t('history.dashboard.offline')} ` : connection?.online === true ? `${t('history.dashboard.online')} ` : null}
          {freshest === null || freshest === undefined
            ? t('history.dashboard.notFetched')
            : tRich('history.dashboard.updated', { ago: timeAgo(freshest, now), time: <DateTime at={freshest} />, muted: (chunks) => <span className="muted">{chunks}</span> })}
        </p>
        <div className="toolbar__actions">
          <HideBalancesToggle testId="@dashboard/hide-toggle" />
          <button type="button" className="button button--primary" disabled={running || status?.running === true} onClick={() => void useSyncStore.getState().run()} data-testid="@dashboard/sync-button">
            {running || status?.running === true ? t('history.dashboard.syncing') : t('history.dashboard.syncNow')}
          </button>
        </div>
      </div>
      <ErrorNotice error={syncError} testId="@dashboard/sync-error" />
      <RadarAlerts />
      <StuckOrders />
      {waiting === 0 ? null : (
        <div className="notice notice--info">
          <p>
            {t('history.dashboard.waiting', { count: waiting })}{' '}
            <button type="button" className="button button--link" onClick={() => useNavigationStore.getState().go('withdrawals')}>
              {t('history.dashboard.openQueue')}
            </button>
          </p>
        </div>
      )}
      <section className="card" aria-labelledby="balances-title">
        <h2 id="balances-title">{t('history.word.balances')}</h2>
        <ErrorNotice error={error} />
        {loaded && balances.length === 0 && error === null ? <p className="muted">{t('history.dashboard.noBalances')}</p> : null}
        {balances.length === 0 ? null : (
          <div className="table-wrap">
            <table className="table table--numbers" data-testid="@dashboard/balances">
              <thead>
                <tr>
                  <th scope="col">{t('history.word.currency')}</th>
                  <th scope="col" className="num">
                    {t('history.word.available')}
                  </th>
                  <th scope="col" className="num">
                    {t('history.dashboard.column.frozenPending')}
                  </th>
                  <th scope="col">{t('history.dashboard.column.observed')}</th>
                </tr>
              </thead>
              <tbody>
                {balances.map((balance) => (
                  <tr key={balance.currency} data-testid={`@dashboard/balance-${balance.currency}`}>
                    <th scope="row">
                      {currencyNameOf({ symbol: balance.currency, displayName: balance.displayName })} <span className="muted small">{balance.currency}</span>
                      {balance.addressRules ? null : (
                        <>
                          {' '}
                          <NewCurrencyBadge note={balance.note} testId={`@dashboard/new-currency-${balance.currency}`} />
                        </>
                      )}
                      <RecordFields fields={balance.moreFields} summary={t('history.word.moreFields')} />
                    </th>
                    <td className="num">
                      <BalanceAmount value={balance.available} testId={`@dashboard/available-${balance.currency}`} />
                    </td>
                    <td className="num">
                      <BalanceAmount value={balance.frozen} testId={`@dashboard/frozen-${balance.currency}`} />
                    </td>
                    <td className="muted small">{timeAgo(balance.observedAt, now)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <AssetTotals />
      <BalanceHistory />
      <section className="card" aria-labelledby="sync-title">
        <h2 id="sync-title">{t('history.dashboard.syncState')}</h2>
        {status === null ? (
          <p className="muted">{t('history.dashboard.readingSyncState')}</p>
        ) : (
          <SyncFreshnessTable resources={status.resources} now={now} testId="@dashboard/sync-state" />
        )}
        {status === null ? null : <DepositHistory history={status.depositHistory} busy={running || status.running} now={now} />}
      </section>
      <CurrencyTable />
    </>
  );
}

/** "History complete", or how far the walk that completes it got, and the full walk. */
function DepositHistory({ history, busy, now }: { readonly history: DepositHistoryView; readonly busy: boolean; readonly now: number }): React.JSX.Element {
  const walk = history.walk;
  const held = t('history.count.deposits', { count: history.depositsHeld });
  return (
    <div className={`notice notice--${history.complete ? 'info' : 'warn'}`} data-testid="@dashboard/history">
      <p className="notice__title" data-testid="@dashboard/history-state">
        {history.complete ? t('history.dashboard.history.complete') : t('history.dashboard.history.incomplete')}
      </p>
      {history.complete ? (
        <p>{tRich('history.dashboard.history.holdsAll', { held, time: history.completeAt === null ? '—' : <DateTime at={history.completeAt} /> })}</p>
      ) : walk === null ? (
        <p>{t('history.dashboard.history.holds', { held })}</p>
      ) : (
        <p data-testid="@dashboard/history-walk">
          {t('history.dashboard.history.walk', {
            kind: walk.full ? 'full' : 'resumed',
            ago: timeAgo(walk.startedAt, now),
            pages: walk.pagesWalked,
            records: walk.recordsWalked,
            next: walk.nextPage,
          })}
        </p>
      )}
      <p className="notice__detail">
        {t('history.dashboard.history.fullWalk')}{' '}
        <button type="button" className="button button--small" disabled={busy} onClick={() => void useSyncStore.getState().run(true)} data-testid="@dashboard/history-full-button">
          {t('history.dashboard.history.fullWalkButton')}
        </button>
      </p>
      <HistoryComparison busy={busy} />
    </div>
  );
}

/** At most this many deposits of each kind of difference are listed on screen (the audit row and the CLI have all). */
const COMPARISON_ROWS_SHOWN = 50;

/**
 * The comparison of the desk's deposit history with the service's whole list (sync/verify, `sync --verify`): what is
 * missing here, what the service no longer lists, and what differs from the record as first seen. It stores nothing.
 */
function HistoryComparison({ busy }: { readonly busy: boolean }): React.JSX.Element {
  const verifying = useSyncStore((state) => state.verifying);
  const verification = useSyncStore((state) => state.verification);
  const verifyError = useSyncStore((state) => state.verifyError);
  return (
    <div className="stack" data-testid="@dashboard/comparison">
      <p className="notice__detail">
        {t('history.dashboard.comparison.about')}{' '}
        <button type="button" className="button button--small" disabled={busy || verifying} onClick={() => void useSyncStore.getState().verify()} data-testid="@dashboard/comparison-button">
          {verifying ? t('history.dashboard.comparison.busy') : t('history.dashboard.comparison.button')}
        </button>
      </p>
      <ErrorNotice error={verifyError} testId="@dashboard/comparison-error" />
      {verification === null ? null : <ComparisonResult verification={verification} />}
    </div>
  );
}

function ComparisonResult({ verification }: { readonly verification: DepositVerification }): React.JSX.Element {
  const differences = verification.missingLocally.length + verification.notListed.length + verification.differing.length;
  return (
    <div role="status" data-testid="@dashboard/comparison-result" data-ok={verification.ok}>
      <p className={`verdict verdict--${verification.ok ? 'ok' : 'bad'}`} data-testid="@dashboard/comparison-verdict">
        {verification.ok ? t('history.dashboard.comparison.match') : t('history.dashboard.comparison.differences', { count: differences })}
      </p>
      <p className="muted small" data-testid="@dashboard/comparison-counts">
        {tRich('history.dashboard.comparison.counts', {
          listed: verification.listedByService,
          held: verification.heldLocally,
          pages: verification.pagesWalked,
          time: <DateTime at={verification.finishedAt} />,
        })}
      </p>
      {verification.completeMarkWithdrawn ? (
        <p data-testid="@dashboard/comparison-withdrawn">{t('history.dashboard.comparison.withdrawn')}</p>
      ) : null}
      <ComparisonList title={t('history.dashboard.comparison.missing')} deposits={verification.missingLocally} testId="@dashboard/comparison-missing" />
      <ComparisonList title={t('history.dashboard.comparison.notListed')} deposits={verification.notListed} testId="@dashboard/comparison-not-listed" />
      <ComparisonList title={t('history.dashboard.comparison.differing')} deposits={verification.differing} testId="@dashboard/comparison-differing" />
    </div>
  );
}

function ComparisonList({
  title,
  deposits,
  testId,
}: {
  readonly title: string;
  readonly deposits: readonly (DepositRef & { readonly fields?: readonly string[] })[];
  readonly testId: string;
}): React.JSX.Element | null {
  if (deposits.length === 0) return null;
  const shown = deposits.slice(0, COMPARISON_ROWS_SHOWN);
  return (
    <div className="table-wrap" data-testid={testId}>
      <table className="table table--dense">
        <caption className="table__caption">
          {deposits.length > shown.length
            ? t('history.dashboard.comparison.captionCut', { title, count: deposits.length, shown: shown.length })
            : t('history.dashboard.comparison.caption', { title, count: deposits.length })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('history.word.currency')}</th>
            <th scope="col" className="num">
              {t('history.word.amount')}
            </th>
            <th scope="col">{t('history.dashboard.comparison.column.serviceOrder')}</th>
            <th scope="col">{t('history.word.txid')}</th>
            <th scope="col">{t('history.dashboard.comparison.column.differsIn')}</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((deposit) => (
            <tr key={deposit.apiOrder} data-testid={`${testId}-row`}>
              <td>{deposit.currency}</td>
              <td className="num">
                <Amount value={deposit.amount} />
              </td>
              <td className="mono">{deposit.apiOrder}</td>
              <td className="mono">{deposit.txid}</td>
              <td>{deposit.fields === undefined ? '—' : deposit.fields.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function StuckOrders(): React.JSX.Element | null {
  const stuck = useWithdrawalsStore((state) => state.stuck);
  useEffect(() => {
    void useWithdrawalsStore.getState().loadStuck();
    const timer = window.setInterval(() => void useWithdrawalsStore.getState().loadStuck(), STUCK_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);
  if (stuck.length === 0) return null;
  return (
    <section className="card card--warn" aria-labelledby="stuck-title" data-testid="@dashboard/stuck">
      <h2 id="stuck-title">
        {t('history.dashboard.stuck.title', { count: stuck.length })}
      </h2>
      <ul className="stack findings">
        {stuck.map((view) => (
          <li key={view.id} data-testid="@dashboard/stuck-item" data-id={view.id}>
            <p>
              <strong>
                <Amount value={view.amount} currency={view.currency} />
              </strong>{' '}
              <span className="muted small">
                {t('history.dashboard.stuck.about', { currency: currencyLabel(view.currency), id: view.id, userOrder: view.userOrder })}
              </span>{' '}
              <button
                type="button"
                className="button button--link"
                onClick={() => useNavigationStore.getState().open({ kind: 'withdrawal', id: view.id })}
                data-testid="@dashboard/stuck-details"
              >
                {t('history.dashboard.stuck.open')}
              </button>
            </p>
            <StuckFlag view={view} testId="@dashboard/stuck-flag" />
          </li>
        ))}
      </ul>
    </section>
  );
}
