// The session module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { sessionHandlers } from './handlers';
export { SessionLock } from './lock';
