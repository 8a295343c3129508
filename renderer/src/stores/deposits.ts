// useDepositsStore: the cached deposit history as keyset pages from deposits/list (loaded as the table scrolls),
// filters (currency, date range, search by txid / address / userOrder, label), head refresh on deposits/changed, CSV export.
import { create } from 'zustand';
import type { DepositView, FileOutcome, RequestOf } from '../../../electron/contract';
import { call, type ContractError, type Result } from '../api';
import { DEFAULT_REPORTING_TIME_ZONE } from '../../../electron/contract/time-zone';
import { dateInputToMs } from '../format';
import { useSessionStore } from './session';

export const DEPOSIT_PAGE_SIZE = 500;

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
  refreshHead(): Promise<void>;
  /** Saves the filtered deposits as CSV to a file the person chooses in the system's dialog. */
  exportCsv(): Promise<Result<FileOutcome<{ readonly rows: number }>>>;
}

let generation = 0;

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
  async refreshHead() {
    if (!get().ready) return get().reload();
    const mine = generation;
    const result = await call('deposits/list', { ...toQuery(get().filters), limit: Math.min(DEPOSIT_PAGE_SIZE, 200) });
    if (mine !== generation || !result.ok) return;
    const head = result.value.rows;
    const headIds = new Set(head.map((row) => row.id));
    const current = get().rows;
    const known = new Set(current.map((row) => row.id));
    const added = head.filter((row) => !known.has(row.id)).length;
    const rest = current.filter((row) => !headIds.has(row.id));
    const coveredAll = rest.length === 0;
    set({
      rows: head.concat(rest),
      nextCursor: coveredAll ? result.value.nextCursor : get().nextCursor,
      newSinceOpen: get().newSinceOpen + added,
    });
  },
  exportCsv() {
    return call('desktop/exportDepositsCsv', toQuery(get().filters));
  },
}));
