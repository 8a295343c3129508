// The dashboard feature: each asset's balance summed across its chains (balances/totals) and one currency's balance
// history (balances/history), both from the balance snapshots the desk keeps. Sums are exact (decimal.js); amounts
// stay decimal strings. Reads the cache only: works offline.
import { CURRENCIES, formatMoney, isCurrencySymbol, parseMoney, WITHDRAWAL_CURRENCIES, type Money } from '../../chains';
import {
  BALANCE_HISTORY_MAX_POINTS,
  type AssetTotalsView,
  type AssetTotalView,
  type TreasuryHandlers,
} from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { ProfileSelection } from '../profiles';
import { checkCurrencyFilter } from '../deposits';
import { balanceReadings, latestBalances, type BalanceSnapshot } from '../merchant';
import type { Handle } from '../kernel/handle';

export interface DashboardFeatureDeps {
  readonly context: Kernel & ProfileSelection;
}

const SPEC_ORDER: readonly string[] = WITHDRAWAL_CURRENCIES;
/** The assets in the order their first currency appears in the spec's list (TRX, USDT, ETH, USDC, …). */
const ASSET_ORDER: readonly string[] = [...new Set(WITHDRAWAL_CURRENCIES.map((symbol) => CURRENCIES[symbol].asset))];

/** Sums the latest snapshots per asset; a currency this desk has no asset for is left out and named. */
export function assetTotals(snapshots: readonly BalanceSnapshot[]): AssetTotalsView {
  const groups = new Map<string, BalanceSnapshot[]>();
  const uncounted: string[] = [];
  for (const snapshot of snapshots) {
    if (!isCurrencySymbol(snapshot.currency)) {
      uncounted.push(snapshot.currency);
      continue;
    }
    const asset = CURRENCIES[snapshot.currency].asset;
    groups.set(asset, [...(groups.get(asset) ?? []), snapshot]);
  }
  const sum = (values: readonly string[]): Money => values.reduce<Money>((total, value) => total.plus(parseMoney(value)), parseMoney('0'));
  const assets = ASSET_ORDER.flatMap((asset): AssetTotalView[] => {
    const members = (groups.get(asset) ?? []).sort((a, b) => SPEC_ORDER.indexOf(a.currency) - SPEC_ORDER.indexOf(b.currency));
    if (members.length === 0) return [];
    const available = sum(members.map((member) => member.available));
    const frozen = sum(members.map((member) => member.frozen));
    return [
      {
        asset,
        available: formatMoney(available),
        frozen: formatMoney(frozen),
        total: formatMoney(available.plus(frozen)),
        currencies: members.map((member) => ({ currency: member.currency, available: member.available, frozen: member.frozen })),
      },
    ];
  });
  return { assets, uncounted: uncounted.sort() };
}

export function dashboardHandlers({ context }: DashboardFeatureDeps, handle: Handle): Pick<TreasuryHandlers, 'balances/totals' | 'balances/history'> {
  const profileName = (): string => context.activeProfile().name;
  return {
    'balances/totals': handle('balances/totals', () => assetTotals(latestBalances(context.db, profileName()))),
    'balances/history': handle('balances/history', (request) => {
      const profile = profileName();
      checkCurrencyFilter(context.db, profile, request.currency);
      // `to` is exclusive in the store: a period ending now includes a snapshot taken this millisecond.
      const readings = balanceReadings(context.db, profile, request.currency, request.from ?? null, request.to ?? context.now() + 1);
      const kept = readings.slice(-BALANCE_HISTORY_MAX_POINTS);
      return {
        currency: request.currency,
        points: kept.map((reading) => ({ observedAt: reading.observedAt, lastObservedAt: reading.lastObservedAt, available: reading.available, frozen: reading.frozen })),
        truncated: kept.length < readings.length,
      };
    }),
  };
}
