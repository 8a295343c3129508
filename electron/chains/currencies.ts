// The supported chains and currency symbols (spec "Supported chains and symbols", PROTOCOL §9.2, §11.5, §11.6). Pure data, no I/O.

/** Chains whose addresses we validate. `eth` and `bnb` share one `eth_bnb` address (PROTOCOL §11.5). */
export const CHAINS = ['trx', 'eth', 'bnb', 'solana', 'ton'] as const;
export type Chain = (typeof CHAINS)[number];

/** addressType values accepted by createAddress; `btc` is reserved and never offered (PROTOCOL §8). */
export const ADDRESS_TYPES = ['trx', 'eth_bnb', 'solana', 'ton'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];
export const RESERVED_ADDRESS_TYPES = ['btc'] as const;

/** address_type values accepted by the public QR endpoint (spec generateAddresssQrCode). */
export const QR_ADDRESS_TYPES = ['trx', 'solana', 'eth_bnb', 'ton', 'eth', 'bnb'] as const;
export type QrAddressType = (typeof QR_ADDRESS_TYPES)[number];

/** The 13 withdrawal currency symbols, in the spec's order. Deposits are reported under the same symbols. */
export const WITHDRAWAL_CURRENCIES = [
  'trx', 'trx.usdt',
  'eth', 'eth.usdt', 'eth.usdc',
  'solana', 'solana.usdt', 'solana.usdc',
  'bnb', 'bnb.usdt', 'bnb.usdc',
  'ton', 'ton.usdt',
] as const;
export type CurrencySymbol = (typeof WITHDRAWAL_CURRENCIES)[number];

/**
 * The shape of any currency symbol the service reports (`trx`, `eth.usdt`): the 13 above and those it adds later (spec
 * "Supported chains" rule 4). Only the 13 have address rules on this desk; `isCurrencySymbol` tells them apart.
 */
export const CURRENCY_SYMBOL_PATTERN = /^[a-z0-9_]+(\.[a-z0-9_]+)?$/;
export const CURRENCY_SYMBOL_MAX_LENGTH = 64;

/** Whether `value` is shaped like a currency symbol the service could report (known to this desk or not). */
export function isReportedCurrencySymbol(value: string): boolean {
  return value.length <= CURRENCY_SYMBOL_MAX_LENGTH && CURRENCY_SYMBOL_PATTERN.test(value);
}

export interface CurrencyInfo {
  readonly symbol: CurrencySymbol;
  readonly chain: Chain;
  readonly addressType: AddressType;
  /** Ticker of the asset itself: TRX, USDT, ... */
  readonly asset: string;
  /** Human name for screens: "USDT on TRON". */
  readonly displayName: string;
  /** Decimal places the platform accepts for amounts (PROTOCOL §9.2). */
  readonly decimals: number;
  /** True for the chain's own coin (pays network fees), false for a token. */
  readonly native: boolean;
}

export interface ChainInfo {
  readonly chain: Chain;
  readonly displayName: string;
  readonly addressType: AddressType;
  readonly nativeSymbol: CurrencySymbol;
}

export const CHAIN_INFO: Readonly<Record<Chain, ChainInfo>> = {
  trx: { chain: 'trx', displayName: 'TRON', addressType: 'trx', nativeSymbol: 'trx' },
  eth: { chain: 'eth', displayName: 'Ethereum', addressType: 'eth_bnb', nativeSymbol: 'eth' },
  bnb: { chain: 'bnb', displayName: 'BNB Smart Chain', addressType: 'eth_bnb', nativeSymbol: 'bnb' },
  solana: { chain: 'solana', displayName: 'Solana', addressType: 'solana', nativeSymbol: 'solana' },
  ton: { chain: 'ton', displayName: 'TON', addressType: 'ton', nativeSymbol: 'ton' },
};

function currency(symbol: CurrencySymbol, chain: Chain, asset: string, decimals: number): CurrencyInfo {
  const native = !symbol.includes('.');
  const chainName = CHAIN_INFO[chain].displayName;
  return {
    symbol,
    chain,
    addressType: CHAIN_INFO[chain].addressType,
    asset,
    displayName: native ? `${asset} (${chainName})` : `${asset} on ${chainName}`,
    decimals,
    native,
  };
}

/** Decimals per PROTOCOL §9.2. */
export const CURRENCIES: Readonly<Record<CurrencySymbol, CurrencyInfo>> = {
  trx: currency('trx', 'trx', 'TRX', 6),
  'trx.usdt': currency('trx.usdt', 'trx', 'USDT', 6),
  eth: currency('eth', 'eth', 'ETH', 18),
  'eth.usdt': currency('eth.usdt', 'eth', 'USDT', 6),
  'eth.usdc': currency('eth.usdc', 'eth', 'USDC', 6),
  solana: currency('solana', 'solana', 'SOL', 9),
  'solana.usdt': currency('solana.usdt', 'solana', 'USDT', 6),
  'solana.usdc': currency('solana.usdc', 'solana', 'USDC', 6),
  bnb: currency('bnb', 'bnb', 'BNB', 18),
  'bnb.usdt': currency('bnb.usdt', 'bnb', 'USDT', 18),
  'bnb.usdc': currency('bnb.usdc', 'bnb', 'USDC', 18),
  ton: currency('ton', 'ton', 'TON', 9),
  'ton.usdt': currency('ton.usdt', 'ton', 'USDT', 6),
};

/**
 * Symbols that exist on chain but the platform never credits: USDC sent to a TRON address is
 * not credited, listed or called back (spec rule 2, PROTOCOL §11.6).
 */
export const UNSUPPORTED_DEPOSIT_SYMBOLS = ['trx.usdc'] as const;
export type UnsupportedDepositSymbol = (typeof UNSUPPORTED_DEPOSIT_SYMBOLS)[number];

export function isCurrencySymbol(value: string): value is CurrencySymbol {
  return (WITHDRAWAL_CURRENCIES as readonly string[]).includes(value);
}

export function isAddressType(value: string): value is AddressType {
  return (ADDRESS_TYPES as readonly string[]).includes(value);
}

export function isChain(value: string): value is Chain {
  return (CHAINS as readonly string[]).includes(value);
}

export function currencyInfo(symbol: CurrencySymbol): CurrencyInfo {
  return CURRENCIES[symbol];
}

/** Currencies creditable to an address of this type: an eth_bnb address receives on both ETH and BNB chains (§11.5). */
export function depositCurrenciesFor(addressType: AddressType): readonly CurrencySymbol[] {
  return WITHDRAWAL_CURRENCIES.filter((symbol) => CURRENCIES[symbol].addressType === addressType);
}

/** Chains an address of this type lives on. */
export function chainsFor(addressType: AddressType): readonly Chain[] {
  return CHAINS.filter((chain) => CHAIN_INFO[chain].addressType === addressType);
}

/** Notes operators must see where a deposit address is shown (spec rules 1 and 2). */
export function depositNotesFor(addressType: AddressType): readonly string[] {
  switch (addressType) {
    case 'eth_bnb':
      return [
        'This one address receives on both Ethereum and BNB Smart Chain; each deposit is credited under its own chain\'s currency.',
      ];
    case 'trx':
      return ['Only TRX and USDT are credited on TRON. USDC sent to this address is NOT credited and cannot be recovered automatically.'];
    case 'ton':
      return ['Only TON and USDT are credited on TON.'];
    case 'solana':
      return [];
    default: {
      const unreachable: never = addressType;
      return unreachable;
    }
  }
}
