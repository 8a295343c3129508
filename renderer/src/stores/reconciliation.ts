// useReconciliationStore: the Reconciliation screen's period and currency, and the last report (reconcile/run), kept
// while the person looks at other screens. Dates are calendar days in the desk's reporting time zone, `to` inclusive.
import { create } from 'zustand';
import type { ReconciliationReport, RequestOf } from '../../../electron/contract';
import { DEFAULT_REPORTING_TIME_ZONE } from '../../../electron/contract/time-zone';
import { call, type ContractError } from '../api';
import { dateInputToMs } from '../format';
import { useSessionStore } from './session';

export interface ReconciliationFilters {
  /** '' is every currency with records; otherwise one of the 13 or a currency the service added later. */
  readonly currency: string;
  /** "YYYY-MM-DD" or '' (from the beginning; to now). */
  readonly from: string;
  readonly to: string;
}

export const ALL_PERIOD: ReconciliationFilters = { currency: '', from: '', to: '' };

function toRequest(filters: ReconciliationFilters): RequestOf<'reconcile/run'> {
  const timeZone = useSessionStore.getState().session?.reportingTimeZone ?? DEFAULT_REPORTING_TIME_ZONE;
  const from = dateInputToMs(filters.from, timeZone);
  const to = dateInputToMs(filters.to, timeZone, true);
  return {
    ...(filters.currency === '' ? {} : { currency: filters.currency }),
    ...(from === null ? {} : { from }),
    ...(to === null ? {} : { to }),
  };
}

/** Counts runs and resets, so an answer arriving after a reset is dropped. */
let generation = 0;

interface ReconciliationStore {
  readonly filters: ReconciliationFilters;
  readonly report: ReconciliationReport | null;
  readonly running: boolean;
  readonly error: ContractError | null;
  setFilters(filters: Partial<ReconciliationFilters>): void;
  run(): Promise<void>;
  /** Forgets the report (another profile, or the desk unlocked again): the screen reconciles afresh when shown. */
  reset(): void;
}

export const useReconciliationStore = create<ReconciliationStore>()((set, get) => ({
  filters: ALL_PERIOD,
  report: null,
  running: false,
  error: null,
  setFilters(filters) {
    set({ filters: { ...get().filters, ...filters } });
  },
  async run() {
    const started = ++generation;
    set({ running: true, error: null });
    const result = await call('reconcile/run', toRequest(get().filters));
    if (started !== generation) return; // reset meanwhile: this answer is about what was shown before
    if (result.ok) set({ report: result.value, running: false });
    else set({ error: result.error, running: false });
  },
  reset() {
    generation += 1;
    set({ report: null, running: false, error: null });
  },
}));
