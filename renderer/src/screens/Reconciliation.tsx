// Reconciliation: per currency and period (reconcile/run, from the desk's cache), deposits reported by callback against
// those listed by getDeposits, the available balance's movement between readings against deposits minus withdrawals
// (amount + fee) plus refunds, frozen funds against open orders, fees against the currency table; every difference
// with its exact amount, unexplained ones first, then those pending while an order of the desk is in flight, each
// linking to the deposit or order it is about, its sentences said in the window's language (i18n/sentences findingTextFor).
// Balances follow the "Hide balances" setting. The period statement (Statement.tsx) closes the screen.
import { EngineText } from '../components/EngineText';
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
import { DateTime, useDateTimeText, useReportingTimeZone } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field } from '../components/Field';
import { Select } from '../components/Select';
import { currencyLabel, currencyNameOf } from '../format';
import { t, tRich, type MessageId } from '../i18n';
import { findingTextFor } from '../i18n/sentences';
import { useBalancesStore } from '../stores/balances';
import { useNavigationStore } from '../stores/navigation';
import { useReconciliationStore } from '../stores/reconciliation';
import { StatementSection } from './Statement';

const KIND_LABELS: Readonly<Record<ReconciliationFindingKind, MessageId>> = {
  callbackOnly: 'history.reconciliation.kind.callbackOnly',
  queryOnly: 'history.reconciliation.kind.queryOnly',
  queryOnlyWithoutCallbacks: 'history.reconciliation.kind.queryOnlyWithoutCallbacks',
  unexplainedBalanceChange: 'history.reconciliation.kind.unexplainedBalanceChange',
  frozenMismatch: 'history.reconciliation.kind.frozenMismatch',
  feeDiffers: 'history.reconciliation.kind.feeDiffers',
  refund: 'history.reconciliation.kind.refund',
  failedOrder: 'history.reconciliation.kind.failedOrder',
  recordedAfterReading: 'history.reconciliation.kind.recordedAfterReading',
  awaitingOrder: 'history.reconciliation.kind.awaitingOrder',
};

/** Findings whose sentence quotes a balance: hidden with the balances. */
const QUOTES_BALANCES: ReadonlySet<ReconciliationFindingKind> = new Set(['unexplainedBalanceChange', 'frozenMismatch', 'awaitingOrder']);

/** How each standing of a finding looks: its badge, its notice, its word. */
const STATUS_LOOKS: Readonly<Record<ReconciliationFindingStatus, { readonly badge: string; readonly notice: string; readonly label: MessageId }>> = {
  explained: { badge: 'neutral', notice: 'info', label: 'history.reconciliation.status.explained' },
  pending: { badge: 'warn', notice: 'warn', label: 'history.reconciliation.status.pending' },
  unexplained: { badge: 'bad', notice: 'error', label: 'history.reconciliation.status.unexplained' },
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
  const names = new Map(currencies.map((currency) => [currency.symbol, currencyNameOf(currency)]));
  const options: readonly string[] = ['', ...WITHDRAWAL_CURRENCIES, ...currencies.filter((currency) => !currency.addressRules).map((currency) => currency.symbol)];
  function submit(event: FormEvent): void {
    event.preventDefault();
    void useReconciliationStore.getState().run();
  }
  return (
    <form className="filters" aria-label={t('history.reconciliation.form.title')} onSubmit={submit}>
      <Field label={t('history.word.currency')}>
        {(control) => (
          <Select
            control={control}
            value={filters.currency}
            options={options}
            label={(symbol) => (symbol === '' ? t('history.reconciliation.form.allCurrencies') : (names.get(symbol) ?? currencyLabel(symbol)))}
            onChange={(currency) => set({ currency })}
            testId="@reconciliation/currency"
          />
        )}
      </Field>
      <Field label={t('history.filter.fromDate', { zone: timeZone })} hint={t('history.reconciliation.form.fromHint')}>
        {(control) => <input {...control} className="input" type="date" value={filters.from} onChange={(event) => set({ from: event.target.value })} data-testid="@reconciliation/from" />}
      </Field>
      <Field label={t('history.filter.toDate', { zone: timeZone })} hint={t('history.reconciliation.form.toHint')}>
        {(control) => <input {...control} className="input" type="date" value={filters.to} onChange={(event) => set({ to: event.target.value })} data-testid="@reconciliation/to" />}
      </Field>
      <div className="filters__clear">
        <button type="submit" className="button button--primary" disabled={running} data-testid="@reconciliation/run-button">
          {running ? t('history.reconciliation.form.running') : t('history.reconciliation.form.run')}
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
            ? t('history.reconciliation.verdict.pending', { count: pending })
            : findings === 0
              ? t('history.reconciliation.verdict.clean')
              : t('history.reconciliation.verdict.explained', { count: findings })
          : t('history.reconciliation.verdict.unexplained', { count: report.unexplained })}
      </p>
      <p className="small">
        {tRich('history.reconciliation.verdict.period', {
          from: report.from === null ? t('history.reconciliation.verdict.firstRecord') : <DateTime at={report.from} />,
          to: <DateTime at={report.to} />,
          profile: report.profile,
        })}{' '}
        {report.callbacksSince === null
          ? t('history.reconciliation.verdict.noCallbacks')
          : tRich('history.reconciliation.verdict.callbacksSince', { time: <DateTime at={report.callbacksSince} /> })}{' '}
        {tRich('history.reconciliation.verdict.lastSync', {
          time: report.lastDepositsSyncAt === null ? t('history.word.never') : <DateTime at={report.lastDepositsSyncAt} />,
        })}
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
      <h2 id="reconciliation-summary-title">{t('history.reconciliation.summary.title')}</h2>
      {report.currencies.length === 0 ? (
        <p className="muted" data-testid="@reconciliation/empty">
          {t('history.reconciliation.summary.empty')}
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table table--dense table--numbers" data-testid="@reconciliation/summary">
            <thead>
              <tr>
                <th scope="col">{t('history.word.currency')}</th>
                <th scope="col" className="num">{t('history.word.deposits')}</th>
                <th scope="col" className="num">{t('history.reconciliation.summary.column.both')}</th>
                <th scope="col" className="num">{t('history.reconciliation.summary.column.callbackOnly')}</th>
                <th scope="col" className="num">{t('history.reconciliation.summary.column.queryOnly')}</th>
                <th scope="col" className="num">{t('history.reconciliation.summary.column.unexplained')}</th>
                <th scope="col">{t('history.reconciliation.summary.column.verdict')}</th>
              </tr>
            </thead>
            <tbody>
              {report.currencies.map((currency) => {
                const unexplained = currency.findings.filter((finding) => findingStatus(finding) === 'unexplained').length;
                const pending = currency.findings.filter((finding) => findingStatus(finding) === 'pending').length;
                const [badge, verdict] = unexplained > 0 ? ['bad', t('history.reconciliation.summary.unexplained', { count: unexplained })]
                    : pending > 0
                      ? ['warn', t('history.reconciliation.summary.pending', { count: pending })]
                      : ['good', t('history.reconciliation.summary.addsUp')];
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
        <p className="muted">{t('history.reconciliation.detail.noReading')}</p>
      ) : (
        <dl className="facts" data-testid="@reconciliation/statement">
          <dt>{t('history.reconciliation.detail.opening')}</dt>
          <dd>
            <BalanceAmount value={balance.opening.available} currency={symbol} />{' '}
            <span className="muted small">({tRich('history.readAt', { time: <DateTime at={balance.opening.observedAt} /> })})</span>
          </dd>
          <dt>{t('history.reconciliation.detail.deposits')}</dt>
          <dd>
            + <Amount value={balance.deposits.amount} currency={symbol} /> <span className="muted small">({balance.deposits.count})</span>
          </dd>
          <dt>{t('history.reconciliation.detail.withdrawals')}</dt>
          <dd>
            − <Amount value={balance.withdrawals.amount} currency={symbol} /> <span className="muted small">({balance.withdrawals.count})</span>
          </dd>
          <dt>{t('history.reconciliation.detail.returned')}</dt>
          <dd>
            + <Amount value={balance.returned.amount} currency={symbol} /> <span className="muted small">({balance.returned.count})</span>
          </dd>
          <dt>{t('history.reconciliation.detail.closing')}</dt>
          <dd>
            <BalanceAmount value={balance.closing.available} currency={symbol} />{' '}
            <span className="muted small">({tRich('history.readAt', { time: <DateTime at={balance.closing.observedAt} /> })})</span>
          </dd>
          <dt>{t('history.reconciliation.detail.unexplained')}</dt>
          <dd data-testid="@reconciliation/unexplained" data-value={balance.unexplained}>
            <Amount value={balance.unexplained} currency={symbol} />
          </dd>
          {frozen === null ? null : (
            <>
              <dt>{t('history.reconciliation.detail.frozen')}</dt>
              <dd data-testid="@reconciliation/frozen">
                {tRich('history.reconciliation.detail.frozenAgainst', {
                  frozen: <BalanceAmount value={frozen.reported} currency={symbol} />,
                  count: frozen.openOrders.count,
                  amount: <Amount value={frozen.openOrders.amount} currency={symbol} />,
                })}
              </dd>
            </>
          )}
        </dl>
      )}
      {balance?.startsLate === true ? <p className="muted small">{t('history.reconciliation.detail.startsLate')}</p> : null}
      <h3>{t('history.reconciliation.findings.title')}</h3>
      {currency.findings.length === 0 ? (
        <p className="muted">{t('history.reconciliation.findings.none')}</p>
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
  const text = findingTextFor(finding, useDateTimeText());
  const { reference } = finding;
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
        <span className={`badge badge--${looks.badge}`}>{t(looks.label)}</span> {t(KIND_LABELS[finding.kind])}:{' '}
        <Amount value={finding.amount} currency={finding.currency} testId="@reconciliation/finding-amount" />
        {finding.at === null ? null : (
          <span className="muted small">
            {' '}
            · <DateTime at={finding.at} />
          </span>
        )}
      </p>
      <p data-testid="@reconciliation/finding-summary">
        {hidden && QUOTES_BALANCES.has(finding.kind) ? t('history.reconciliation.findings.hidden') : <EngineText language={text.language}>{text.summary}</EngineText>}
      </p>
      <p className="notice__detail" data-testid="@reconciliation/finding-explanation">
        <EngineText language={text.language}>{text.explanation}</EngineText>
      </p>
      {reference?.kind === 'deposit' ? (
        <button
          type="button"
          className="button button--small"
          onClick={() => useNavigationStore.getState().open({ kind: 'deposit', id: reference.apiOrder, txid: reference.txid })}
          data-testid="@reconciliation/open-deposit"
        >
          {t('history.reconciliation.findings.showDeposit')}
        </button>
      ) : null}
      {reference?.kind === 'withdrawal' ? (
        <button type="button" className="button button--small" onClick={() => useNavigationStore.getState().open({ kind: 'withdrawal', id: reference.id })} data-testid="@reconciliation/open-withdrawal">
          {t('history.reconciliation.findings.openWithdrawal', { id: reference.id })}
        </button>
      ) : null}
    </li>
  );
}
