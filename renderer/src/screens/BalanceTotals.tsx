// The dashboard's totals and history: each asset's balance summed across its chains (balances/totals, exact strings:
// USDT on five chains, USDC on three) and one currency's balance history (balances/history) as a chart with the exact
// snapshots in a table beside it. The chart is a picture: its numbers are converted from the decimal strings for
// plotting only. Both follow "Hide balances" and are read again whenever the balances change.
import { useEffect, useMemo, useState } from 'react';
import type { AssetTotalsView, BalanceHistoryView } from '../../../electron/contract';
import { call, type ContractError } from '../api';
import { BalanceAmount, useBalancesHidden } from '../components/BalanceAmount';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field } from '../components/Field';
import { Select } from '../components/Select';
import { TimeSeriesChart, type ChartSeries } from '../components/TimeSeriesChart';
import { currencyLabel, groupAmount } from '../format';
import { t } from '../i18n';
import { useBalancesStore } from '../stores/balances';

/** How many snapshots the history table shows, newest first. */
const HISTORY_ROWS = 20;

export function AssetTotals(): React.JSX.Element | null {
  const balances = useBalancesStore((state) => state.balances);
  const [totals, setTotals] = useState<AssetTotalsView | null>(null);
  const [error, setError] = useState<ContractError | null>(null);
  useEffect(() => {
    void call('balances/totals', {}).then((result) => {
      if (result.ok) {
        setTotals(result.value);
        setError(null);
      } else if (result.error.code !== 'locked') setError(result.error);
    });
  }, [balances]);
  if (totals === null && error === null) return null;
  return (
    <section className="card" aria-labelledby="totals-title" data-testid="@dashboard/totals">
      <h2 id="totals-title">{t('history.totals.title')}</h2>
      <ErrorNotice error={error} />
      {totals === null || totals.assets.length === 0 ? (
        <p className="muted">{t('history.totals.none')}</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t('history.totals.column.asset')}</th>
                <th scope="col" className="num">
                  {t('history.word.available')}
                </th>
                <th scope="col" className="num">
                  {t('history.word.frozen')}
                </th>
                <th scope="col" className="num">
                  {t('history.totals.column.total')}
                </th>
                <th scope="col">{t('history.totals.column.across')}</th>
              </tr>
            </thead>
            <tbody>
              {totals.assets.map((asset) => (
                <tr key={asset.asset} data-testid={`@dashboard/total-${asset.asset}`}>
                  <th scope="row">{asset.asset}</th>
                  <td className="num">
                    <BalanceAmount value={asset.available} testId={`@dashboard/total-available-${asset.asset}`} />
                  </td>
                  <td className="num">
                    <BalanceAmount value={asset.frozen} testId={`@dashboard/total-frozen-${asset.asset}`} />
                  </td>
                  <td className="num">
                    <BalanceAmount value={asset.total} testId={`@dashboard/total-sum-${asset.asset}`} />
                  </td>
                  <td className="small">{asset.currencies.map((share) => currencyLabel(share.currency)).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {totals === null || totals.uncounted.length === 0 ? null : (
        <p className="muted small" data-testid="@dashboard/totals-uncounted">
          {t('history.totals.uncounted', { currencies: totals.uncounted.join(', ') })}
        </p>
      )}
    </section>
  );
}

export function BalanceHistory(): React.JSX.Element | null {
  const balances = useBalancesStore((state) => state.balances);
  const hidden = useBalancesHidden();
  const currencies = useMemo(() => balances.map((balance) => balance.currency), [balances]);
  const [chosen, setChosen] = useState<string | null>(null);
  const currency = chosen !== null && currencies.includes(chosen) ? chosen : (currencies[0] ?? null);
  const [history, setHistory] = useState<BalanceHistoryView | null>(null);
  const [error, setError] = useState<ContractError | null>(null);
  useEffect(() => {
    if (currency === null) return;
    void call('balances/history', { currency }).then((result) => {
      if (result.ok) {
        setHistory(result.value);
        setError(null);
      } else if (result.error.code !== 'locked') setError(result.error);
    });
  }, [currency, balances]);
  if (currency === null) return null;
  const shown = history !== null && history.currency === currency ? history : null;
  return (
    <section className="card" aria-labelledby="history-title" data-testid="@dashboard/balance-history">
      <h2 id="history-title">{t('history.balanceHistory.title')}</h2>
      <Field label={t('history.word.currency')}>
        {(control) => <Select control={control} value={currency} options={currencies} label={currencyLabel} onChange={setChosen} testId="@dashboard/history-currency" />}
      </Field>
      <ErrorNotice error={error} />
      {shown === null ? null : hidden ? (
        <p className="muted" data-testid="@dashboard/history-hidden">
          {t('history.balanceHistory.hidden')}
        </p>
      ) : (
        <HistoryFigures history={shown} />
      )}
    </section>
  );
}

function HistoryFigures({ history }: { readonly history: BalanceHistoryView }): React.JSX.Element {
  const points = history.points;
  // For the picture only: the table below carries the exact decimal strings.
  const series = useMemo<readonly ChartSeries[]>(
    () => [
      { label: t('history.chart.available'), values: points.map((point) => Number(point.available)), texts: points.map((point) => groupAmount(point.available)), stroke: '#1d5bb8' },
      { label: t('history.chart.frozen'), values: points.map((point) => Number(point.frozen)), texts: points.map((point) => groupAmount(point.frozen)), stroke: '#7a4d00' },
    ],
    [points],
  );
  const times = useMemo(() => points.map((point) => point.observedAt), [points]);
  const newest = [...points].reverse().slice(0, HISTORY_ROWS);
  const label = currencyLabel(history.currency);
  return (
    <>
      {points.length < 2 ? (
        <p className="muted">{t('history.balanceHistory.unchanged')}</p>
      ) : (
        <TimeSeriesChart
          description={t('history.balanceHistory.chart', { currency: label, count: points.length })}
          times={times}
          series={series}
          stepped
          testId="@dashboard/history-chart"
        />
      )}
      {history.truncated ? <p className="muted small">{t('history.balanceHistory.truncated')}</p> : null}
      <div className="table-wrap">
        <table className="table" data-testid="@dashboard/history-table">
          <caption className="muted small">
            {t('history.balanceHistory.caption', { currency: label, shown: newest.length, count: points.length })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('history.balanceHistory.column.since')}</th>
              <th scope="col" className="num">
                {t('history.word.available')}
              </th>
              <th scope="col" className="num">
                {t('history.word.frozen')}
              </th>
              <th scope="col">{t('history.balanceHistory.column.lastConfirmed')}</th>
            </tr>
          </thead>
          <tbody>
            {newest.map((point) => (
              <tr key={`${point.observedAt}-${point.available}-${point.frozen}`} data-testid="@dashboard/history-row">
                <td>
                  <DateTime at={point.observedAt} />
                </td>
                <td className="num">
                  <BalanceAmount value={point.available} />
                </td>
                <td className="num">
                  <BalanceAmount value={point.frozen} />
                </td>
                <td>
                  <DateTime at={point.lastObservedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
