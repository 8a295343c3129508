// useAuditStore: the tamper-evident audit log (audit/list pages under the viewer's filters, the head's fingerprint,
// audit/verify naming the first altered row, alone or against a checkpoint file, checkpoints and the filtered export).
import { create } from 'zustand';
import type { AuditEntryView, AuditHeadView, AuditVerification, CheckpointView, FileOutcome, RequestOf } from '../../../electron/contract';
import { DEFAULT_REPORTING_TIME_ZONE } from '../../../electron/contract/time-zone';
import { call, type ContractError, type Result } from '../api';
import { dateInputToMs } from '../format';
import { useSessionStore } from './session';

const PAGE_SIZE = 200;

/** The viewer's filters as typed: text, the action ('' for every kind), dates as the date inputs give them. */
export interface AuditFilters {
  readonly operator: string;
  readonly action: string;
  readonly request: string;
  readonly from: string;
  readonly to: string;
  readonly search: string;
}

export const EMPTY_AUDIT_FILTERS: AuditFilters = { operator: '', action: '', request: '', from: '', to: '', search: '' };

/** The filters as audit/list's and desktop/exportAudit's fields: empty ones left out, dates read in the reporting zone. */
export function auditFilterRequest(filters: AuditFilters): RequestOf<'desktop/exportAudit'> {
  const timeZone = useSessionStore.getState().session?.reportingTimeZone ?? DEFAULT_REPORTING_TIME_ZONE;
  const query: { -readonly [K in keyof RequestOf<'desktop/exportAudit'>]: RequestOf<'desktop/exportAudit'>[K] } = {};
  if (filters.operator.trim() !== '') query.operator = filters.operator.trim();
  if (filters.action !== '') query.action = filters.action;
  if (filters.request.trim() !== '') query.request = filters.request.trim();
  if (filters.search.trim() !== '') query.search = filters.search.trim();
  const from = dateInputToMs(filters.from, timeZone);
  if (from !== null) query.from = from;
  const to = dateInputToMs(filters.to, timeZone, true);
  if (to !== null) query.to = to;
  return query;
}

interface AuditStore {
  readonly filters: AuditFilters;
  readonly entries: readonly AuditEntryView[];
  readonly nextCursor: string | null;
  readonly loaded: boolean;
  readonly loading: boolean;
  readonly error: ContractError | null;
  readonly verification: AuditVerification | null;
  readonly verifying: boolean;
  readonly verifyError: ContractError | null;
  /** The checkpoint file (its name) the last verification was checked against, null for the chain alone. */
  readonly verifiedAgainst: string | null;
  readonly head: AuditHeadView | null;
  /** Changes filters and loads the first page under them. */
  setFilters(filters: Partial<AuditFilters>): Promise<void>;
  load(): Promise<void>;
  loadMore(): Promise<void>;
  loadHead(): Promise<void>;
  /** Verifies the chain alone. */
  verify(): Promise<void>;
  /** Verifies the chain and that the checkpoint in a file the person chooses (system dialog) is still in it. */
  verifyAgainstCheckpoint(): Promise<void>;
  /** Saves a checkpoint to a file the person chooses (system dialog). */
  checkpoint(): Promise<Result<FileOutcome<Omit<CheckpointView, 'path'>>>>;
  /** Saves the rows the filters select to a file the person chooses (system dialog; CSV or JSON lines by its type). */
  exportLog(): Promise<Result<FileOutcome<{ readonly rows: number }>>>;
}

export const useAuditStore = create<AuditStore>()((set, get) => ({
  filters: EMPTY_AUDIT_FILTERS,
  entries: [],
  nextCursor: null,
  loaded: false,
  loading: false,
  error: null,
  verification: null,
  verifying: false,
  verifyError: null,
  verifiedAgainst: null,
  head: null,
  async setFilters(filters) {
    set({ filters: { ...get().filters, ...filters } });
    await get().load();
  },
  async load() {
    const filters = get().filters;
    set({ loading: true });
    const result = await call('audit/list', { ...auditFilterRequest(filters), limit: PAGE_SIZE });
    // An answer for filters changed since is dropped: the next load shows the current ones.
    if (get().filters !== filters) return;
    if (result.ok) set({ entries: result.value.rows, nextCursor: result.value.nextCursor, loaded: true, loading: false, error: null });
    else set({ entries: [], nextCursor: null, loaded: true, loading: false, error: result.error.code === 'locked' ? null : result.error });
  },
  async loadMore() {
    const cursor = get().nextCursor;
    const filters = get().filters;
    if (cursor === null || get().loading) return;
    set({ loading: true });
    const result = await call('audit/list', { ...auditFilterRequest(filters), limit: PAGE_SIZE, cursor });
    if (get().filters !== filters) return;
    if (result.ok) set({ entries: get().entries.concat(result.value.rows), nextCursor: result.value.nextCursor, loading: false });
    else set({ loading: false, error: result.error });
  },
  async loadHead() {
    const result = await call('audit/head', {});
    if (result.ok) set({ head: result.value.head });
  },
  async verify() {
    set({ verifying: true, verifyError: null, verification: null, verifiedAgainst: null });
    const result = await call('audit/verify', {});
    if (result.ok) set({ verification: result.value, verifying: false, head: result.value.head });
    else set({ verifying: false, verifyError: result.error });
  },
  async verifyAgainstCheckpoint() {
    set({ verifying: true, verifyError: null });
    const result = await call('desktop/verifyAuditAgainst', {});
    if (!result.ok) set({ verifying: false, verifyError: result.error });
    else if (result.value.cancelled) set({ verifying: false });
    else set({ verification: result.value.value, verifying: false, head: result.value.value.head, verifiedAgainst: result.value.fileName });
  },
  async checkpoint() {
    const result = await call('desktop/saveCheckpoint', {});
    if (result.ok && !result.value.cancelled) await Promise.all([get().loadHead(), get().load()]);
    return result;
  },
  async exportLog() {
    const result = await call('desktop/exportAudit', auditFilterRequest(get().filters));
    // The export is itself recorded in the log: show its row.
    if (result.ok && !result.value.cancelled) await get().load();
    return result;
  },
}));
