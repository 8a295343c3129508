// The engine's local store: one SQLite database per desk holding verified platform records (for offline review)
// and the desk's own records (operators, requests, approvals, policies, audit log). Repositories take the handle first.
export * from './errors';
export * from './paths';
export * from './data-folder';
export * from './database';
export { MIGRATIONS, latestVersion, runMigrations, type Migration } from './migrations';
export * from './pagination';
export * from './profiles';
export * from './currencies';
export * from './balances';
export * from './merchant-info';
export * from './connection-log';
export * from './addresses';
export * from './deposits';
export * from './withdrawals';
export * from './operators';
export * from './address-book';
export * from './labels';
export * from './policies';
export * from './sync-state';
export * from './seen-nonces';
export * from './settings';
export * from './audit';
export * from './notifications';
export * from './payouts';
export * from './team';
