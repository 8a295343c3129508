// Test support: a currency the platform adds after launch (spec "Supported chains" rule 4), as platform staff add it to
// the sandbox (admin POST /sandbox/currencies): USDC on TON, 6 decimals, a 0.5 % deposit fee with a floor and a cap, a
// flat withdrawal fee. Shared by the sandbox, engine, CLI and end-to-end tests.
export const TON_USDC = {
  symbol: 'ton.usdc',
  name: 'USDC on TON',
  chain: 'ton',
  decimals: 6,
  deposit_fixed_fee: '0',
  deposit_percent_fee: '0.5',
  deposit_min_fee: '0.1',
  deposit_max_fee: '50',
  withdraw_fixed_fee: '0.5',
  withdraw_percent_fee: '0',
  withdraw_min_fee: '0.5',
  withdraw_max_fee: '0',
  deposit_min: '1',
  withdraw_min: '5',
} as const;
