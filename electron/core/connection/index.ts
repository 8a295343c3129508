// The connection module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { clockDriftHistory, lastWhitelistRefusal } from './connection-log-table';
export { type MerchantConnection } from './merchant-connection';
export { MerchantSession, type NetworkOptions } from './merchant-session';
export { StoredNonceMemory } from './seen-nonces-table';
export { ConnectionTracker, diagnoseFailure, OFFLINE_REASON_ERROR_CODES } from './tracker';
export { ConnectionWatch } from './watch';
