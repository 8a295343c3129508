// Deposits: the cached history in a virtualized table (@tanstack/react-virtual over keyset pages of deposits/list,
// loaded as you scroll; smooth at a million rows), filters, search, search by label, CSV export, each row's source,
// freshness and label (edited in place as an operator).
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, useState } from 'react';
import { CURRENCIES, isCurrencySymbol, WITHDRAWAL_CURRENCIES } from '../../../electron/chains';
import type { DepositView } from '../../../electron/contract';
import { Amount } from '../components/Amount';
import { ErrorNotice } from '../components/ErrorNotice';
import { ExportButton } from '../components/ExportButton';
import { Select } from '../components/Select';
import { Field } from '../components/Field';
import { currencyLabel, displayLocale, formatDateTime, shorten, timeAgo, currencyNameOf } from '../format';
import { t, type MessageId } from '../i18n';
import { useReportingTimeZone } from '../components/DateTime';
import { ExplorerLink } from '../components/ExplorerLink';
import { useDebounced, useElementWidth, useNow } from '../hooks';
import { useBalancesStore } from '../stores/balances';
import { EMPTY_FILTERS, useDepositsStore } from '../stores/deposits';
import { RecordLabel } from '../components/RecordLabel';

/** Fixed row height (also in styles.css): 1,000,000 rows stay below Chromium's ~33.5M px layout limit. */
export const DEPOSIT_ROW_HEIGHT = 28;
/**
 * A narrow window (a 1024-px laptop) shows each deposit on two lines instead of scrolling sideways (styles.css,
 * .vgrid--stacked): the first line what identifies the money, the second how the desk knows it.
 */
export const STACKED_DEPOSIT_ROW_HEIGHT = 44;
/** The grid's full width on one line (styles.css, --deposit-columns); narrower tables stack. */
const ONE_LINE_MIN_WIDTH = 1318;
/** Two-line rows only while the loaded rows stay below Chromium's layout limit (~33.5M px); beyond, one line again. */
const STACKED_MAX_ROWS = 750_000;
const PREFETCH_ROWS = 300;
/** The columns, in order, with the grid area each takes when rows stack (styles.css, .vgrid--stacked). */
const COLUMNS: readonly (readonly [MessageId, string])[] = [
  ['history.deposits.column.seen', 'seen'],
  ['history.word.currency', 'currency'],
  ['history.word.amount', 'amount'],
  ['history.deposits.column.fee', 'fee'],
  ['history.deposits.column.address', 'address'],
  ['history.word.txid', 'txid'],
  ['history.deposits.column.userOrder', 'order'],
  ['history.deposits.column.from', 'from'],
  ['history.deposits.column.source', 'source'],
  ['history.deposits.column.lastSeen', 'lastseen'],
  ['history.deposits.column.label', 'label'],
];

/** How a deposit came to the desk, as the Source badge says it. */
const SOURCE_LABELS: Readonly<Record<DepositView['source'], MessageId>> = {
  query: 'history.deposits.source.query',
  callback: 'history.deposits.source.callback',
};

export function Deposits(): React.JSX.Element {
  const ready = useDepositsStore((state) => state.ready);
  useEffect(() => {
    if (!useDepositsStore.getState().ready && !useDepositsStore.getState().loading) void useDepositsStore.getState().reload();
  }, []);
  return (
    <div className="deposits">
      <DepositFilters />
      <DepositTable ready={ready} />
      <ExportCsv />
    </div>
  );
}

function DepositFilters(): React.JSX.Element {
  const filters = useDepositsStore((state) => state.filters);
  const [search, setSearch] = useState(filters.search);
  const debounced = useDebounced(search, 300);
  useEffect(() => {
    if (debounced !== useDepositsStore.getState().filters.search) useDepositsStore.getState().setFilters({ search: debounced });
  }, [debounced]);
  const [label, setLabel] = useState(filters.label);
  const debouncedLabel = useDebounced(label, 300);
  useEffect(() => {
    if (debouncedLabel !== useDepositsStore.getState().filters.label) useDepositsStore.getState().setFilters({ label: debouncedLabel });
  }, [debouncedLabel]);
  // A search set from elsewhere (a clicked deposit notification) shows in the field too; only the store's change matters.
  useEffect(() => {
    if (filters.search !== debounced) setSearch(filters.search);
  }, [filters.search]);
  const set = useDepositsStore.getState().setFilters;
  // '' is "all currencies"; then the 13, then any the service added later (their deposits are listed too).
  const currencies = useBalancesStore((state) => state.currencies);
  const names = new Map(currencies.map((currency) => [currency.symbol, currencyNameOf(currency)]));
  const currencyOptions: readonly string[] = [
    '',
    ...WITHDRAWAL_CURRENCIES,
    ...currencies.filter((currency) => !currency.addressRules).map((currency) => currency.symbol),
    ...(filters.currency === '' || names.has(filters.currency) || (WITHDRAWAL_CURRENCIES as readonly string[]).includes(filters.currency) ? [] : [filters.currency]),
  ];
  const timeZone = useReportingTimeZone();
  return (
    <form className="filters filters--deposits" role="search" aria-label={t('history.deposits.filter.title')} onSubmit={(event) => event.preventDefault()}>
      <Field label={t('history.word.currency')}>
        {(control) => (
          <Select
            control={control}
            value={filters.currency}
            options={currencyOptions}
            label={(symbol) => (symbol === '' ? t('history.deposits.filter.allCurrencies') : (names.get(symbol) ?? currencyLabel(symbol)))}
            onChange={(currency) => set({ currency })}
            testId="@deposits/currency-filter"
          />
        )}
      </Field>
      <Field label={t('history.deposits.filter.from', { zone: timeZone })}>
        {(control) => <input {...control} className="input" type="date" value={filters.from} onChange={(event) => set({ from: event.target.value })} data-testid="@deposits/from" />}
      </Field>
      <Field label={t('history.deposits.filter.to', { zone: timeZone })}>
        {(control) => <input {...control} className="input" type="date" value={filters.to} onChange={(event) => set({ to: event.target.value })} data-testid="@deposits/to" />}
      </Field>
      <Field label={t('history.deposits.filter.search')} className="filters__search">
        {(control) => (
          <input {...control} className="input input--mono" type="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder={t('history.example', { example: 'INV-2026-0001' })} data-testid="@deposits/search" data-search-box="" />
        )}
      </Field>
      <Field label={t('history.deposits.filter.label')}>
        {(control) => <input {...control} className="input" type="search" value={label} onChange={(event) => setLabel(event.target.value)} placeholder={t('history.example', { example: 'ACME' })} data-testid="@deposits/label-search" />}
      </Field>
      <div className="filters__clear">
        <button
          type="button"
          className="button"
          onClick={() => {
            setSearch('');
            setLabel('');
            set(EMPTY_FILTERS);
          }}
        >
          {t('history.word.clearFilters')}
        </button>
      </div>
    </form>
  );
}

function DepositTable({ ready }: { readonly ready: boolean }): React.JSX.Element {
  const rows = useDepositsStore((state) => state.rows);
  const nextCursor = useDepositsStore((state) => state.nextCursor);
  const loading = useDepositsStore((state) => state.loading);
  const error = useDepositsStore((state) => state.error);
  const newSinceOpen = useDepositsStore((state) => state.newSinceOpen);
  const timing = useDepositsStore((state) => state.firstPageTiming);
  const now = useNow(30_000);
  const timeZone = useReportingTimeZone();
  const scrollerRef = useRef<HTMLDivElement>(null);
  const hasMore = nextCursor !== null;
  const width = useElementWidth(scrollerRef);
  const stacked = width > 0 && width < ONE_LINE_MIN_WIDTH && rows.length < STACKED_MAX_ROWS;
  const rowHeight = stacked ? STACKED_DEPOSIT_ROW_HEIGHT : DEPOSIT_ROW_HEIGHT;
  const virtualizer = useVirtualizer({
    count: rows.length + (hasMore ? 1 : 0),
    getScrollElement: () => scrollerRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    useFlushSync: false,
  });
  useEffect(() => {
    virtualizer.measure();
  }, [virtualizer, rowHeight]);
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length === 0 ? -1 : (items[items.length - 1]?.index ?? -1);
  useEffect(() => {
    if (hasMore && !loading && lastIndex >= rows.length - PREFETCH_ROWS) void useDepositsStore.getState().loadMore();
  }, [hasMore, loading, lastIndex, rows.length]);
  const firstPageMs = timing?.receivedAt === null || timing === null ? undefined : Math.round(timing.receivedAt - timing.requestedAt);

  return (
    <section className="card card--fill" aria-labelledby="deposits-title">
      <div className="card__head">
        <h2 id="deposits-title">{t('history.deposits.title')}</h2>
        <p className="muted small" role="status" data-testid="@deposits/count">
          {!ready ? t('history.word.loading') : hasMore ? t('history.deposits.shownMore', { count: rows.length }) : t('history.deposits.shown', { count: rows.length })}
          {newSinceOpen > 0 ? ` · ${t('history.deposits.newSinceOpened', { count: newSinceOpen })}` : ''}
        </p>
      </div>
      <ErrorNotice error={error} testId="@deposits/error" />
      <div
        ref={scrollerRef}
        className="vtable"
        tabIndex={0}
        role="region"
        aria-label={t('history.deposits.scroller')}
        data-testid="@deposits/scroller"
        data-first-page-ms={firstPageMs}
      >
        <div role="table" aria-labelledby="deposits-title" aria-rowcount={hasMore ? -1 : rows.length + 1} className={stacked ? 'vgrid vgrid--stacked' : 'vgrid'} data-layout={stacked ? 'stacked' : 'one-line'} data-testid="@deposits/table">
          <div role="rowgroup" className="vgrid__head">
            <div role="row" aria-rowindex={1} className="vgrid__row vgrid__row--head">
              {COLUMNS.map(([column, area]) => (
                <div key={area} role="columnheader" className={area === 'amount' || area === 'fee' ? 'num' : undefined} data-column={area}>
                  {t(column)}
                </div>
              ))}
            </div>
          </div>
          <div role="rowgroup" className="vgrid__body" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = rows[item.index];
              if (row === undefined) {
                return (
                  <div key="loader" role="row" aria-rowindex={item.index + 2} className="vgrid__row" style={{ transform: `translateY(${item.start}px)` }}>
                    <div role="cell" className="vgrid__wide muted">
                      {loading ? t('history.deposits.loadingMore') : t('history.deposits.scrollForMore')}
                    </div>
                  </div>
                );
              }
              return <DepositRow key={row.id} row={row} index={item.index} start={item.start} now={now} timeZone={timeZone} />;
            })}
          </div>
        </div>
        {ready && rows.length === 0 && error === null ? <p className="vtable__empty muted">{t('history.deposits.none')}</p> : null}
      </div>
    </section>
  );
}

interface DepositRowProps {
  readonly row: DepositView;
  readonly index: number;
  /** Offset from the top of the body, px. */
  readonly start: number;
  readonly now: number;
  /** The reporting time zone (passed down so hundreds of rows do not each subscribe to the session). */
  readonly timeZone: string;
}

/**
 * One deposit row, absolutely placed (translateY) so a row entering or leaving never re-lays out the others; memoised
 * so rows already on screen do not re-render while the table scrolls or pages load.
 */
const DepositRow = memo(function DepositRow({ row, index, start, now, timeZone }: DepositRowProps): React.JSX.Element {
  const seen = formatDateTime(row.firstSeenAt, timeZone, displayLocale(), 'compact');
  const chain = isCurrencySymbol(row.currency) ? CURRENCIES[row.currency].chain : null;
  return (
    <div role="row" aria-rowindex={index + 2} className="vgrid__row" style={{ transform: `translateY(${start}px)` }} data-testid="@deposits/row" data-txid={row.txid}>
      <div role="cell" data-column="seen" title={formatDateTime(row.firstSeenAt, timeZone)}>
        {seen}
      </div>
      <div role="cell" data-column="currency" title={currencyLabel(row.currency)}>
        {row.currency}
      </div>
      <div role="cell" data-column="amount" className="num">
        <Amount value={row.amount} />
      </div>
      <div role="cell" data-column="fee" className="num">
        <Amount value={row.fee} />
      </div>
      <div role="cell" data-column="address" className="mono" title={row.address}>
        {chain === null ? shorten(row.address, 6) : <ExplorerLink chain={chain} target="address" value={row.address} className="mono">{shorten(row.address, 6)}</ExplorerLink>}
      </div>
      <div role="cell" data-column="txid" className="mono" title={row.txid}>
        {chain === null ? shorten(row.txid, 7) : <ExplorerLink chain={chain} target="transaction" value={row.txid} className="mono" testId="@deposits/txid-link">{shorten(row.txid, 7)}</ExplorerLink>}
      </div>
      <div role="cell" data-column="order" className="mono" title={row.userOrder}>
        {row.userOrder}
      </div>
      <div role="cell" data-column="from" className="mono" title={row.fromAddress}>
        {shorten(row.fromAddress, 5)}
        {row.poisoning === null ? null : (
          <>
            {' '}
            <span
              className={`badge badge--${row.poisoning.cleared ? 'neutral' : 'bad'}`}
              title={t(row.poisoning.cleared ? 'history.deposits.poisoningCleared' : 'history.deposits.poisoning', { entry: row.poisoning.looksLike, similarity: row.poisoning.similarity })}
              data-testid="@deposits/poisoning"
            >
              {t('history.deposits.lookAlike')}
            </span>
          </>
        )}
      </div>
      <div role="cell" data-column="source">
        <span className={`badge badge--${row.source === 'callback' ? 'info' : 'neutral'}`} title={row.source === 'callback' ? t('history.deposits.source.callbackAbout') : t('history.deposits.source.queryAbout')}>
          {sourceLabel(row.source)}
        </span>
        <MoreFieldsMark fields={row.moreFields} />
      </div>
      <div role="cell" data-column="lastseen" title={t('history.deposits.lastConfirmed', { time: formatDateTime(row.lastSeenAt, timeZone) })}>
        {timeAgo(row.lastSeenAt, now)}
      </div>
      <div role="cell" data-column="label">
        <RecordLabel type="deposit" refValue={row.apiOrder} what={t('history.deposits.labelOf', { apiOrder: row.apiOrder })} testId="@deposits/label" />
      </div>
    </div>
  );
});

/** The Source badge's word; a source this renderer does not know yet shows as the engine gave it. */
function sourceLabel(source: DepositView['source']): string {
  const id = SOURCE_LABELS[source] as MessageId | undefined;
  return id === undefined ? source : t(id);
}

/** A deposit record's fields beyond the spec (kept, PROTOCOL §8), in a row of fixed height: a mark whose title lists them. */
function MoreFieldsMark({ fields }: { readonly fields: DepositView['moreFields'] }): React.JSX.Element | null {
  const entries = Object.entries(fields);
  if (entries.length === 0) return null;
  const listed = entries.map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`).join('\n');
  return (
    <span className="badge badge--neutral" title={t('history.deposits.moreFields.title', { fields: listed })}
      aria-label={t('history.deposits.moreFields.label', { count: entries.length, fields: listed })} data-testid="@deposits/more-fields">
      +{entries.length}
    </span>
  );
}

function ExportCsv(): React.JSX.Element {
  return (
    <ExportButton
      groupLabel={t('history.deposits.export.group')}
      label={t('history.export.csv')}
      action={() => useDepositsStore.getState().exportCsv()}
      written={(value) => t('history.deposits.export.written', { count: value.rows })}
      testId="@deposits/export"
    />
  );
}
