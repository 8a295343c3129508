// `treasury-desk deposits list | export`: the cached deposit history, filtered by currency, text (txid, address,
// apiOrder, userOrder fragments) and time; export writes every matching row as CSV.
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { parseIsoTime, wholeNumber } from '../args';
import { addEngineOptions, withSession } from '../engine-session';
import { formatTime, table } from '../format';
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
    .option('--from <iso>', 'first seen at or after this UTC date or time (e.g. 2024-05-01)')
    .option('--to <iso>', 'first seen before this UTC date or time');
}

function filters(options: FilterOptions): { currency?: string; search?: string; from?: number; to?: number } {
  return {
    ...(options.currency !== undefined ? { currency: options.currency } : {}),
    ...(options.search !== undefined ? { search: options.search } : {}),
    ...(options.from !== undefined ? { from: parseIsoTime(options.from, '--from') } : {}),
    ...(options.to !== undefined ? { to: parseIsoTime(options.to, '--to') } : {}),
  };
}

const LABELS = { path: '--csv' } as const;

export const registerDepositCommands: CommandRegistrar = (program, io) => {
  const deposits = program.command('deposits').description('The cached deposit history (run sync to fetch new deposits)');

  addEngineOptions(
    addFilters(deposits.command('list').description('List deposits, newest first'))
      .option('--limit <n>', 'rows per page (1 to 1000)', wholeNumber(1, 1000), 50)
      .option('--cursor <cursor>', 'continue after a previous page (its next cursor)'),
  ).action(async (options: FilterOptions & { readonly limit: number; readonly cursor?: string }, command: Command) => {
    const request = { ...filters(options), limit: options.limit, ...(options.cursor !== undefined ? { cursor: options.cursor } : {}) };
    await withSession(command, io, async (session) => {
      const page = await session.run('deposits/list', request, LABELS);
      session.output(page, () => {
        if (page.rows.length === 0) return session.say('no deposits match');
        io.stdout(
          table(
            ['first seen (UTC)', 'currency', 'amount', 'fee', 'address', 'txid', 'userOrder', 'source'],
            page.rows.map((deposit) => [
              formatTime(deposit.firstSeenAt),
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
        if (page.nextCursor !== null) io.stderr(`more deposits: add --cursor ${page.nextCursor}\n`);
      });
    });
  });

  addEngineOptions(
    addFilters(deposits.command('export').description('Write every matching deposit to a CSV file (UTC times, amounts exactly as stored)')).requiredOption(
      '--csv <file>',
      'the CSV file to write (replaced whole)',
    ),
  ).action(async (options: FilterOptions & { readonly csv: string }, command: Command) => {
    const request = { ...filters(options), path: resolve(options.csv) };
    await withSession(command, io, async (session) => {
      const written = await session.run('deposits/exportCsv', request, LABELS);
      session.output(written, () => session.say(`wrote ${written.rows} deposit${written.rows === 1 ? '' : 's'} to ${written.path}`));
    });
  });
};
