// useDepositsStore: the cached deposit history as keyset pages from deposits/list (loaded as the table scrolls),
// filters (currency, date range, search by txid / address / userOrder, label), head refresh on deposits/changed, CSV export.
import { create } from 'zustand';
import type { DepositView, FileOutcome, RequestOf, ResponseOf } from '../../../electron/contract';
import { call, type ContractError, type Result } from '../api';
import { DEFAULT_REPORTING_TIME_ZONE } from '../../../electron/contract/time-zone';
import { dateInputToMs } from '../format';
import { useSessionStore } from './session';

export const DEPOSIT_PAGE_SIZE = 500;

/**
 * refreshHead reads pages from the top down to the first row the list already holds, at most this many; when more
 * rows than that arrived at once, the list is read again from the top instead.
 */
export const HEAD_REFRESH_MAX_PAGES = 20;

export interface DepositFilters {
  /** A currency symbol (one the service added later included), or '' for all. */
  readonly currency: string;
  /** Calendar dates "YYYY-MM-DD" (inclusive) in the desk's reporting time zone, or ''. */
  readonly from: string;
  readonly to: string;
  readonly search: string;
  /** Text the deposit's label or note contains, or ''. */
  readonly label: string;
}

export const EMPTY_FILTERS: DepositFilters = { currency: '', from: '', to: '', search: '', label: '' };

type ListRequest = RequestOf<'deposits/list'>;

function toQuery(filters: DepositFilters): Omit<ListRequest, 'limit' | 'cursor'> {
  const query: { currency?: string; from?: number; to?: number; search?: string; label?: string } = {};
  if (filters.currency !== '') query.currency = filters.currency;
  const timeZone = useSessionStore.getState().session?.reportingTimeZone ?? DEFAULT_REPORTING_TIME_ZONE;
  const from = dateInputToMs(filters.from, timeZone);
  if (from !== null) query.from = from;
  const to = dateInputToMs(filters.to, timeZone, true);
  if (to !== null) query.to = to;
  const search = filters.search.trim();
  if (search !== '') query.search = search;
  const label = filters.label.trim();
  if (label !== '') query.label = label;
  return query;
}

interface DepositsStore {
  readonly filters: DepositFilters;
  readonly rows: readonly DepositView[];
  readonly nextCursor: string | null;
  /** True once the first page for the current filters arrived. */
  readonly ready: boolean;
  readonly loading: boolean;
  readonly error: ContractError | null;
  /** When the first page of the current filters was asked for and when it arrived (the bench reads these). */
  readonly firstPageTiming: { readonly requestedAt: number; readonly receivedAt: number | null } | null;
  /** Rows that arrived through refreshHead since the last filter change: the table announces them. */
  readonly newSinceOpen: number;
  setFilters(filters: Partial<DepositFilters>): void;
  reload(): Promise<void>;
  loadMore(): Promise<void>;
  /** Puts the deposits that arrived (`newDeposits`, from deposits/changed) into the list, however many came at once. */
  refreshHead(newDeposits?: number): Promise<void>;
  /** Saves the filtered deposits as CSV to a file the person chooses in the system's dialog. */
  exportCsv(): Promise<Result<FileOutcome<{ readonly rows: number }>>>;
}

let generation = 0;
let headRefresh: Promise<void> = Promise.resolve();
/** New rows a refresh found beyond those its event announced: they arrived before it read, and a later event announces them. */
let foundAhead = 0;

/**
 * Reads pages from the top until one reaches a row the list already holds, and puts the rows above it on top: an
 * intake moves up to 5,000 deposits at once (a first sync), and a head of one page lost the rest below it. When more
 * than HEAD_REFRESH_MAX_PAGES pages are new, or (no filter applied) fewer new rows turned up above the held ones than
 * arrived (some sort lower: first seen earlier than the top row), the list is read again from the top.
 */
async function refreshHeadNow(newDeposits: number | undefined): Promise<void> {
  const store = useDepositsStore.getState();
  if (!store.ready) return store.reload();
  const mine = generation;
  const query = toQuery(store.filters);
  const held = new Set(store.rows.map((row) => row.id));
  const fresh: DepositView[] = [];
  let cursor: string | null = null;
  let reachedHeld = false;
  for (let page = 0; page < HEAD_REFRESH_MAX_PAGES && !reachedHeld; page += 1) {
    const result: Result<ResponseOf<'deposits/list'>> = await call('deposits/list', { ...query, limit: DEPOSIT_PAGE_SIZE, ...(cursor === null ? {} : { cursor }) });
    if (mine !== generation || !result.ok) return;
    const firstHeld = result.value.rows.findIndex((row) => held.has(row.id));
    reachedHeld = firstHeld !== -1;
    fresh.push(...(reachedHeld ? result.value.rows.slice(0, firstHeld) : result.value.rows));
    cursor = result.value.nextCursor;
    if (cursor === null) break;
  }
  const readToEnd = !reachedHeld && cursor === null;
  const found = fresh.length + foundAhead;
  const someBelow = Object.keys(query).length === 0 && newDeposits !== undefined && found < newDeposits;
  if ((!reachedHeld && !readToEnd) || (someBelow && !readToEnd)) return useDepositsStore.getState().reload();
  foundAhead = Math.max(0, found - (newDeposits ?? 0));
  const freshIds = new Set(fresh.map((row) => row.id));
  const now = useDepositsStore.getState();
  useDepositsStore.setState({
    rows: readToEnd ? fresh : fresh.concat(now.rows.filter((row) => !freshIds.has(row.id))),
    nextCursor: readToEnd ? null : now.nextCursor,
    newSinceOpen: now.newSinceOpen + fresh.length,
  });
}

export const useDepositsStore = create<DepositsStore>()((set, get) => ({
  filters: EMPTY_FILTERS,
  rows: [],
  nextCursor: null,
  ready: false,
  loading: false,
  error: null,
  firstPageTiming: null,
  newSinceOpen: 0,
  setFilters(filters) {
    set({ filters: { ...get().filters, ...filters } });
    void get().reload();
  },
  async reload() {
    generation += 1;
    const mine = generation;
    const requestedAt = performance.now();
    foundAhead = 0;
    set({ loading: true, error: null, ready: false, rows: [], nextCursor: null, newSinceOpen: 0, firstPageTiming: { requestedAt, receivedAt: null } });
    const result = await call('deposits/list', { ...toQuery(get().filters), limit: DEPOSIT_PAGE_SIZE });
    if (mine !== generation) return;
    if (result.ok) {
      set({
        rows: result.value.rows,
        nextCursor: result.value.nextCursor,
        ready: true,
        loading: false,
        firstPageTiming: { requestedAt, receivedAt: performance.now() },
      });
    } else {
      set({ loading: false, ready: true, error: result.error });
    }
  },
  async loadMore() {
    const { nextCursor, loading, filters } = get();
    if (nextCursor === null || loading) return;
    const mine = generation;
    set({ loading: true });
    const result = await call('deposits/list', { ...toQuery(filters), limit: DEPOSIT_PAGE_SIZE, cursor: nextCursor });
    if (mine !== generation) return;
    if (result.ok) {
      set({ rows: get().rows.concat(result.value.rows), nextCursor: result.value.nextCursor, loading: false, error: null });
    } else {
      set({ loading: false, error: result.error });
    }
  },
  refreshHead(newDeposits) {
    // One refresh at a time: each reads from the top down to the rows the list holds when it starts.
    headRefresh = headRefresh.then(() => refreshHeadNow(newDeposits));
    return headRefresh;
  },
  exportCsv() {
    return call('desktop/exportDepositsCsv', toQuery(get().filters));
  },
}));
