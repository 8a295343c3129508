// `statements/build`: the period statement of the active profile, from the reconciliation of the same period (one
// attribution of records to balance readings for both): per currency the opening and closing readings, the deposits,
// withdrawals, fees and refunds between them, and closing - (opening + deposits - withdrawals - fees + refunds), in
// decimal.js to the last decimal, and the withdrawal orders seen created in the period, each named by the payee of its
// destination in the signed book. Reads the cache only: it works offline, and changes nothing.
import { Money } from '../../chains/amounts';
import type {
  CurrencyReconciliation,
  PeriodStatement,
  PeriodStatementCurrency,
  PeriodStatementWithdrawal,
  ReconciliationTally,
} from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import { DeskError } from '../kernel/errors';
import { exact, runReconciliation } from '../reconcile';
import { requestsForReconciliation } from '../withdrawals';
import { payeeNameOf } from '../address-book';
import { merchantInfoView } from '../merchant';
import { CURRENCIES, isCurrencySymbol } from '../../chains';

export interface PeriodStatementRequest {
  readonly from: number;
  readonly to: number;
  /** The zone the faces show its times in. */
  readonly timeZone: string;
}

const NO_RECORDS: ReconciliationTally = { count: 0, amount: '0' };

/** The statement's part for one currency, from its reconciliation over the same period. */
export function currencyStatement(reconciled: CurrencyReconciliation): PeriodStatementCurrency {
  const { currency, balance } = reconciled;
  if (balance === null) {
    return {
      currency,
      opening: null,
      closing: null,
      startsLate: false,
      deposits: NO_RECORDS,
      depositFees: '0',
      withdrawals: NO_RECORDS,
      withdrawalFees: '0',
      refunds: NO_RECORDS,
      unexplained: null,
    };
  }
  const withdrawalFees = new Money(balance.fees.withdrawals);
  // The reconciliation counts amount + fee leaving the balance; the statement shows the amounts sent and the fees apart.
  const withdrawn = new Money(balance.withdrawals.amount).minus(withdrawalFees);
  const expectedClosing = new Money(balance.opening.available)
    .plus(balance.deposits.amount)
    .minus(withdrawn)
    .minus(withdrawalFees)
    .plus(balance.returned.amount);
  return {
    currency,
    opening: balance.opening,
    closing: balance.closing,
    startsLate: balance.startsLate,
    deposits: balance.deposits,
    depositFees: balance.fees.deposits,
    withdrawals: { count: balance.withdrawals.count, amount: exact(withdrawn) },
    withdrawalFees: exact(withdrawalFees),
    refunds: balance.returned,
    unexplained: exact(new Money(balance.closing.available).minus(expectedClosing)),
  };
}

/**
 * The withdrawal orders of these currencies the desk first saw created at the platform in [from, to), oldest first. The
 * payee comes from the signed roster as it stands now (an address unbooked since names none), never from a table column.
 */
function periodWithdrawals(context: Kernel & AuditRecorder & ProfileSelection, currencies: readonly string[], from: number, to: number): PeriodStatementWithdrawal[] {
  const profile = context.activeProfile().name;
  const roster = context.trail.roster(profile, { cached: true });
  return currencies
    .flatMap((currency) => requestsForReconciliation(context.db, profile, currency))
    .filter(({ firstStatusAt }) => firstStatusAt !== null && firstStatusAt >= from && firstStatusAt < to)
    .map(({ request, firstStatusAt }) => ({
      request: String(request.id),
      currency: request.currency,
      amount: request.amount,
      fee: request.fee,
      toAddress: request.toAddress,
      payee: isCurrencySymbol(request.currency) ? payeeNameOf(roster, CURRENCIES[request.currency].chain, request.toAddress) : null,
      at: firstStatusAt ?? from,
      orderStatus: request.orderStatus,
    }))
    .sort((a, b) => a.at - b.at);
}

/** The period statement of the active profile over [from, to). */
export function buildPeriodStatement(context: Kernel & AuditRecorder & ProfileSelection, request: PeriodStatementRequest): PeriodStatement {
  if (request.from >= request.to) {
    throw new DeskError('invalidInput', 'the period must start before it ends: choose an end after the start', { to: 'must be after the start of the period' });
  }
  const report = runReconciliation(context, { from: request.from, to: request.to });
  const findings = report.currencies
    .flatMap((currency) => currency.findings)
    .sort((a, b) => Number(a.explained) - Number(b.explained) || (a.at ?? 0) - (b.at ?? 0));
  const head = context.trail.head();
  return {
    profile: report.profile,
    merchantName: merchantInfoView(context.db, report.profile)?.merchantName ?? null,
    from: request.from,
    to: request.to,
    timeZone: request.timeZone,
    generatedAt: report.generatedAt,
    currencies: report.currencies.map(currencyStatement),
    withdrawals: periodWithdrawals(context, report.currencies.map((currency) => currency.currency), request.from, request.to),
    findings,
    unexplainedFindings: report.unexplained,
    auditHead: head === null ? null : { seq: head.seq, hash: head.hash, fingerprint: head.fingerprint },
  };
}
