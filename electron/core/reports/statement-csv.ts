// The period statement as CSV (statements/exportCsv): a `period` row, one `balance` row per currency (opening, the
// movements, closing and the unexplained difference), one `withdrawal` row per order seen created in the period (its
// address and payee), one `finding` row per reconciliation finding of the period, and an `audit_head` row last; times in the statement's zone with their offset (csvInstant), amounts exactly as computed.
import { FINDING_STATUS_CSV, findingStatus, type PeriodStatement, type PeriodStatementCurrency, type PeriodStatementWithdrawal, type ReconciliationFinding } from '../../contract';
import { csvInstant, csvLine } from '../export/csv';

export const STATEMENT_CSV_COLUMNS = [
  'record',
  'currency',
  'opening_at',
  'opening_available',
  'opening_frozen',
  'deposits_count',
  'deposits',
  'deposit_fees',
  'withdrawals_count',
  'withdrawals',
  'withdrawal_fees',
  'refunds_count',
  'refunds',
  'closing_at',
  'closing_available',
  'closing_frozen',
  'unexplained_difference',
  'finding',
  'explained',
  'at',
  'amount',
  'request',
  'to_address',
  'payee',
  'note',
] as const;

type Column = (typeof STATEMENT_CSV_COLUMNS)[number];

function row(cells: Partial<Record<Column, string | number | null>>): string {
  return csvLine(STATEMENT_CSV_COLUMNS.map((column) => cells[column] ?? null));
}

function balanceRow(currency: PeriodStatementCurrency, timeZone: string): string {
  return row({
    record: 'balance',
    currency: currency.currency,
    opening_at: currency.opening === null ? null : csvInstant(currency.opening.observedAt, timeZone),
    opening_available: currency.opening?.available ?? null,
    opening_frozen: currency.opening?.frozen ?? null,
    deposits_count: currency.deposits.count,
    deposits: currency.deposits.amount,
    deposit_fees: currency.depositFees,
    withdrawals_count: currency.withdrawals.count,
    withdrawals: currency.withdrawals.amount,
    withdrawal_fees: currency.withdrawalFees,
    refunds_count: currency.refunds.count,
    refunds: currency.refunds.amount,
    closing_at: currency.closing === null ? null : csvInstant(currency.closing.observedAt, timeZone),
    closing_available: currency.closing?.available ?? null,
    closing_frozen: currency.closing?.frozen ?? null,
    unexplained_difference: currency.unexplained,
    note:
      currency.opening === null
        ? 'no balance reading before the end of the period: run a sync'
        : currency.startsLate
          ? 'the desk had no reading when the period started: opens at its first reading in the period'
          : null,
  });
}

function withdrawalRow(withdrawal: PeriodStatementWithdrawal, timeZone: string): string {
  return row({
    record: 'withdrawal',
    currency: withdrawal.currency,
    withdrawal_fees: withdrawal.fee,
    at: csvInstant(withdrawal.at, timeZone),
    amount: withdrawal.amount,
    request: withdrawal.request,
    to_address: withdrawal.toAddress,
    payee: withdrawal.payee,
    note: withdrawal.orderStatus === null ? null : `order status ${withdrawal.orderStatus}`,
  });
}

function findingRow(finding: ReconciliationFinding, timeZone: string): string {
  return row({
    record: 'finding',
    currency: finding.currency,
    finding: finding.kind,
    explained: FINDING_STATUS_CSV[findingStatus(finding)],
    at: finding.at === null ? null : csvInstant(finding.at, timeZone),
    amount: finding.amount,
    note: `${finding.summary} ${finding.explanation}`.trim(),
  });
}

/** The whole CSV text of a statement (a row per currency, per withdrawal of the period and per finding). */
export function periodStatementCsv(statement: PeriodStatement): string {
  const { timeZone } = statement;
  let text = csvLine(STATEMENT_CSV_COLUMNS);
  text += row({
    record: 'period',
    opening_at: csvInstant(statement.from, timeZone),
    closing_at: csvInstant(statement.to, timeZone),
    note: `profile ${statement.profile}; times in ${timeZone}; made ${csvInstant(statement.generatedAt, timeZone)}`,
  });
  for (const currency of statement.currencies) text += balanceRow(currency, timeZone);
  for (const withdrawal of statement.withdrawals) text += withdrawalRow(withdrawal, timeZone);
  for (const finding of statement.findings) text += findingRow(finding, timeZone);
  text += row({
    record: 'audit_head',
    note: statement.auditHead === null ? 'the audit log is empty' : `audit head ${statement.auditHead.seq}, fingerprint ${statement.auditHead.fingerprint}`,
  });
  return text;
}
