// The dashboard's totals and history (issue 13, part 6): each asset's balance summed across its chains (USDT on five
// chains, USDC on three), exact decimal strings, and one currency's balance snapshots over a period.

/** One currency's share of an asset's total. */
export interface AssetShareView {
  readonly currency: string;
  readonly available: string;
  readonly frozen: string;
}

export interface AssetTotalView {
  /** The asset's ticker: USDT, USDC, TRX, … */
  readonly asset: string;
  /** Sums of the latest balances of `currencies`, exact decimal strings. */
  readonly available: string;
  readonly frozen: string;
  /** available + frozen. */
  readonly total: string;
  readonly currencies: readonly AssetShareView[];
}

export interface AssetTotalsView {
  readonly assets: readonly AssetTotalView[];
  /** Currencies the service added after this desk was built: their asset is unknown here, so no total counts them. */
  readonly uncounted: readonly string[];
}

export interface BalanceHistoryPoint {
  /** When this balance was first observed (ms). */
  readonly observedAt: number;
  /** When it was last confirmed unchanged (ms). */
  readonly lastObservedAt: number;
  readonly available: string;
  readonly frozen: string;
}

export interface BalanceHistoryView {
  readonly currency: string;
  /** Oldest first: the balance in force at `from` (when known), then every change until `to`. */
  readonly points: readonly BalanceHistoryPoint[];
  /** More changes than BALANCE_HISTORY_MAX_POINTS in the period: only the newest are answered. */
  readonly truncated: boolean;
}

/** The most points one balances/history answer carries. */
export const BALANCE_HISTORY_MAX_POINTS = 5000;
