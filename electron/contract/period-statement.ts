// The period statement (issue 13) as every face receives it from `statements/build`: per currency, the opening and
// closing balances (the balance readings in force when the period starts and ends), the deposits, withdrawals, fees and
// refunds between them, and the unexplained difference closing - (opening + deposits - withdrawals - fees + refunds),
// with the reconciliation's findings of the period and the audit head it was made under. Amounts are exact decimal
// strings ("-12.5" where a difference can go either way); times are epoch milliseconds, shown in `timeZone`.
import type { AuditHeadView } from './dto';
import type { BalanceReadingView, ReconciliationFinding, ReconciliationTally } from './reconciliation';

/** One currency's statement. */
export interface PeriodStatementCurrency {
  readonly currency: string;
  /** The reading in force when the period starts (its first reading in the period when `startsLate`); null: no reading before the end. */
  readonly opening: BalanceReadingView | null;
  /** The last reading before the period ends; null with `opening`. */
  readonly closing: BalanceReadingView | null;
  /** The desk had no reading when the period started: the statement opens at its first reading in the period. */
  readonly startsLate: boolean;
  /** Deposits credited (their amounts, net of the deposit fee the platform kept). */
  readonly deposits: ReconciliationTally;
  /** The deposit fees the platform kept (already off the deposits' amounts; shown, not subtracted again). */
  readonly depositFees: string;
  /** Withdrawal orders created: the amounts sent, without their fees. */
  readonly withdrawals: ReconciliationTally;
  /** The withdrawal orders' fees. */
  readonly withdrawalFees: string;
  /** Orders refunded (WithdrawRefund) or failed: amount + fee returned to the balance. */
  readonly refunds: ReconciliationTally;
  /** closing - (opening + deposits - withdrawals - withdrawalFees + refunds) of the available balance; null without readings. */
  readonly unexplained: string | null;
}

/** A withdrawal order the desk saw created at the platform in the period, with the payee of its destination (issue 21). */
export interface PeriodStatementWithdrawal {
  /** The desk's request id. */
  readonly request: string;
  readonly currency: string;
  /** The amount sent, without the fee. */
  readonly amount: string;
  /** The order's fee, once the service reported it. */
  readonly fee: string | null;
  readonly toAddress: string;
  /** The payee the address belongs to in the signed book when the statement is made (display text), or null: none. */
  readonly payee: string | null;
  /** When the desk first saw the order created at the platform. */
  readonly at: number;
  /** The platform's last status of the order, or null before it reported one. */
  readonly orderStatus: string | null;
}

export interface PeriodStatement {
  readonly profile: string;
  /** The merchant's name as merchantInfo last reported it (the service's text, shown escaped); null before it answered. */
  readonly merchantName: string | null;
  /** The period: from (inclusive) to (exclusive). */
  readonly from: number;
  readonly to: number;
  /** The IANA zone its times are shown in (the request's, else the desk's reporting zone). */
  readonly timeZone: string;
  readonly generatedAt: number;
  readonly currencies: readonly PeriodStatementCurrency[];
  /** The withdrawal orders the desk saw created in the period, oldest first, each with its destination's payee. */
  readonly withdrawals: readonly PeriodStatementWithdrawal[];
  /** The reconciliation's findings in the period, unexplained ones first. */
  readonly findings: readonly ReconciliationFinding[];
  /** How many findings are unexplained. */
  readonly unexplainedFindings: number;
  /** The signed audit log's head when the statement was made (null: the log is empty). */
  readonly auditHead: AuditHeadView | null;
}

/** What audit/pack wrote: where, how many audit rows, and the head they end at. */
export interface AuditorPackWritten {
  readonly path: string;
  readonly rows: number;
  readonly auditHead: AuditHeadView;
}

/** A desk key in an auditor pack: this workstation's (namedBy null) or one a founding or enrolment row named. */
export interface AuditorPackDeskKey {
  readonly keyId: string;
  readonly publicKey: string;
  readonly namedBy: number | null;
}

/** The offline auditor pack (audit/pack, docs/auditor-pack.md), checked by tools/verify-auditor-pack.mjs. */
export interface AuditorPack {
  readonly format: 'treasury-desk/auditor-pack';
  readonly version: number;
  readonly deskId: string;
  readonly profile: string;
  readonly generatedAt: number;
  readonly statement: PeriodStatement;
  /** Every audit row from the first through the head, as stored: the canonical statement text, its signature and hash. */
  readonly chain: readonly { readonly seq: number; readonly statement: string; readonly signature: string; readonly hash: string }[];
  readonly deskKeys: readonly AuditorPackDeskKey[];
  /** The profile's active operators at the head (the verifier replays its own roster from the rows). */
  readonly operators: readonly { readonly name: string; readonly role: string; readonly keyId: string; readonly publicKey: string; readonly party: readonly string[] }[];
  /** The head, signed by the desk key (CHECKPOINT_DOMAIN + canonical checkpoint). */
  readonly checkpoint: {
    readonly checkpoint: { readonly v: 1; readonly deskId: string; readonly seq: number; readonly headHash: string; readonly at: number; readonly publicKey: string };
    readonly signature: string;
  };
  readonly auditHead: AuditHeadView;
}
