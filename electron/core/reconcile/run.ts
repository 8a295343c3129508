// `reconcile/run`: gathers, per currency, what the desk holds (balance readings, deposits with how each was seen,
// withdrawal requests with their statuses, the currency table) and hands it to the pure comparison (compare.ts). Reads
// the cache only: it works offline, and changes nothing.
import { CURRENCIES, isCurrencySymbol, WITHDRAWAL_CURRENCIES } from '../../chains';
import type { ReconciliationReport } from '../../contract/reconciliation';
import { computeFee, feeScheduleOf } from '../../protocol';
import type { Kernel } from '../kernel/kernel';
import type { ProfileSelection } from '../profiles';
import { DeskError } from '../kernel/errors';
import { balanceReadings, getCurrency, heldCurrencies, statedDecimals } from '../merchant';
import { depositCurrencies, depositSightings, firstDepositCallbackAt } from '../deposits';
import { getSyncState } from '../sync';
import {
  firstOrderCallbackAt,
  requestsForReconciliation,
  withdrawalCurrencies,
  type ReconciledRequest,
} from '../withdrawals';
import { reconcileCurrency, type FeeRule, type OrderFact } from './compare';

/** Deposits stored up to this long after the period (or the last reading) are read too: a sync run may straddle the end. */
export const RUN_MARGIN_MS = 60 * 60_000;

export interface ReconcileRequest {
  readonly currency?: string | undefined;
  readonly from?: number | undefined;
  readonly to?: number | undefined;
}

/** The spec's 13 symbols in the spec's order, then any other alphabetically. */
function currencyOrder(a: string, b: string): number {
  const rank = (symbol: string): number => {
    const index = (WITHDRAWAL_CURRENCIES as readonly string[]).indexOf(symbol);
    return index === -1 ? WITHDRAWAL_CURRENCIES.length : index;
  };
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** A request's order as the comparison reads it: its creation and final status from verified order records only. */
function orderFact({ request, firstStatusAt, finalStatus }: ReconciledRequest): OrderFact {
  return {
    id: String(request.id),
    userOrder: request.userOrder,
    apiOrder: request.apiOrder,
    amount: request.amount,
    fee: request.fee,
    state: request.state,
    createdSeenAt: firstStatusAt,
    final: finalStatus,
  };
}

/** The currency table's fee rule for a currency whose decimals the desk knows (its own or the record's), or null. */
function feeRule(context: Kernel & ProfileSelection, profile: string, currency: string): FeeRule | null {
  const stored = getCurrency(context.db, profile, currency);
  if (stored === undefined) return null;
  const schedule = feeScheduleOf(stored.record);
  const decimals = isCurrencySymbol(currency) ? CURRENCIES[currency].decimals : statedDecimals(stored.record);
  if (schedule === undefined || decimals === null) return null;
  return { fetchedAt: stored.fetchedAt, expected: (kind, amount) => computeFee(schedule, kind, amount, decimals) };
}

/** Reconciles the active profile over the period, per currency (one, or every currency the desk has records of). */
export function runReconciliation(context: Kernel & ProfileSelection, request: ReconcileRequest): ReconciliationReport {
  const profile = context.activeProfile().name;
  const { db } = context;
  const now = context.now();
  const to = request.to ?? now;
  const from = request.from ?? null;
  if (from !== null && from >= to) throw new DeskError('invalidInput', 'the period must start before it ends', { from: 'must be before the end of the period' });
  const currencies =
    request.currency !== undefined
      ? [request.currency]
      : [...new Set([...heldCurrencies(db, profile), ...depositCurrencies(db, profile), ...withdrawalCurrencies(db, profile)])].sort(currencyOrder);
  const firstCallbacks = [firstDepositCallbackAt(db, profile), firstOrderCallbackAt(db, profile)].filter((at): at is number => at !== null);
  const callbacksSince = firstCallbacks.length === 0 ? null : Math.min(...firstCallbacks);
  const lastDepositsSyncAt = getSyncState(db, profile, 'deposits')?.lastSuccessAt ?? null;

  const reports = currencies.map((currency) => {
    const readings = balanceReadings(db, profile, currency, from, to);
    const first = readings[0];
    const last = readings.at(-1);
    // Deposits of the period, and those the balance needs: from the opening reading to a sync run past the closing one.
    const start = from === null ? null : Math.min(from, first?.observedAt ?? from);
    const end = Math.max(to, last?.lastObservedAt ?? to) + RUN_MARGIN_MS;
    return reconcileCurrency({
      currency,
      from,
      to,
      now,
      callbacksSince,
      lastDepositsSyncAt,
      readings,
      deposits: depositSightings(db, profile, currency, start, end),
      orders: requestsForReconciliation(db, profile, currency).map(orderFact),
      feeRule: feeRule(context, profile, currency),
    });
  });
  const unexplained = reports.reduce((count, report) => count + report.findings.filter((finding) => !finding.explained).length, 0);
  return { profile, from, to, generatedAt: now, ok: unexplained === 0, unexplained, callbacksSince, lastDepositsSyncAt, currencies: reports };
}
