// The service's currency table (currencies/list, from getCurrencies): decimals, minimums, deposit and withdrawal fees
// as the exact decimal strings the service gave (percent fees in percent; a max fee of 0 means no cap, §9.3). A
// currency the service added after this desk was built is listed too, marked, with the note that the desk has no address
// rules for it: its deposits and balance are shown, withdrawals in it are refused.
import type { CurrencyView } from '../../../electron/contract';
import { Amount } from '../components/Amount';
import { DateTime } from '../components/DateTime';
import { RecordFields } from '../components/RecordFields';
import { groupAmount, currencyNameOf } from '../format';
import { t, tRich } from '../i18n';
import { useBalancesStore } from '../stores/balances';

/** Marks a currency this desk has no address rules for; the note says what that means. */
export function NewCurrencyBadge({ note, testId }: { readonly note: string | null; readonly testId?: string }): React.JSX.Element {
  return (
    <span className="badge badge--warn" title={note ?? undefined} data-testid={testId}>
      {t('history.currencies.newBadge')}
    </span>
  );
}

/** fixed + percent %, clamped to min..max (max "0": no cap). */
function FeeRule({ fixed, percent, min, max, currency }: { readonly fixed: string; readonly percent: string; readonly min: string; readonly max: string; readonly currency: string }): React.JSX.Element {
  return (
    <span className="small">
      {tRich('history.currencies.fee', {
        fixed: <Amount value={fixed} currency={currency} />,
        percent: groupAmount(percent),
        min: <Amount value={min} />,
        cap: /^0+(\.0+)?$/.test(max) ? t('history.currencies.fee.noCap') : tRich('history.currencies.fee.max', { max: <Amount value={max} /> }),
      })}
    </span>
  );
}

export function CurrencyTable(): React.JSX.Element | null {
  const currencies = useBalancesStore((state) => state.currencies);
  if (currencies.length === 0) return null;
  const added = currencies.filter((currency) => !currency.addressRules);
  const fetchedAt = currencies.reduce((latest, currency) => Math.max(latest, currency.fetchedAt), 0);
  return (
    <section className="card" aria-labelledby="currencies-title" data-testid="@currencies">
      <h2 id="currencies-title">{t('history.currencies.title')}</h2>
      <p className="muted small">
        {tRich('history.currencies.about', { time: <DateTime at={fetchedAt} /> })}
      </p>
      {added.length === 0 ? null : (
        <div className="notice notice--warn" data-testid="@currencies/new-note">
          <p className="notice__title">
            {t('history.currencies.added', { count: added.length })}
          </p>
          <ul>
            {added.map((currency) => (
              <li key={currency.symbol}>
                <strong>{currencyNameOf(currency)}</strong> ({currency.symbol}): {currency.note}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="table-wrap">
        <table className="table table--dense" data-testid="@currencies/table">
          <thead>
            <tr>
              <th scope="col">{t('history.word.currency')}</th>
              <th scope="col" className="num">
                {t('history.currencies.column.decimals')}
              </th>
              <th scope="col" className="num">
                {t('history.currencies.column.depositMin')}
              </th>
              <th scope="col">{t('history.currencies.column.depositFee')}</th>
              <th scope="col" className="num">
                {t('history.currencies.column.withdrawMin')}
              </th>
              <th scope="col">{t('history.currencies.column.withdrawFee')}</th>
            </tr>
          </thead>
          <tbody>
            {currencies.map((currency) => (
              <CurrencyRow key={currency.symbol} currency={currency} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function CurrencyRow({ currency }: { readonly currency: CurrencyView }): React.JSX.Element {
  return (
    <tr data-testid={`@currencies/row-${currency.symbol}`} data-address-rules={String(currency.addressRules)}>
      <th scope="row">
        {currencyNameOf(currency)} <span className="muted small">{currency.symbol}</span>
        {currency.addressRules ? null : (
          <>
            {' '}
            <NewCurrencyBadge note={currency.note} />
          </>
        )}
        <RecordFields fields={currency.moreFields} summary={t('history.word.moreFields')} testId={`@currencies/more-${currency.symbol}`} />
      </th>
      <td className="num">{currency.decimals ?? t('history.currencies.unknown')}</td>
      <td className="num" data-testid={`@currencies/deposit-min-${currency.symbol}`}>
        <Amount value={currency.depositMin} currency={currency.symbol} />
      </td>
      <td>
        <FeeRule fixed={currency.depositFixedFee} percent={currency.depositPercentFee} min={currency.depositMinFee} max={currency.depositMaxFee} currency={currency.symbol} />
      </td>
      <td className="num" data-testid={`@currencies/withdraw-min-${currency.symbol}`}>
        <Amount value={currency.withdrawMin} currency={currency.symbol} />
      </td>
      <td>
        <FeeRule fixed={currency.withdrawFixedFee} percent={currency.withdrawPercentFee} min={currency.withdrawMinFee} max={currency.withdrawMaxFee} currency={currency.symbol} />
      </td>
    </tr>
  );
}
