// The deposits module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { checkCurrencyFilter } from './currency-filter';
export {
  compareWithHeldDeposit,
  countDeposits,
  countStagedDeposits,
  type Deposit,
  depositCurrencies,
  depositSearchBacklog,
  type DepositSighting,
  depositSightings,
  depositsWithUserOrderPrefixStoredAfter,
  type DepositSource,
  firstDepositCallbackAt,
  getDepositByApiOrder,
  indexDepositSearchBacklog,
  lastDepositId,
  lastDepositIdSeenBefore,
  listDepositsStoredAfter,
  listDeposits,
  listHeldDepositRefs,
  moveStagedDeposits,
  stageDeposits,
} from './deposits-table';
export { depositsHandlers } from './handlers';
export {
  bookEntryName,
  lookAlikeWords,
  newPoisoningAlerts,
  normalizeSenderKey,
  type PoisoningAlert,
  poisoningAlerts,
  poisoningFlag,
  poisoningRefusal,
  POISONING_SUSPECTED_ACTION,
  RadarBook,
  type RadarLookAlike,
} from './radar';
