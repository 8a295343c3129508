// useAuditStore: the tamper-evident audit log (audit/list pages, audit/verify naming the first altered row, export).
import { create } from 'zustand';
import type { AuditEntryView, AuditVerification } from '../../../electron/contract';
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
  load(): Promise<void>;
  loadMore(): Promise<void>;
  verify(): Promise<void>;
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
  async verify() {
    set({ verifying: true, verifyError: null });
    const result = await call('audit/verify', {});
    if (result.ok) set({ verification: result.value, verifying: false });
    else set({ verifying: false, verifyError: result.error });
  },
  exportTo(path) {
    return call('audit/export', { path });
  },
}));
