// The team module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { teamHandlers } from './handlers';
export { type SharedStoreOpener, teamDeskSecretNames, TeamMode } from './mode';
export { openPostgresDeskStore } from './postgres-store';
