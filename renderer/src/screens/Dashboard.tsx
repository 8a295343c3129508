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
import { currencyLabel, timeAgo } from '../format';
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
          {connection?.online === false ? 'Offline — showing cached balances. ' : connection?.online === true ? 'Online. ' : null}
          {freshest === null || freshest === undefined ? 'Balances not fetched yet.' : <>Balances updated {timeAgo(freshest, now)} <span className="muted">(<DateTime at={freshest} />).</span></>}
        </p>
        <div className="toolbar__actions">
          <HideBalancesToggle testId="@dashboard/hide-toggle" />
          <button type="button" className="button button--primary" disabled={running || status?.running === true} onClick={() => void useSyncStore.getState().run()} data-testid="@dashboard/sync-button">
            {running || status?.running === true ? 'Syncing…' : 'Sync now'}
          </button>
        </div>
      </div>
      <ErrorNotice error={syncError} testId="@dashboard/sync-error" />
      <RadarAlerts />
      <StuckOrders />
      {waiting === 0 ? null : (
        <div className="notice notice--info">
          <p>
            {waiting} withdrawal{waiting === 1 ? '' : 's'} wait{waiting === 1 ? 's' : ''} for approval.{' '}
            <button type="button" className="button button--link" onClick={() => useNavigationStore.getState().go('withdrawals')}>
              Open the approvals queue
            </button>
          </p>
        </div>
      )}
      <section className="card" aria-labelledby="balances-title">
        <h2 id="balances-title">Balances</h2>
        <ErrorNotice error={error} />
        {loaded && balances.length === 0 && error === null ? <p className="muted">No balances cached yet: run a sync once the service is reachable.</p> : null}
        {balances.length === 0 ? null : (
          <div className="table-wrap">
            <table className="table table--numbers" data-testid="@dashboard/balances">
              <thead>
                <tr>
                  <th scope="col">Currency</th>
                  <th scope="col" className="num">
                    Available
                  </th>
                  <th scope="col" className="num">
                    Frozen (pending withdrawals)
                  </th>
                  <th scope="col">Observed</th>
                </tr>
              </thead>
              <tbody>
                {balances.map((balance) => (
                  <tr key={balance.currency} data-testid={`@dashboard/balance-${balance.currency}`}>
                    <th scope="row">
                      {balance.displayName} <span className="muted small">{balance.currency}</span>
                      {balance.addressRules ? null : (
                        <>
                          {' '}
                          <NewCurrencyBadge note={balance.note} testId={`@dashboard/new-currency-${balance.currency}`} />
                        </>
                      )}
                      <RecordFields fields={balance.moreFields} summary="More fields" />
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
        <h2 id="sync-title">Sync state</h2>
        {status === null ? (
          <p className="muted">Reading the sync state…</p>
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
  const held = `${history.depositsHeld} deposit${history.depositsHeld === 1 ? '' : 's'}`;
  return (
    <div className={`notice notice--${history.complete ? 'info' : 'warn'}`} data-testid="@dashboard/history">
      <p className="notice__title" data-testid="@dashboard/history-state">
        {history.complete ? 'Deposit history complete' : 'Deposit history incomplete'}
      </p>
      {history.complete ? (
        <p>
          This desk holds every deposit the service lists ({held}), as of {history.completeAt === null ? '—' : <DateTime at={history.completeAt} />}. Each sync
          adds the new ones.
        </p>
      ) : walk === null ? (
        <p>This desk holds {held}. The next sync walks the service&apos;s whole deposit list to make the history complete.</p>
      ) : (
        <p data-testid="@dashboard/history-walk">
          {walk.full ? 'A full walk' : 'The walk'} started {timeAgo(walk.startedAt, now)} has read {walk.pagesWalked} page{walk.pagesWalked === 1 ? '' : 's'} (
          {walk.recordsWalked} deposit{walk.recordsWalked === 1 ? '' : 's'}) and was interrupted; the next sync, by hand or in the background, resumes it at
          page {walk.nextPage}. The service does not say how many pages remain.
        </p>
      )}
      <p className="notice__detail">
        A full walk reads every page of the service&apos;s list once more and adds any deposit missing here; it takes a while for a long history.{' '}
        <button type="button" className="button button--small" disabled={busy} onClick={() => void useSyncStore.getState().run(true)} data-testid="@dashboard/history-full-button">
          Walk the whole history
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
        A comparison reads the service&apos;s whole list and checks it against this desk&apos;s, deposit by deposit; it stores nothing.{' '}
        <button type="button" className="button button--small" disabled={busy || verifying} onClick={() => void useSyncStore.getState().verify()} data-testid="@dashboard/comparison-button">
          {verifying ? 'Comparing…' : 'Compare with the service'}
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
        {verification.ok ? 'The histories match.' : `${differences} difference${differences === 1 ? '' : 's'} with the service.`}
      </p>
      <p className="muted small" data-testid="@dashboard/comparison-counts">
        The service lists {verification.listedByService} deposit{verification.listedByService === 1 ? '' : 's'}; this desk held {verification.heldLocally} when the comparison
        began. {verification.pagesWalked} page{verification.pagesWalked === 1 ? '' : 's'} read, finished <DateTime at={verification.finishedAt} />.
      </p>
      {verification.completeMarkWithdrawn ? (
        <p data-testid="@dashboard/comparison-withdrawn">The history is no longer marked complete: the next sync walks the whole list and fetches what is missing.</p>
      ) : null}
      <ComparisonList title="Listed by the service, missing here" deposits={verification.missingLocally} testId="@dashboard/comparison-missing" />
      <ComparisonList title="Held here, no longer listed by the service" deposits={verification.notListed} testId="@dashboard/comparison-not-listed" />
      <ComparisonList title="Listed differently from the record this desk first saw" deposits={verification.differing} testId="@dashboard/comparison-differing" />
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
          {title} ({deposits.length}
          {deposits.length > shown.length ? `, the first ${shown.length} shown; \`treasury-desk sync --verify\` lists all` : ''})
        </caption>
        <thead>
          <tr>
            <th scope="col">Currency</th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col">Service order</th>
            <th scope="col">Txid</th>
            <th scope="col">Differs in</th>
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
        {stuck.length} withdrawal{stuck.length === 1 ? ' seems' : 's seem'} stuck
      </h2>
      <ul className="stack findings">
        {stuck.map((view) => (
          <li key={view.id} data-testid="@dashboard/stuck-item" data-id={view.id}>
            <p>
              <strong>
                <Amount value={view.amount} currency={view.currency} />
              </strong>{' '}
              <span className="muted small">
                {currencyLabel(view.currency)} · request {view.id} · {view.userOrder}
              </span>{' '}
              <button
                type="button"
                className="button button--link"
                onClick={() => useNavigationStore.getState().open({ kind: 'withdrawal', id: view.id })}
                data-testid="@dashboard/stuck-details"
              >
                Open the order
              </button>
            </p>
            <StuckFlag view={view} testId="@dashboard/stuck-flag" />
          </li>
        ))}
      </ul>
    </section>
  );
}
