// `treasury-desk statement --from ISO --to ISO [--tz ZONE] (--csv FILE | --pdf FILE)`: the period statement from the
// desk's cache (works offline): per currency the opening and closing balances, deposits, withdrawals, fees, refunds and
// the unexplained difference, the withdrawals created in the period (each with its payee) and the reconciliation's
// findings; printed, and written as CSV or as PDF (headless
// Chromium from PATH), ending with the audit head's fingerprint.
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { canonicalTimeZone, timeZoneProblem, type PeriodStatement } from '../../contract';
import { parseIsoTime, typedTimeToMs } from '../args';
import { addEngineOptions, envOf, withSession, type EngineSession } from '../engine-session';
import { UsageError } from '../errors';
import { addressWithPayee, formatTime, table } from '../format';
import { printHtmlWithHeadlessChromium } from '../print-pdf';
import type { CommandRegistrar } from '../program';

interface StatementOptions {
  readonly from: string;
  readonly to: string;
  readonly tz?: string;
  readonly csv?: string;
  readonly pdf?: string;
}

const LABELS = { from: '--from', to: '--to', timeZone: '--tz', path: '--csv' } as const;

function printStatement(session: EngineSession, statement: PeriodStatement): void {
  // Times in the statement's zone (--tz), which may differ from the reporting zone.
  const at = (ms: number): string => formatTime(ms, statement.timeZone);
  session.say(`statement of profile ${statement.profile}, ${at(statement.from)} to ${at(statement.to)} (times in ${statement.timeZone})`);
  if (statement.currencies.length === 0) {
    session.say('no balance or record in this period: run "treasury-desk sync" first');
  } else {
    session.io.stdout(
      table(
        ['currency', 'opening', 'deposits', 'withdrawals', 'fees', 'refunds', 'closing', 'unexplained'],
        statement.currencies.map((currency) => [
          currency.currency,
          currency.opening?.available ?? '-',
          currency.deposits.amount,
          currency.withdrawals.amount,
          currency.withdrawalFees,
          currency.refunds.amount,
          currency.closing?.available ?? '-',
          currency.unexplained ?? '-',
        ]),
        ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
      ),
    );
  }
  if (statement.withdrawals.length > 0) {
    session.say('withdrawals created in the period:');
    session.io.stdout(
      table(
        ['request', 'currency', 'created', 'amount', 'fee', 'to', 'status'],
        statement.withdrawals.map((withdrawal) => [withdrawal.request, withdrawal.currency, at(withdrawal.at), withdrawal.amount, withdrawal.fee ?? '-', addressWithPayee(withdrawal.toAddress, withdrawal.payee), withdrawal.orderStatus ?? '-']),
        ['right', 'left', 'left', 'right', 'right'],
      ),
    );
  }
  for (const finding of statement.findings.filter((entry) => !entry.explained)) session.say(`UNEXPLAINED  ${finding.currency}  ${finding.amount}  ${finding.summary}`);
  session.say(statement.auditHead === null ? 'audit log: empty' : `audit head ${statement.auditHead.seq}, fingerprint ${statement.auditHead.fingerprint}`);
}

export const registerStatementCommand: CommandRegistrar = (program, io) => {
  addEngineOptions(
    program
      .command('statement')
      .description('A period statement from the cache: opening and closing balances, deposits, withdrawals, fees, refunds and unexplained differences per currency')
      .requiredOption('--from <iso>', 'the period starts at this date or time (without an offset, in --tz)')
      .requiredOption('--to <iso>', 'the period ends before this date or time (without an offset, in --tz)')
      .option('--tz <zone>', 'the IANA time zone for the period and the times shown (default: the reporting time zone)')
      .option('--csv <file>', 'write the statement as CSV to this file (replaced whole)')
      .option('--pdf <file>', 'print the statement to this PDF file (needs Chromium on PATH; replaced whole)'),
  ).action(async (options: StatementOptions, command: Command) => {
    if (options.csv !== undefined && options.pdf !== undefined) throw new UsageError('give --csv or --pdf, not both: run the command twice for both files.');
    // Typed input is checked before any desk opens (exit 2).
    const from = parseIsoTime(options.from, '--from');
    const to = parseIsoTime(options.to, '--to');
    if (options.tz !== undefined) {
      const problem = timeZoneProblem(options.tz);
      if (problem !== null) throw new UsageError(`--tz: ${problem}.`);
    }
    await withSession(command, io, async (session) => {
      const timeZone = options.tz === undefined ? session.timeZone : (canonicalTimeZone(options.tz) ?? options.tz);
      const period = { from: typedTimeToMs(from, timeZone), to: typedTimeToMs(to, timeZone), timeZone };
      let written: string | null = null;
      let statement: PeriodStatement;
      if (options.csv !== undefined) {
        const path = resolve(options.csv);
        statement = (await session.run('statements/exportCsv', { ...period, path }, LABELS)).statement;
        written = path;
      } else {
        const printable = await session.run('statements/html', period, LABELS);
        statement = printable.statement;
        if (options.pdf !== undefined) {
          const pdf = Buffer.from(printHtmlWithHeadlessChromium(printable.html, envOf(io))).toString('base64');
          written = (await session.run('statements/savePdf', { ...period, path: resolve(options.pdf), pdf }, { ...LABELS, path: '--pdf' })).path;
        }
      }
      session.output(statement, () => {
        printStatement(session, statement);
        if (written !== null) session.say(`wrote the statement to ${written}`);
      });
    });
  });
};
