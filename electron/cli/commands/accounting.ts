// `treasury-desk accounting export --format xero|quickbooks (--period YYYY-MM | --from ISO --to ISO) [--tz ZONE]
// --mapping FILE --out FILE`: the period's journals for Xero's manual journal import or QuickBooks Online's journal
// entry import, from the desk's verified records (docs/accounting.md). The file is replaced whole, like every export;
// --out naming a folder writes a file there whose name carries the period and the audit head's fingerprint.
import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ACCOUNT_MAPPING_MAX_CHARS, ACCOUNTING_FORMATS, canonicalTimeZone, timeZoneProblem, type AccountingFormat } from '../../contract';
import { parseIsoTime, parseMonth, typedTimeToMs, type TypedTime } from '../args';
import { addEngineOptions, withSession } from '../engine-session';
import { UsageError } from '../errors';
import { readTextFileArgument } from '../io';
import type { CommandRegistrar } from '../program';

interface AccountingOptions {
  readonly format: string;
  readonly period?: string;
  readonly from?: string;
  readonly to?: string;
  readonly tz?: string;
  readonly mapping: string;
  readonly out: string;
}

const LABELS = { from: '--from or --period', to: '--to or --period', timeZone: '--tz', mapping: '--mapping', path: '--out', format: '--format' } as const;

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The period's bounds as typed: a month, or --from and --to (each checked before any desk opens). */
function typedPeriod(options: AccountingOptions): { readonly from: TypedTime; readonly to: TypedTime; readonly name: string } {
  if (options.period !== undefined) {
    if (options.from !== undefined || options.to !== undefined) throw new UsageError('give --period, or --from and --to, not both.');
    return { ...parseMonth(options.period, '--period'), name: options.period.trim() };
  }
  if (options.from === undefined || options.to === undefined) throw new UsageError('give the period: --period YYYY-MM (a calendar month), or --from and --to.');
  return { from: parseIsoTime(options.from, '--from'), to: parseIsoTime(options.to, '--to'), name: `${options.from.trim().slice(0, 10)}_${options.to.trim().slice(0, 10)}` };
}

export const registerAccountingCommands: CommandRegistrar = (program, io) => {
  const accounting = program.command('accounting').description('Journals for accounting software, from the verified records');
  addEngineOptions(
    accounting
      .command('export')
      .description("Write a period's journals for Xero (manual journal import) or QuickBooks Online (journal entry import): deposits credited, orders final with success, fees on their own lines")
      .requiredOption('--format <format>', 'xero or quickbooks')
      .option('--period <month>', 'a calendar month, YYYY-MM, in --tz (default: the reporting time zone)')
      .option('--from <iso>', 'the period starts at this date or time (without an offset, in --tz)')
      .option('--to <iso>', 'the period ends before this date or time (without an offset, in --tz)')
      .option('--tz <zone>', 'the IANA time zone of the period and of the journal dates (default: the reporting time zone)')
      .requiredOption('--mapping <file>', 'the account mapping, CSV with the columns kind,key,account (docs/accounting.md)')
      .requiredOption('--out <file>', 'the CSV file to write (replaced whole), or a folder to write a file named with the period and the audit fingerprint'),
  ).action(async (options: AccountingOptions, command: Command) => {
    const format = options.format.trim().toLowerCase();
    if (!(ACCOUNTING_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be ${ACCOUNTING_FORMATS.join(' or ')}; got ${JSON.stringify(options.format.slice(0, 40))}.`);
    const typed = typedPeriod(options);
    if (options.tz !== undefined) {
      const problem = timeZoneProblem(options.tz);
      if (problem !== null) throw new UsageError(`--tz: ${problem}.`);
    }
    const mapping = readTextFileArgument(resolve(options.mapping), 'account mapping', ACCOUNT_MAPPING_MAX_CHARS);
    await withSession(command, io, async (session) => {
      const timeZone = options.tz === undefined ? session.timeZone : (canonicalTimeZone(options.tz) ?? options.tz);
      let path = resolve(options.out);
      if (isFolder(path)) {
        const head = (await session.run('audit/head', {})).head;
        const mark = head === null ? 'empty-log' : head.fingerprint;
        path = join(path, `${format}-journals-${typed.name.replace(/[^0-9A-Za-z_-]+/g, '-')}-${mark}.csv`);
      }
      const request = { format: format as AccountingFormat, from: typedTimeToMs(typed.from, timeZone), to: typedTimeToMs(typed.to, timeZone), timeZone, mapping, path };
      const written = await session.run('accounting/export', request, LABELS);
      session.output(written, () => {
        session.say(`wrote ${written.journals} journal${written.journals === 1 ? '' : 's'} (${written.lines} lines, ${written.records} record${written.records === 1 ? '' : 's'}) for ${format === 'xero' ? 'Xero' : 'QuickBooks Online'} to ${written.path} (dates in ${written.timeZone})`);
        session.say(written.auditHead === null ? 'audit log: empty' : `audit head ${written.auditHead.seq}, fingerprint ${written.auditHead.fingerprint}`);
      });
    });
  });
};
