// `treasury-desk deposits list | export`: the cached deposit history, filtered by currency (one the service added
// later included), text (txid, address, apiOrder, userOrder fragments) and time, with any fields a record carries
// beyond the spec listed after the table; export writes every matching row as CSV.
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { parseIsoTime, typedTimeToMs, wholeNumber, type TypedTime } from '../args';
import { addEngineOptions, withSession } from '../engine-session';
import { recordLines, table } from '../format';
import type { CommandRegistrar } from '../program';

interface FilterOptions {
  readonly currency?: string;
  readonly search?: string;
  readonly from?: string;
  readonly to?: string;
}

function addFilters(command: Command): Command {
  return command
    .option('--currency <symbol>', 'only this currency, e.g. trx.usdt')
    .option('--search <text>', 'a fragment of the txid, address, apiOrder or userOrder')
    .option('--from <iso>', 'first seen at or after this date or time (e.g. 2024-05-01; without an offset, in the reporting time zone)')
    .option('--to <iso>', 'first seen before this date or time (without an offset, in the reporting time zone)');
}

/** The filters as a request; typed times are checked at once (exit 2 before any desk opens), read in `timeZone` later. */
function filters(options: FilterOptions): (timeZone: string) => { currency?: string; search?: string; from?: number; to?: number } {
  const from: TypedTime | undefined = options.from === undefined ? undefined : parseIsoTime(options.from, '--from');
  const to: TypedTime | undefined = options.to === undefined ? undefined : parseIsoTime(options.to, '--to');
  return (timeZone) => ({
    ...(options.currency !== undefined ? { currency: options.currency } : {}),
    ...(options.search !== undefined ? { search: options.search } : {}),
    ...(from !== undefined ? { from: typedTimeToMs(from, timeZone) } : {}),
    ...(to !== undefined ? { to: typedTimeToMs(to, timeZone) } : {}),
  });
}

const LABELS = { path: '--csv' } as const;

export const registerDepositCommands: CommandRegistrar = (program, io) => {
  const deposits = program.command('deposits').description('The cached deposit history (run sync to fetch new deposits)');

  addEngineOptions(
    addFilters(deposits.command('list').description('List deposits, newest first'))
      .option('--limit <n>', 'rows per page (1 to 1000)', wholeNumber(1, 1000), 50)
      .option('--cursor <cursor>', 'continue after a previous page (its next cursor)'),
  ).action(async (options: FilterOptions & { readonly limit: number; readonly cursor?: string }, command: Command) => {
    const filtersIn = filters(options);
    await withSession(command, io, async (session) => {
      const request = { ...filtersIn(session.timeZone), limit: options.limit, ...(options.cursor !== undefined ? { cursor: options.cursor } : {}) };
      const page = await session.run('deposits/list', request, LABELS);
      session.output(page, () => {
        if (page.rows.length === 0) return session.say('no deposits match');
        io.stdout(
          table(
            [`first seen (${session.timeZone})`, 'currency', 'amount', 'fee', 'address', 'txid', 'userOrder', 'source'],
            page.rows.map((deposit) => [
              session.time(deposit.firstSeenAt),
              deposit.currency,
              deposit.amount,
              deposit.fee,
              deposit.address,
              deposit.txid,
              deposit.userOrder,
              deposit.source,
            ]),
            ['left', 'left', 'right', 'right'],
          ),
        );
        for (const deposit of page.rows) {
          if (deposit.poisoning !== null && !deposit.poisoning.cleared) {
            session.say(`LIKELY POISONING: deposit ${deposit.apiOrder} came from ${deposit.fromAddress}, which looks like ${deposit.poisoning.looksLike} (${deposit.poisoning.similarity}): never copy it ("treasury-desk radar list")`);
          }
          if (Object.keys(deposit.moreFields).length === 0) continue;
          session.say(`more fields of deposit ${deposit.apiOrder} (sent by the service, not in the spec):`);
          io.stdout(recordLines(deposit.moreFields));
        }
        if (page.nextCursor !== null) io.stderr(`more deposits: add --cursor ${page.nextCursor}\n`);
      });
    });
  });

  addEngineOptions(
    addFilters(deposits.command('export').description('Write every matching deposit to a CSV file (times in the reporting time zone with their offset, amounts exactly as stored)')).requiredOption(
      '--csv <file>',
      'the CSV file to write (replaced whole)',
    ),
  ).action(async (options: FilterOptions & { readonly csv: string }, command: Command) => {
    const filtersIn = filters(options);
    await withSession(command, io, async (session) => {
      const request = { ...filtersIn(session.timeZone), path: resolve(options.csv) };
      const written = await session.run('deposits/exportCsv', request, LABELS);
      session.output(written, () => session.say(`wrote ${written.rows} deposit${written.rows === 1 ? '' : 's'} to ${written.path}`));
    });
  });
};
