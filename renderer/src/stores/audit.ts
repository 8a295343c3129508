// useAuditStore: the tamper-evident audit log (audit/list pages, the head's fingerprint, audit/verify naming the first
// altered row, alone or against a checkpoint file, checkpoints and export).
import { create } from 'zustand';
import type { AuditEntryView, AuditHeadView, AuditVerification, CheckpointView, FileOutcome } from '../../../electron/contract';
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
  /** The checkpoint file (its name) the last verification was checked against, null for the chain alone. */
  readonly verifiedAgainst: string | null;
  readonly head: AuditHeadView | null;
  load(): Promise<void>;
  loadMore(): Promise<void>;
  loadHead(): Promise<void>;
  /** Verifies the chain alone. */
  verify(): Promise<void>;
  /** Verifies the chain and that the checkpoint in a file the person chooses (system dialog) is still in it. */
  verifyAgainstCheckpoint(): Promise<void>;
  /** Saves a checkpoint to a file the person chooses (system dialog). */
  checkpoint(): Promise<Result<FileOutcome<Omit<CheckpointView, 'path'>>>>;
  /** Saves the whole log to a file the person chooses (system dialog). */
  exportLog(): Promise<Result<FileOutcome<{ readonly rows: number }>>>;
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
  exportLog() {
    return call('desktop/exportAudit', {});
  },
}));
