// The sync module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { AutoSync, type AutoSyncOptions } from './auto-sync';
export { dashboardHandlers } from './dashboard-handlers';
export { syncHandlers } from './handlers';
export { finishDepositIntake, storeDeposits } from './records';
export { getSyncState } from './sync-state-table';
export { SyncService } from './sync';
