// Reconciliation: per currency and period (reconcile/run, from the desk's cache), deposits reported by callback against
// those listed by getDeposits, the available balance's movement between readings against deposits minus withdrawals
// (amount + fee) plus refunds, frozen funds against open orders, fees against the currency table; every difference
// with its exact amount, unexplained ones first, then those pending while an order of the desk is in flight, each
// linking to the deposit or order it is about. Balances follow the
// "Hide balances" setting. The period statement (Statement.tsx) closes the screen.
import { useEffect, type FormEvent } from 'react';
import { WITHDRAWAL_CURRENCIES } from '../../../electron/chains';
import {
  findingStatus,
  type CurrencyReconciliation,
  type ReconciliationFinding,
  type ReconciliationFindingKind,
  type ReconciliationFindingStatus,
  type ReconciliationReport,
  type ReconciliationTally,
} from '../../../electron/contract';
import { Amount } from '../components/Amount';
import { BalanceAmount, useBalancesHidden } from '../components/BalanceAmount';
import { DateTime, useReportingTimeZone } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field } from '../components/Field';
import { Select } from '../components/Select';
import { currencyLabel } from '../format';
import { useBalancesStore } from '../stores/balances';
import { useNavigationStore } from '../stores/navigation';
import { useReconciliationStore } from '../stores/reconciliation';
import { StatementSection } from './Statement';

const KIND_LABELS: Readonly<Record<ReconciliationFindingKind, string>> = {
  callbackOnly: 'Seen only by callback',
  queryOnly: 'Seen only by query',
  queryOnlyWithoutCallbacks: 'Seen only by query (no callbacks then)',
  unexplainedBalanceChange: 'Balance change',
  frozenMismatch: 'Frozen funds',
  feeDiffers: 'Fee differs from the table',
  refund: 'Refund',
  failedOrder: 'Failed order',
  recordedAfterReading: 'Recorded after a reading',
  awaitingOrder: 'Waiting for an order in flight',
};

/** Findings whose sentence quotes a balance: hidden with the balances. */
const QUOTES_BALANCES: ReadonlySet<ReconciliationFindingKind> = new Set(['unexplainedBalanceChange', 'frozenMismatch', 'awaitingOrder']);

/** How each standing of a finding looks: its badge, its notice, its word. */
const STATUS_LOOKS: Readonly<Record<ReconciliationFindingStatus, { readonly badge: string; readonly notice: string; readonly label: string }>> = {
  explained: { badge: 'neutral', notice: 'info', label: 'Explained' },
  pending: { badge: 'warn', notice: 'warn', label: 'Pending' },
  unexplained: { badge: 'bad', notice: 'error', label: 'Unexplained' },
};

export function Reconciliation(): React.JSX.Element {
  const report = useReconciliationStore((state) => state.report);
  const error = useReconciliationStore((state) => state.error);
  const running = useReconciliationStore((state) => state.running);
  // Reconciles when shown without a report (first time, or after a reset); an error waits for the button.
  useEffect(() => {
    if (report === null && error === null && !running) void useReconciliationStore.getState().run();
  }, [report, error, running]);
  return (
    <div className="reconciliation">
      <PeriodForm />
      <ErrorNotice error={error} testId="@reconciliation/error" />
      <div role="status" aria-live="polite">
        {report === null ? null : <Verdict report={report} />}
      </div>
      {report === null ? null : <Summary report={report} />}
      {report?.currencies.map((currency) => <CurrencyDetail key={currency.currency} currency={currency} />)}
      <StatementSection />
    </div>
  );
}

function PeriodForm(): React.JSX.Element {
  const filters = useReconciliationStore((state) => state.filters);
  const running = useReconciliationStore((state) => state.running);
  const timeZone = useReportingTimeZone();
  const set = useReconciliationStore.getState().setFilters;
  // '' is every currency with records; then the 13, then any the service added later.
  const currencies = useBalancesStore((state) => state.currencies);
  const names = new Map(currencies.map((currency) => [currency.symbol, currency.displayName]));
  const options: readonly string[] = ['', ...WITHDRAWAL_CURRENCIES, ...currencies.filter((currency) => !currency.addressRules).map((currency) => currency.symbol)];
  function submit(event: FormEvent): void {
    event.preventDefault();
    void useReconciliationStore.getState().run();
  }
  return (
    <form className="filters" aria-label="Reconciliation period" onSubmit={submit}>
      <Field label="Currency">
        {(control) => (
          <Select
            control={control}
            value={filters.currency}
            options={options}
            label={(symbol) => (symbol === '' ? 'All with records' : (names.get(symbol) ?? currencyLabel(symbol)))}
            onChange={(currency) => set({ currency })}
            testId="@reconciliation/currency"
          />
        )}
      </Field>
      <Field label={`From (date, ${timeZone})`} hint="Empty: from the first record">
        {(control) => <input {...control} className="input" type="date" value={filters.from} onChange={(event) => set({ from: event.target.value })} data-testid="@reconciliation/from" />}
      </Field>
      <Field label={`To (date, ${timeZone})`} hint="Empty: up to now">
        {(control) => <input {...control} className="input" type="date" value={filters.to} onChange={(event) => set({ to: event.target.value })} data-testid="@reconciliation/to" />}
      </Field>
      <div className="filters__clear">
        <button type="submit" className="button button--primary" disabled={running} data-testid="@reconciliation/run-button">
          {running ? 'Reconciling…' : 'Reconcile'}
        </button>
      </div>
    </form>
  );
}

function Verdict({ report }: { readonly report: ReconciliationReport }): React.JSX.Element {
  const findings = report.currencies.reduce((count, currency) => count + currency.findings.length, 0);
  const pending = report.currencies.reduce((count, currency) => count + currency.findings.filter((finding) => findingStatus(finding) === 'pending').length, 0);
  return (
    <div className={`notice notice--${!report.ok ? 'error' : pending > 0 ? 'warn' : 'ok'}`} data-testid="@reconciliation/verdict" data-ok={String(report.ok)}>
      <p className="notice__title">
        {report.ok
          ? pending > 0
            ? `Nothing unexplained: ${pending} difference${pending === 1 ? '' : 's'} pending while orders of this desk are in flight. Sync once they are final, then reconcile again.`
            : `Everything adds up${findings === 0 ? '' : `: ${findings} difference${findings === 1 ? '' : 's'}, each explained`}.`
          : `${report.unexplained} difference${report.unexplained === 1 ? '' : 's'} unexplained: look at the findings marked Unexplained.`}
      </p>
      <p className="small">
        From {report.from === null ? 'the first record' : <DateTime at={report.from} />} to <DateTime at={report.to} />, profile {report.profile}.{' '}
        {report.callbacksSince === null ? 'This desk has received no callback: deposits are known by sync only.' : <>Callbacks received since <DateTime at={report.callbacksSince} />.</>}{' '}
        Last deposits sync: {report.lastDepositsSyncAt === null ? 'never' : <DateTime at={report.lastDepositsSyncAt} />}.
      </p>
    </div>
  );
}

function TallyCell({ tally, currency }: { readonly tally: ReconciliationTally; readonly currency: string }): React.JSX.Element {
  return (
    <td className="num">
      {tally.count} <span className="muted small">(<Amount value={tally.amount} currency={currency} />)</span>
    </td>
  );
}

function Summary({ report }: { readonly report: ReconciliationReport }): React.JSX.Element {
  return (
    <section className="card" aria-labelledby="reconciliation-summary-title">
      <h2 id="reconciliation-summary-title">Per currency</h2>
      {report.currencies.length === 0 ? (
        <p className="muted" data-testid="@reconciliation/empty">
          No records to reconcile yet: run a sync once the service is reachable.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table table--dense table--numbers" data-testid="@reconciliation/summary">
            <thead>
              <tr>
                <th scope="col">Currency</th>
                <th scope="col" className="num">Deposits</th>
                <th scope="col" className="num">Both ways</th>
                <th scope="col" className="num">Callback only</th>
                <th scope="col" className="num">Query only</th>
                <th scope="col" className="num">Unexplained balance change</th>
                <th scope="col">Verdict</th>
              </tr>
            </thead>
            <tbody>
              {report.currencies.map((currency) => {
                const unexplained = currency.findings.filter((finding) => findingStatus(finding) === 'unexplained').length;
                const pending = currency.findings.filter((finding) => findingStatus(finding) === 'pending').length;
                const [badge, verdict] = unexplained > 0 ? ['bad', `${unexplained} unexplained`] : pending > 0 ? ['warn', `${pending} pending`] : ['good', 'adds up'];
                return (
                  <tr key={currency.currency} data-testid="@reconciliation/summary-row" data-currency={currency.currency}>
                    <th scope="row">{currencyLabel(currency.currency)}</th>
                    <TallyCell tally={currency.deposits.total} currency={currency.currency} />
                    <TallyCell tally={currency.deposits.both} currency={currency.currency} />
                    <TallyCell tally={currency.deposits.callbackOnly} currency={currency.currency} />
                    <TallyCell tally={currency.deposits.queryOnly} currency={currency.currency} />
                    <td className="num">{currency.balance === null ? '—' : <Amount value={currency.balance.unexplained} currency={currency.currency} />}</td>
                    <td>
                      <span className={`badge badge--${badge}`}>{verdict}</span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function CurrencyDetail({ currency }: { readonly currency: CurrencyReconciliation }): React.JSX.Element {
  const { balance, frozen } = currency;
  const symbol = currency.currency;
  const titleId = `reconciliation-${symbol.replace(/[^a-z0-9]/gi, '-')}-title`;
  return (
    <section className="card" aria-labelledby={titleId} data-testid={`@reconciliation/currency-${symbol}`}>
      <h2 id={titleId}>
        {currencyLabel(symbol)} <span className="muted small">{symbol}</span>
      </h2>
      {balance === null ? (
        <p className="muted">No balance reading in this period: only the deposits are compared.</p>
      ) : (
        <dl className="facts" data-testid="@reconciliation/statement">
          <dt>Available at the start</dt>
          <dd>
            <BalanceAmount value={balance.opening.available} currency={symbol} /> <span className="muted small">(read <DateTime at={balance.opening.observedAt} />)</span>
          </dd>
          <dt>Deposits credited</dt>
          <dd>
            + <Amount value={balance.deposits.amount} currency={symbol} /> <span className="muted small">({balance.deposits.count})</span>
          </dd>
          <dt>Withdrawals (amount + fee)</dt>
          <dd>
            − <Amount value={balance.withdrawals.amount} currency={symbol} /> <span className="muted small">({balance.withdrawals.count})</span>
          </dd>
          <dt>Refunded or failed (returned)</dt>
          <dd>
            + <Amount value={balance.returned.amount} currency={symbol} /> <span className="muted small">({balance.returned.count})</span>
          </dd>
          <dt>Available at the end</dt>
          <dd>
            <BalanceAmount value={balance.closing.available} currency={symbol} /> <span className="muted small">(read <DateTime at={balance.closing.observedAt} />)</span>
          </dd>
          <dt>Change no record explains</dt>
          <dd data-testid="@reconciliation/unexplained" data-value={balance.unexplained}>
            <Amount value={balance.unexplained} currency={symbol} />
          </dd>
          {frozen === null ? null : (
            <>
              <dt>Frozen against open orders</dt>
              <dd data-testid="@reconciliation/frozen">
                <BalanceAmount value={frozen.reported} currency={symbol} /> against {frozen.openOrders.count} open order{frozen.openOrders.count === 1 ? '' : 's'} holding{' '}
                <Amount value={frozen.openOrders.amount} currency={symbol} />
              </dd>
            </>
          )}
        </dl>
      )}
      {balance?.startsLate === true ? <p className="muted small">The desk has no balance reading before this one: movements before it are not checked against the balance.</p> : null}
      <h3>Findings</h3>
      {currency.findings.length === 0 ? (
        <p className="muted">None: every deposit was seen both ways and the balance adds up.</p>
      ) : (
        <ul className="stack findings" data-testid="@reconciliation/findings">
          {currency.findings.map((finding, index) => (
            <Finding key={`${finding.kind}:${finding.at ?? ''}:${index}`} finding={finding} />
          ))}
        </ul>
      )}
    </section>
  );
}

function Finding({ finding }: { readonly finding: ReconciliationFinding }): React.JSX.Element {
  const hidden = useBalancesHidden();
  const { reference } = finding;
  const summary = hidden && QUOTES_BALANCES.has(finding.kind) ? 'The sentence quotes balances, which are hidden: show balances to read it.' : finding.summary;
  const status = findingStatus(finding);
  const looks = STATUS_LOOKS[status];
  return (
    <li
      className={`notice notice--${looks.notice}`}
      data-testid="@reconciliation/finding"
      data-kind={finding.kind}
      data-explained={String(finding.explained)}
      data-status={status}
    >
      <p className="notice__title">
        <span className={`badge badge--${looks.badge}`}>{looks.label}</span> {KIND_LABELS[finding.kind]}:{' '}
        <Amount value={finding.amount} currency={finding.currency} testId="@reconciliation/finding-amount" />
        {finding.at === null ? null : (
          <span className="muted small">
            {' '}
            · <DateTime at={finding.at} />
          </span>
        )}
      </p>
      <p>{summary}</p>
      <p className="notice__detail">{finding.explanation}</p>
      {reference?.kind === 'deposit' ? (
        <button
          type="button"
          className="button button--small"
          onClick={() => useNavigationStore.getState().open({ kind: 'deposit', id: reference.apiOrder, txid: reference.txid })}
          data-testid="@reconciliation/open-deposit"
        >
          Show the deposit
        </button>
      ) : null}
      {reference?.kind === 'withdrawal' ? (
        <button type="button" className="button button--small" onClick={() => useNavigationStore.getState().open({ kind: 'withdrawal', id: reference.id })} data-testid="@reconciliation/open-withdrawal">
          Open withdrawal {reference.id}
        </button>
      ) : null}
    </li>
  );
}
