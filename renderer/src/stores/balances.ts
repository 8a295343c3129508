// useBalancesStore: per-currency balances (available and frozen, decimal strings exactly as the engine gave them),
// the currency list with fees and minimums, and the hide-balances toggle (remembered on this workstation).
import { create } from 'zustand';
import { WITHDRAWAL_CURRENCIES } from '../../../electron/chains';
import type { BalanceView, CurrencyView } from '../../../electron/contract';
import { call, type ContractError } from '../api';

/** The spec's currency order (chain by chain), whatever order the engine answers in. */
function currencyRank(symbol: string): number {
  const index = (WITHDRAWAL_CURRENCIES as readonly string[]).indexOf(symbol);
  return index === -1 ? WITHDRAWAL_CURRENCIES.length : index;
}

const HIDE_KEY = 'treasury-desk.hideBalances';

function readHidden(): boolean {
  try {
    return window.localStorage.getItem(HIDE_KEY) === '1';
  } catch {
    return false;
  }
}

function writeHidden(hidden: boolean): void {
  try {
    window.localStorage.setItem(HIDE_KEY, hidden ? '1' : '0');
  } catch {
    // Storage unavailable: the toggle still works for this session.
  }
}

interface BalancesStore {
  readonly balances: readonly BalanceView[];
  readonly currencies: readonly CurrencyView[];
  readonly loaded: boolean;
  readonly error: ContractError | null;
  readonly hidden: boolean;
  load(): Promise<void>;
  loadCurrencies(): Promise<void>;
  toggleHidden(): void;
}

export const useBalancesStore = create<BalancesStore>()((set, get) => ({
  balances: [],
  currencies: [],
  loaded: false,
  error: null,
  hidden: readHidden(),
  async load() {
    const result = await call('balances/list', {});
    if (result.ok) set({ balances: [...result.value].sort((a, b) => currencyRank(a.currency) - currencyRank(b.currency)), loaded: true, error: null });
    else if (result.error.code !== 'locked') set({ loaded: true, error: result.error });
  },
  async loadCurrencies() {
    const result = await call('currencies/list', {});
    if (result.ok) set({ currencies: result.value });
  },
  toggleHidden() {
    const hidden = !get().hidden;
    writeHidden(hidden);
    set({ hidden });
  },
}));
