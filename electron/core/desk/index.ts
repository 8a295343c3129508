// The desk module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { type AnchorMover, auditHandlers } from './audit-handlers';
export { connectionHandlers } from './connection-handlers';
export { type DemoSandboxStarter, profilesHandlers, startDemo } from './profile-handlers';
export { settingsHandlers } from './settings-handlers';
