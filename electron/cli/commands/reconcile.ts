// `treasury-desk reconcile [--currency C] [--from ISO] [--to ISO] [--csv FILE] [--json]`: the three-way reconciliation
// from the desk's cache (works offline): per currency, deposits by callback against getDeposits, the balance's movement
// against the records, frozen funds against open orders, fees against the table; every difference with its exact
// amount, explained, pending (waiting for an order of the desk in flight) or unexplained. Exits 1 when something is
// unexplained (after printing the report and writing the CSV); a pending finding alone does not.
import type { Command } from 'commander';
import {
  FINDING_STATUS_CSV,
  findingStatus,
  type BalanceReconciliation,
  type CurrencyReconciliation,
  type ReconciliationFinding,
  type ReconciliationFindingStatus,
  type ReconciliationReport,
} from '../../contract';
import { csvInstant, csvLine } from '../../core/export/csv';
import { parseIsoTime, typedTimeToMs, type TypedTime } from '../args';
import { addEngineOptions, withSession, type EngineSession } from '../engine-session';
import { NegativeAnswer } from '../errors';
import { plural, table } from '../format';
import { writeFileArgument } from '../io';
import type { CommandRegistrar } from '../program';

interface ReconcileOptions {
  readonly currency?: string;
  readonly from?: string;
  readonly to?: string;
  readonly csv?: string;
}

const LABELS = { currency: '--currency', from: '--from', to: '--to' } as const;

/** "3 (119.5)" */
function tally(value: { readonly count: number; readonly amount: string }): string {
  return `${value.count} (${value.amount})`;
}

/** What the records moved, in words: "deposits +10 (2), withdrawals -26.025 (1), returned +26.025 (1)"; a zero has no sign. */
function movements(balance: BalanceReconciliation): string {
  const flow = (sign: '+' | '-', amount: string): string => (amount === '0' ? '0' : `${sign}${amount}`);
  return (
    `deposits ${flow('+', balance.deposits.amount)} (${balance.deposits.count}), withdrawals ${flow('-', balance.withdrawals.amount)} (${balance.withdrawals.count}), ` +
    `returned ${flow('+', balance.returned.amount)} (${balance.returned.count})`
  );
}

function verdict(currency: CurrencyReconciliation): string {
  const unexplained = currency.findings.filter((finding) => findingStatus(finding) === 'unexplained').length;
  const pending = currency.findings.filter((finding) => findingStatus(finding) === 'pending').length;
  return unexplained > 0 ? `${unexplained} unexplained` : pending > 0 ? `ok, ${pending} pending` : 'ok';
}

/** A finding's standing as the text report's column (fixed width). */
const STATUS_COLUMN: Readonly<Record<ReconciliationFindingStatus, string>> = { explained: 'explained  ', pending: 'pending    ', unexplained: 'UNEXPLAINED' };

function periodText(session: EngineSession, report: ReconciliationReport): string {
  return `${report.from === null ? 'the beginning of the records' : session.time(report.from)} to ${session.time(report.to)}`;
}

function printReport(session: EngineSession, report: ReconciliationReport): void {
  session.say(`reconciliation of profile ${report.profile}, ${periodText(session, report)} (times in ${session.timeZone})`);
  session.say(report.callbacksSince === null ? 'callbacks: none received by this desk (deposits are known by sync only)' : `callbacks: received since ${session.time(report.callbacksSince)}`);
  session.say(`last deposits sync: ${report.lastDepositsSyncAt === null ? 'never' : session.time(report.lastDepositsSyncAt)}`);
  if (report.currencies.length === 0) {
    session.say('no records to reconcile: run "treasury-desk sync" first');
    return;
  }
  session.io.stdout(
    table(
      ['currency', 'deposits', 'both ways', 'callback only', 'query only', 'balance change', 'records explain', 'unexplained', 'frozen', 'open orders', 'verdict'],
      report.currencies.map((currency) => [
        currency.currency,
        tally(currency.deposits.total),
        tally(currency.deposits.both),
        tally(currency.deposits.callbackOnly),
        tally(currency.deposits.queryOnly),
        currency.balance?.change ?? '-',
        currency.balance?.expectedChange ?? '-',
        currency.balance?.unexplained ?? '-',
        currency.frozen?.reported ?? '-',
        currency.frozen === null ? '-' : tally(currency.frozen.openOrders),
        verdict(currency),
      ]),
      ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
    ),
  );
  for (const currency of report.currencies) {
    const { balance } = currency;
    if (balance === null) continue;
    session.say(
      `${currency.currency}: available ${balance.opening.available} (${session.time(balance.opening.observedAt)}) -> ${balance.closing.available} (${session.time(balance.closing.observedAt)}); ` +
        movements(balance) +
        (balance.startsLate ? '; movements before the first reading are not checked' : ''),
    );
  }
  const findings = report.currencies.flatMap((currency) => currency.findings);
  if (findings.length === 0) return;
  session.say('');
  session.say('findings (unexplained first, then pending):');
  for (const finding of findings) {
    session.say(`  ${STATUS_COLUMN[findingStatus(finding)]}  ${finding.currency}  ${finding.at === null ? '-' : session.time(finding.at)}  ${finding.amount}  ${finding.summary}`);
    session.say(`               ${finding.explanation}`);
  }
}

/** What a finding points at, as CSV cells: api_order, txid, request, user_order, reading from, reading to. */
function referenceCells(finding: ReconciliationFinding, timeZone: string): (string | null)[] {
  const reference = finding.reference;
  if (reference === null) return [null, null, null, null, null, null];
  switch (reference.kind) {
    case 'deposit':
      return [reference.apiOrder, reference.txid, null, null, null, null];
    case 'withdrawal':
      return [reference.apiOrder, null, reference.id, reference.userOrder, null, null];
    case 'balance':
      return [null, null, null, null, csvInstant(reference.fromAt, timeZone), csvInstant(reference.toAt, timeZone)];
    default: {
      const unknown: never = reference;
      return unknown;
    }
  }
}

/**
 * The report as CSV: per currency a `statement` row (the balance movement and what explains it), then one row per
 * finding; times in the reporting zone with its offset, amounts exactly as reported.
 */
export function reconciliationCsv(report: ReconciliationReport, timeZone: string): string {
  let text = csvLine(['currency', 'kind', 'explained', 'amount', 'at', 'summary', 'explanation', 'api_order', 'txid', 'request', 'user_order', 'reading_from', 'reading_to']);
  for (const currency of report.currencies) {
    const { balance } = currency;
    if (balance !== null) {
      const statement =
        `available ${balance.opening.available} -> ${balance.closing.available} (change ${balance.change}); ${movements(balance)}, expected change ${balance.expectedChange}; ` +
        `frozen ${currency.frozen?.reported ?? '-'} against open orders ${currency.frozen?.openOrders.amount ?? '-'}`;
      text += csvLine([
        currency.currency,
        'statement',
        balance.unexplained === '0' ? 'yes' : 'no',
        balance.unexplained,
        csvInstant(balance.closing.observedAt, timeZone),
        statement,
        '',
        null,
        null,
        null,
        null,
        csvInstant(balance.opening.observedAt, timeZone),
        csvInstant(balance.closing.observedAt, timeZone),
      ]);
    }
    for (const finding of currency.findings) {
      text += csvLine([
        finding.currency,
        finding.kind,
        FINDING_STATUS_CSV[findingStatus(finding)],
        finding.amount,
        finding.at === null ? null : csvInstant(finding.at, timeZone),
        finding.summary,
        finding.explanation,
        ...referenceCells(finding, timeZone),
      ]);
    }
  }
  return text;
}

export const registerReconcileCommand: CommandRegistrar = (program, io) => {
  addEngineOptions(
    program
      .command('reconcile')
      .description('Reconcile callbacks, getDeposits and the balance readings per currency and period, from the cache; exit 1 when something is unexplained')
      .option('--currency <symbol>', 'only this currency, e.g. trx.usdt (default: every currency with records)')
      .option('--from <iso>', 'the period starts at this date or time (default: the beginning; without an offset, in the reporting time zone)')
      .option('--to <iso>', 'the period ends before this date or time (default: now; without an offset, in the reporting time zone)')
      .option('--csv <file>', 'also write the statement and every finding to this CSV file (replaced whole)'),
  ).action(async (options: ReconcileOptions, command: Command) => {
    // Typed times are checked before any desk opens (exit 2), then read in the reporting zone.
    const from: TypedTime | undefined = options.from === undefined ? undefined : parseIsoTime(options.from, '--from');
    const to: TypedTime | undefined = options.to === undefined ? undefined : parseIsoTime(options.to, '--to');
    await withSession(command, io, async (session) => {
      const request = {
        ...(options.currency !== undefined ? { currency: options.currency } : {}),
        ...(from !== undefined ? { from: typedTimeToMs(from, session.timeZone) } : {}),
        ...(to !== undefined ? { to: typedTimeToMs(to, session.timeZone) } : {}),
      };
      const report = await session.run('reconcile/run', request, LABELS);
      if (options.csv !== undefined) writeFileArgument(options.csv, reconciliationCsv(report, session.timeZone), 'the CSV');
      session.output(report, () => {
        printReport(session, report);
        if (options.csv !== undefined) session.say(`wrote the statement and ${plural(report.currencies.reduce((count, currency) => count + currency.findings.length, 0), 'finding')} to ${options.csv}`);
      });
      if (!report.ok) throw new NegativeAnswer(`${plural(report.unexplained, 'difference')} ${report.unexplained === 1 ? 'is' : 'are'} unexplained: see the findings marked UNEXPLAINED`);
    });
  });
};
