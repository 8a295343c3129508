// useAuditStore: the tamper-evident audit log (audit/list pages, the head's fingerprint, audit/verify naming the first
// altered row, alone or against a checkpoint file, checkpoints and export).
import { create } from 'zustand';
import type { AuditEntryView, AuditHeadView, AuditVerification, CheckpointView } from '../../../electron/contract';
import { call, type ContractError, type Result } from '../api';

const PAGE_SIZE = 200;

interface AuditStore {
  readonly entries: readonly AuditEntryView[];
  readonly nextCursor: string | null;
  readonly loaded: boolean;
  readonly loading: boolean;
  readonly error: ContractError | null;
  readonly verification: AuditVerification | null;
  readonly verifying: boolean;
  readonly verifyError: ContractError | null;
  /** The checkpoint file the last verification was checked against, null for the chain alone. */
  readonly verifiedAgainst: string | null;
  readonly head: AuditHeadView | null;
  load(): Promise<void>;
  loadMore(): Promise<void>;
  loadHead(): Promise<void>;
  /** Verifies the chain; with `against`, also that the checkpoint in that file is still in it. */
  verify(against?: string): Promise<void>;
  checkpoint(path: string): Promise<Result<CheckpointView>>;
  exportTo(path: string): Promise<Result<{ readonly rows: number; readonly path: string }>>;
}

export const useAuditStore = create<AuditStore>()((set, get) => ({
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
  async load() {
    set({ loading: true });
    const result = await call('audit/list', { limit: PAGE_SIZE });
    if (result.ok) set({ entries: result.value.rows, nextCursor: result.value.nextCursor, loaded: true, loading: false, error: null });
    else set({ loaded: true, loading: false, error: result.error.code === 'locked' ? null : result.error });
  },
  async loadMore() {
    const cursor = get().nextCursor;
    if (cursor === null || get().loading) return;
    set({ loading: true });
    const result = await call('audit/list', { limit: PAGE_SIZE, cursor });
    if (result.ok) set({ entries: get().entries.concat(result.value.rows), nextCursor: result.value.nextCursor, loading: false });
    else set({ loading: false, error: result.error });
  },
  async loadHead() {
    const result = await call('audit/head', {});
    if (result.ok) set({ head: result.value.head });
  },
  async verify(against) {
    set({ verifying: true, verifyError: null, verification: null, verifiedAgainst: against ?? null });
    const result = await call('audit/verify', against === undefined ? {} : { against });
    if (result.ok) set({ verification: result.value, verifying: false, head: result.value.head });
    else set({ verifying: false, verifyError: result.error });
  },
  async checkpoint(path) {
    const result = await call('audit/checkpoint', { path });
    if (result.ok) await Promise.all([get().loadHead(), get().load()]);
    return result;
  },
  exportTo(path) {
    return call('audit/export', { path });
  },
}));
