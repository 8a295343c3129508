// The withdrawals module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { batchLineRef } from './batch-line-ref';
export type { SignedIntent } from './velocity';
export {
  newUserOrder,
  policyFor,
  preflight,
  reconcile,
  sendingNow,
  settleApprovals,
  storeIntentRequest,
  submitAs,
  withdrawalView,
} from './desk';
export {
  batchLineApproved,
  batchLineClosed,
  decisionReplayed,
  isReplayedDecision,
  orderReported,
  storeOrderStatus,
} from './facts';
export { CONTROL_PROOF_BY_CHAIN, recordControlProofs } from './control-proof';
export { withdrawalsHandlers } from './handlers';
export {
  addPayoutLine,
  createPayoutBatch,
  getPayoutBatch,
  getPayoutBatchByHash,
  listPayoutBatches,
  listPayoutBatchesWithLinesIn,
  listPayoutLines,
  type PayoutBatch,
} from './payout-batches-table';
export { alteredFields, type IntentEvidence, judgeForView, policyInForce, viewRowsFor } from './verify';
export {
  nextStepsFor,
  setStuckThresholds,
  type StuckOrder,
  stuckThresholds,
  stuckThresholdsView,
  WATCHDOG_INTERVAL_MS,
  WithdrawalWatchdog,
} from './watchdog';
export {
  firstOrderCallbackAt,
  getWithdrawalRequest,
  getWithdrawalRequestByFingerprint,
  getWithdrawalRequestByIntentHash,
  getWithdrawalRequestByUserOrder,
  listUnsettledWithdrawalRequests,
  listWithdrawalRequests,
  listWithdrawalRequestsChangedSince,
  type ReconciledRequest,
  recordOrderStatus,
  requestsForReconciliation,
  withdrawalCurrencies,
  type WithdrawalRequest,
} from './withdrawals-table';
