// The deposits module's check of a currency filter (deposits, the dashboard, reconciliation): a symbol is accepted when
// the desk knows it, the service lists it, or a deposit in it is held; anything else is refused as a likely typo.
import { isCurrencySymbol } from '../../chains';
import { DeskError } from '../kernel/errors';
import { getCurrency, unknownCurrencyReason } from '../merchant';
import { type ReadableDB } from '../store/database';
import { hasDepositsIn } from './deposits-table';

/**
 * Refuses a currency filter naming a symbol nobody knows: not one of the 13, not in the service's list, and in no
 * deposit held (a typo, most likely). A currency the service added later passes.
 */
export function checkCurrencyFilter(db: ReadableDB, profile: string, symbol: string | undefined): void {
  if (symbol === undefined || isCurrencySymbol(symbol) || getCurrency(db, profile, symbol) !== undefined || hasDepositsIn(db, profile, symbol)) return;
  throw new DeskError('invalidInput', unknownCurrencyReason(symbol), { currency: unknownCurrencyReason(symbol) });
}
