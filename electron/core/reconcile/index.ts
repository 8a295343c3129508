// The reconcile module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { exact } from './compare';
export { reconcileHandlers } from './handlers';
export { runReconciliation } from './run';
