// The merchant module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export {
  balanceReadings,
  type BalanceSnapshot,
  heldCurrencies,
  latestBalances,
  recordBalances,
} from './balances-table';
export { getCurrency, replaceCurrencies } from './currencies-table';
export { getMerchantInfo, saveMerchantInfo } from './merchant-info-table';
export {
  balanceViews,
  currencyViews,
  merchantInfoView,
  noAddressRulesReason,
  statedDecimals,
  unknownCurrencyReason,
} from './records';
