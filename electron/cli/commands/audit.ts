// `treasury-desk audit list | verify | anchor | head | checkpoint | export | pack`: the signed, hash-chained audit log. list prints
// each row as a sentence with whether it verifies, under the viewer's filters (operator, action, request, time, search). verify checks every
// row's signature against the roster as it stood then (and, given --against, that a checkpoint's row is still there
// with the same hash) and exits 1 naming the first row that does not hold; head and checkpoint give the head's seq and
// fingerprint for the team to keep elsewhere; export writes every row (statement, signature, hash) as JSON lines; pack
// writes a period's offline auditor pack (docs/auditor-pack.md) for tools/verify-auditor-pack.mjs.
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { addEngineOptions, withSession } from '../engine-session';
import { parseIsoTime, parseMonth, typedTimeToMs, wholeNumber, type TypedTime } from '../args';
import { NegativeAnswer, UsageError } from '../errors';
import { plural, table } from '../format';
import type { CommandRegistrar } from '../program';
import { canonicalTimeZone, timeZoneProblem, type AuditRowVerification } from '../../contract';

interface AuditFilterOptions {
  readonly operator?: string;
  readonly action?: string;
  readonly request?: string;
  readonly from?: string;
  readonly to?: string;
  readonly search?: string;
}

function addAuditFilters(command: Command): Command {
  return command
    .option('--operator <name>', 'only rows this operator signed')
    .option('--action <domain/verb>', 'only rows of this action, e.g. withdrawals/approve')
    .option('--request <id|fingerprint>', 'only rows about this withdrawal request (its number or its fingerprint ABCD-EFGH-IJKL-MNOP)')
    .option('--from <iso>', 'rows at or after this date or time (without an offset, in the reporting time zone)')
    .option('--to <iso>', 'rows before this date or time (without an offset, in the reporting time zone)')
    .option('--search <text>', "text the row's sentence or details contain (any case)");
}

/** The filters as a request; typed times are checked at once (exit 2 before any desk opens), read in `timeZone` later. */
function auditFilters(options: AuditFilterOptions): (timeZone: string) => Record<string, string | number> {
  const from: TypedTime | undefined = options.from === undefined ? undefined : parseIsoTime(options.from, '--from');
  const to: TypedTime | undefined = options.to === undefined ? undefined : parseIsoTime(options.to, '--to');
  return (timeZone) => ({
    ...(options.operator !== undefined ? { operator: options.operator } : {}),
    ...(options.action !== undefined ? { action: options.action } : {}),
    ...(options.request !== undefined ? { request: options.request } : {}),
    ...(options.search !== undefined ? { search: options.search } : {}),
    ...(from !== undefined ? { from: typedTimeToMs(from, timeZone) } : {}),
    ...(to !== undefined ? { to: typedTimeToMs(to, timeZone) } : {}),
  });
}

const FILTER_LABELS = { operator: '--operator', action: '--action', request: '--request', from: '--from', to: '--to', search: '--search' } as const;

/** A row's standing as a word with a mark, never a colour alone. */
function standing(verification: AuditRowVerification): string {
  switch (verification.status) {
    case 'verified':
      return '✓ verified';
    case 'failed':
      return '✗ FAILED';
    case 'unchecked':
      return '? unchecked';
    default: {
      const unreachable: never = verification;
      return unreachable;
    }
  }
}

export const registerAuditCommands: CommandRegistrar = (program, io) => {
  const audit = program.command('audit').description('The append-only, signed and hash-chained audit log');

  addEngineOptions(
    addAuditFilters(audit.command('list').description('The audit log as sentences, newest first, each with whether its signature and chain link verify'))
      .option('--limit <n>', 'rows per page (1 to 1000)', wholeNumber(1, 1000), 50)
      .option('--cursor <cursor>', 'continue after a previous page (its next cursor)'),
  ).action(async (options: AuditFilterOptions & { readonly limit: number; readonly cursor?: string }, command: Command) => {
    const filtersIn = auditFilters(options);
    await withSession(command, io, async (session) => {
      const request = { ...filtersIn(session.timeZone), limit: options.limit, ...(options.cursor !== undefined ? { cursor: options.cursor } : {}) };
      const page = await session.run('audit/list', request, FILTER_LABELS);
      session.output(page, () => {
        if (page.rows.length === 0) return session.say('no audit rows match');
        io.stdout(table(['#', `when (${session.timeZone})`, 'verifies', 'what happened'], page.rows.map((row) => [String(row.seq), session.time(row.at), standing(row.verification), row.sentence]), ['right']));
        for (const row of page.rows) if (row.verification.status !== 'verified') session.say(`row ${row.seq} ${row.verification.status}: ${row.verification.reason}`);
        if (page.nextCursor !== null) io.stderr(`more rows: add --cursor ${page.nextCursor}\n`);
      });
    });
  });

  addEngineOptions(
    audit
      .command('verify')
      .description("Check every row's signature and the hash chain; exit 1 and name the first row that does not hold")
      .option('--against <file>', 'also require the row of this checkpoint file ("audit checkpoint") to be there with the same hash'),
  ).action(async (options: { readonly against?: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const against = options.against === undefined ? undefined : resolve(options.against);
      const verification = await session.run('audit/verify', against === undefined ? {} : { against }, { against: '--against' });
      if (session.json) session.output(verification, () => undefined);
      if (!verification.ok) {
        throw new NegativeAnswer(`the audit chain is broken: first bad row ${verification.firstBadSeq}: ${verification.reason} (${plural(verification.rows, 'row')} checked)`, { code: 'unverified' });
      }
      session.say(`the audit chain is intact: ${plural(verification.rows, 'row')} verified`);
      session.say(verification.head === null ? 'head: the log is empty' : `head: row ${verification.head.seq}, fingerprint ${verification.head.fingerprint}`);
      if (verification.legacyRows > 0) session.say(`legacy rows: ${verification.legacyRows} unsigned rows from before signed approvals, sealed into the chain by its first row`);
      session.say(
        verification.anchored
          ? "anchored: this workstation's keychain holds the last head it saw, and the chain still contains it"
          : "not anchored: this workstation's keychain holds no anchor of the head yet (keep checkpoints elsewhere)",
      );
      if (against !== undefined) session.say(`checkpoint: matched ${against}`);
    });
  });

  addEngineOptions(
    audit
      .command('anchor')
      .description("Move this desk's key and audit anchor between the OS keychain and the file beside its database (an admin signs the move; never automatic)")
      .requiredOption('--move-to <store>', 'keychain or file')
      .requiredOption('--as <admin>', 'the admin deciding (asked for a passphrase)'),
  ).action(async (options: { readonly moveTo: string; readonly as: string }, command: Command) => {
    if (options.moveTo !== 'keychain' && options.moveTo !== 'file') throw new UsageError(`--move-to takes keychain or file (got ${JSON.stringify(options.moveTo)}).`);
    const to = options.moveTo;
    await withSession(command, io, async (session) => {
      const moved = await session.runAs('audit/moveAnchor', { to }, options.as, { to: '--move-to' });
      const where = (store: string): string => (store === 'file' ? 'the file beside the database' : 'the OS keychain');
      session.output(moved, () => session.say(`the desk key and audit anchor moved from ${where(moved.from)} to ${where(moved.to)} (signed in the audit log)`));
    });
  });

  addEngineOptions(audit.command('head').description("The audit log's head: its row number and fingerprint")).action(async (_options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const { head } = await session.run('audit/head', {});
      session.output({ head }, () => session.say(head === null ? 'the audit log is empty' : `head: row ${head.seq}, fingerprint ${head.fingerprint}`));
    });
  });

  addEngineOptions(
    audit
      .command('checkpoint')
      .description('Write a checkpoint of the head (signed by the desk key) for the team to keep away from this workstation')
      .requiredOption('--out <file>', 'the checkpoint file to write (replaced whole)'),
  ).action(async (options: { readonly out: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const written = await session.run('audit/checkpoint', { path: resolve(options.out) }, { path: '--out' });
      session.output(written, () => {
        session.say(`wrote a checkpoint of row ${written.seq}, fingerprint ${written.fingerprint}, to ${written.path}`);
        session.say(`keep it away from this workstation; check the log against it with "treasury-desk audit verify --against FILE"`);
      });
    });
  });

  addEngineOptions(
    addAuditFilters(
      audit
        .command('export')
        .description('Write the audit rows the filters select (every row without one) as JSON lines, with statement, signature and hash, or as CSV sentences')
        .argument('<file>', 'the file to write (replaced whole)')
        .option('--format <format>', 'jsonl or csv (default: csv for a .csv file, else jsonl)'),
    ),
  ).action(async (file: string, options: AuditFilterOptions & { readonly format?: string }, command: Command) => {
    const wanted = options.format ?? (file.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl');
    if (wanted !== 'csv' && wanted !== 'jsonl') throw new UsageError(`--format takes jsonl or csv (got ${JSON.stringify(wanted)}).`);
    const filtersIn = auditFilters(options);
    await withSession(command, io, async (session) => {
      const written = await session.run('audit/export', { ...filtersIn(session.timeZone), path: resolve(file), format: wanted }, { ...FILTER_LABELS, path: 'FILE', format: '--format' });
      session.output(written, () => session.say(`wrote ${written.rows} audit row${written.rows === 1 ? '' : 's'} to ${written.path}`));
    });
  });

  addEngineOptions(
    audit
      .command('pack')
      .description("Write a period's offline auditor pack: the statement, the audit chain it rests on, the keys in force and a signed checkpoint (check it with tools/verify-auditor-pack.mjs)")
      .option('--period <YYYY-MM>', 'a calendar month (in --tz)')
      .option('--from <iso>', 'the period starts at this date or time (without an offset, in --tz)')
      .option('--to <iso>', 'the period ends before this date or time (without an offset, in --tz)')
      .option('--tz <zone>', 'the IANA time zone for the period (default: the reporting time zone)')
      .requiredOption('--out <file>', 'the pack file to write (JSON, replaced whole)'),
  ).action(async (options: { readonly period?: string; readonly from?: string; readonly to?: string; readonly tz?: string; readonly out: string }, command: Command) => {
    let typed: { readonly from: TypedTime; readonly to: TypedTime };
    if (options.period !== undefined) {
      if (options.from !== undefined || options.to !== undefined) throw new UsageError('give --period, or --from and --to, not both.');
      typed = parseMonth(options.period, '--period');
    } else {
      if (options.from === undefined || options.to === undefined) throw new UsageError('give the period: --period YYYY-MM (a calendar month), or --from and --to.');
      typed = { from: parseIsoTime(options.from, '--from'), to: parseIsoTime(options.to, '--to') };
    }
    if (options.tz !== undefined) {
      const problem = timeZoneProblem(options.tz);
      if (problem !== null) throw new UsageError(`--tz: ${problem}.`);
    }
    const out = resolve(options.out);
    await withSession(command, io, async (session) => {
      const timeZone = options.tz === undefined ? session.timeZone : (canonicalTimeZone(options.tz) ?? options.tz);
      const period = { from: typedTimeToMs(typed.from, timeZone), to: typedTimeToMs(typed.to, timeZone), timeZone };
      const written = await session.run('audit/pack', { ...period, path: out }, { from: '--from or --period', to: '--to or --period', timeZone: '--tz', path: '--out' });
      session.output(written, () => {
        session.say(`wrote the auditor pack of ${written.rows} audit row${written.rows === 1 ? '' : 's'} (head ${written.auditHead.seq}, fingerprint ${written.auditHead.fingerprint}) to ${written.path}`);
        session.say('check it with: node tools/verify-auditor-pack.mjs FILE');
      });
    });
  });
};
