// The three-way reconciliation report (issue 11, item 2) as every face receives it from `reconcile/run`: per currency
// and period, deposits reported by callback against those listed by getDeposits, and the movement of the balance between
// merchantInfo readings against deposits minus withdrawals (amount + fee) plus what refunded or failed orders returned,
// and the frozen funds against the open orders. Every difference is a finding, explained or not, with exact amounts:
// decimal strings, with a minus sign ("-12.5") where a difference can go either way. Times are epoch milliseconds.
import type { FindingSentence } from './reconciliation-sentences';

/** What a finding is about. */
export const RECONCILIATION_FINDING_KINDS = [
  /** A deposit a verified callback reported that getDeposits has not listed. */
  'callbackOnly',
  /** A deposit getDeposits listed whose callback never arrived (one finding per deposit). */
  'queryOnly',
  /** Deposits listed only by getDeposits while the desk was not receiving callbacks (one finding for all of them). */
  'queryOnlyWithoutCallbacks',
  /** A change of the available balance between two readings that the records do not add up to. */
  'unexplainedBalanceChange',
  /** The frozen balance of a reading differs from the amount + fee of the orders open then. */
  'frozenMismatch',
  /** A deposit or withdrawal fee other than the currency table's (getCurrencies) for its amount. */
  'feeDiffers',
  /** An order refunded (WithdrawRefund): amount + fee returned to the balance. */
  'refund',
  /** An order failed (fail): amount + fee returned to the balance. */
  'failedOrder',
  /** Records stored just after a balance reading that already included them (the desk reads balances first). */
  'recordedAfterReading',
  /**
   * A balance or frozen difference at a reading while an order the desk sent (its creation verified) was still in
   * flight: no final status seen by the reading. Pending, not unexplained: a sync after the order settles reads again.
   */
  'awaitingOrder',
] as const;
export type ReconciliationFindingKind = (typeof RECONCILIATION_FINDING_KINDS)[number];

/** What a finding points at, so a face can open it. */
export type ReconciliationReference =
  | { readonly kind: 'deposit'; readonly apiOrder: string; readonly txid: string }
  | { readonly kind: 'withdrawal'; readonly id: string; readonly userOrder: string; readonly apiOrder: string | null }
  /** Two balance readings (their observation times): the change between them. */
  | { readonly kind: 'balance'; readonly fromAt: number; readonly toAt: number };

export interface ReconciliationFinding {
  readonly kind: ReconciliationFindingKind;
  /**
   * False: nothing the desk knows accounts for it, and a person must look (the CLI exits 1). True also for a pending
   * finding (awaitingOrder), which is not unexplained: `findingStatus` tells the two apart.
   */
  readonly explained: boolean;
  readonly currency: string;
  /** The amount in question, negative ("-12.5") where it can go either way (a balance change, a fee difference). */
  readonly amount: string;
  /** When the desk observed what the finding is about (a deposit first seen, a reading, a refund). */
  readonly at: number | null;
  /** One sentence with the exact amounts, in English (times are in `at` and `reference`): findingText of `sentence`. */
  readonly summary: string;
  /** Why it is explained, or what to do about it, in English: findingText of `sentence`. */
  readonly explanation: string;
  /**
   * Which sentence `summary` and `explanation` say and with which values, so a face can say them in its own language
   * (reconciliation-sentences.ts). The engine always gives it; a finding without it can only be shown in English.
   */
  readonly sentence?: FindingSentence;
  readonly reference: ReconciliationReference | null;
}

/** Where a finding stands: explained, pending (waiting for an order in flight), or unexplained (a person must look). */
export type ReconciliationFindingStatus = 'explained' | 'pending' | 'unexplained';

/** The one rule every face uses to show a finding's standing; a pending finding is not unexplained. */
export function findingStatus(finding: Pick<ReconciliationFinding, 'kind' | 'explained'>): ReconciliationFindingStatus {
  if (!finding.explained) return 'unexplained';
  return finding.kind === 'awaitingOrder' ? 'pending' : 'explained';
}

/** A finding's standing in the `explained` column of every CSV export (reconcile --csv, the period statement). */
export const FINDING_STATUS_CSV: Readonly<Record<ReconciliationFindingStatus, string>> = { explained: 'yes', pending: 'pending', unexplained: 'no' };

/** How many records and how much. */
export interface ReconciliationTally {
  readonly count: number;
  readonly amount: string;
}

export interface BalanceReadingView {
  readonly available: string;
  readonly frozen: string;
  /** When the desk first read these values (merchantInfo). */
  readonly observedAt: number;
  /** When it last read them unchanged. */
  readonly lastObservedAt: number;
}

/** The available balance from the period's opening reading to its closing one, against the records in between. */
export interface BalanceReconciliation {
  /** The reading in force when the period starts (or its first reading, when the desk has none before). */
  readonly opening: BalanceReadingView;
  /** The last reading before the period ends. */
  readonly closing: BalanceReadingView;
  /** True when the desk had no reading at the start of the period: movements before `opening` are not checked. */
  readonly startsLate: boolean;
  /** closing.available - opening.available. */
  readonly change: string;
  /** Deposits credited (their amount, net of the deposit fee). */
  readonly deposits: ReconciliationTally;
  /** Orders created (amount + fee left the available balance). */
  readonly withdrawals: ReconciliationTally;
  /** Orders refunded or failed (amount + fee came back). */
  readonly returned: ReconciliationTally;
  /**
   * The fees inside those tallies: the deposits' (already taken off what they credited), the withdrawals' (part of what
   * left) and the returned orders' (part of what came back). A period statement shows them apart.
   */
  readonly fees: { readonly deposits: string; readonly withdrawals: string; readonly returned: string };
  /** deposits - withdrawals + returned. */
  readonly expectedChange: string;
  /** change - expectedChange: zero when the records explain the movement. */
  readonly unexplained: string;
}

/** The closing reading's frozen funds against the orders open then. */
export interface FrozenReconciliation {
  readonly at: number;
  readonly reported: string;
  /** Amount + fee of the orders open at that reading. */
  readonly openOrders: ReconciliationTally;
  /** reported - openOrders.amount. */
  readonly difference: string;
}

export interface CurrencyReconciliation {
  readonly currency: string;
  /** No unexplained finding. */
  readonly ok: boolean;
  /** Deposits first seen in the period, by how the desk learned of them. */
  readonly deposits: {
    readonly total: ReconciliationTally;
    readonly both: ReconciliationTally;
    readonly callbackOnly: ReconciliationTally;
    readonly queryOnly: ReconciliationTally;
  };
  /** Null when the desk has no balance reading of the currency in the period. */
  readonly balance: BalanceReconciliation | null;
  readonly frozen: FrozenReconciliation | null;
  /** Unexplained ones first, then pending ones, then explained ones, each by time. */
  readonly findings: readonly ReconciliationFinding[];
}

export interface ReconciliationReport {
  readonly profile: string;
  /** The period: from (inclusive; null = the beginning of the desk's records) to (exclusive). */
  readonly from: number | null;
  readonly to: number;
  readonly generatedAt: number;
  /** Nothing unexplained in any currency. */
  readonly ok: boolean;
  /** How many findings are unexplained. */
  readonly unexplained: number;
  /** When the desk received its first verified callback (deposits or orders), null when never: before it, a deposit seen only by query is expected. */
  readonly callbacksSince: number | null;
  /** When the last deposits sync (getDeposits) finished, null when never. */
  readonly lastDepositsSyncAt: number | null;
  readonly currencies: readonly CurrencyReconciliation[];
}
