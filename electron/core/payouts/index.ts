// The payouts module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { approvalsQueueHandlers } from './approvals-queue-handlers';
export {
  batchViewOf,
  judgeBatchLines,
  type JudgedLine,
  moveBatchLines,
  payoutBatchState,
  settleBatchApprovals,
  storeBatchRequest,
} from './batch';
export { payoutsHandlers } from './handlers';
