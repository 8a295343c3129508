// useSyncStore: the connection to the service (online, or offline with a reason and since when), per-resource
// freshness, sync progress, sync/run, and the comparison of the deposit history with the service's (sync/verify). Fed
// by sync/status and the connection/changed and sync/progress events.
import { create } from 'zustand';
import type { ConnectionState, DepositVerification, SyncProgress, SyncReport, SyncStatus } from '../../../electron/contract';
import { call, type ContractError } from '../api';

interface SyncStore {
  readonly status: SyncStatus | null;
  readonly connection: ConnectionState | null;
  readonly progress: SyncProgress | null;
  readonly running: boolean;
  readonly lastReport: SyncReport | null;
  /** Why the last sync/run failed (cleared by the next run). */
  readonly error: ContractError | null;
  /** Why sync/status could not be read. */
  readonly statusError: ContractError | null;
  /** A comparison of the deposit history with the service's is under way. */
  readonly verifying: boolean;
  /** The last comparison's result, or why it failed (each cleared by the next one). */
  readonly verification: DepositVerification | null;
  readonly verifyError: ContractError | null;
  load(): Promise<void>;
  run(full?: boolean): Promise<void>;
  /** Walks the service's whole deposit list and compares it with the desk's, exactly (stores no deposit). */
  verify(): Promise<void>;
  /** Asks the sync or comparison under way to stop after the page in hand (what a sync read stays stored). */
  cancel(): Promise<void>;
  applyConnection(connection: ConnectionState): void;
  applyProgress(progress: SyncProgress | null): void;
}

export const useSyncStore = create<SyncStore>()((set, get) => ({
  status: null,
  connection: null,
  progress: null,
  running: false,
  lastReport: null,
  error: null,
  statusError: null,
  verifying: false,
  verification: null,
  verifyError: null,
  async load() {
    const result = await call('sync/status', {});
    if (result.ok) {
      set({ status: result.value, connection: result.value.connection, progress: result.value.progress, statusError: null });
    } else if (result.error.code !== 'locked') {
      set({ statusError: result.error });
    }
  },
  async run(full) {
    if (get().running) return;
    set({ running: true, error: null, lastReport: null });
    const result = await call('sync/run', full === undefined ? {} : { full });
    if (result.ok) set({ lastReport: result.value, connection: result.value.connection });
    else set({ error: result.error });
    set({ running: false });
    await get().load();
  },
  async verify() {
    if (get().verifying) return;
    set({ verifying: true, verification: null, verifyError: null });
    const result = await call('sync/verify', {});
    if (result.ok) set({ verification: result.value });
    else set({ verifyError: result.error });
    set({ verifying: false });
    await get().load();
  },
  async cancel() {
    await call('sync/cancel', {});
  },
  applyConnection(connection) {
    set({ connection });
  },
  applyProgress(progress) {
    set({ progress });
  },
}));
