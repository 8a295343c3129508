// `treasury-desk sync | balances | currencies`: fetch from the service into the desk's cache, then read the cache
// (balances and currencies work offline). Progress lines go to stderr when it is a terminal or with --progress.
import type { Command } from 'commander';
import type { SyncReport } from '../../contract';
import { addEngineOptions, withSession } from '../engine-session';
import { plural, table } from '../format';
import type { CommandRegistrar } from '../program';

function describeSync(report: SyncReport): string {
  return (
    `synced ${plural(report.currencies, 'currency', 'currencies')}, ${plural(report.balances, 'balance')}, ` +
    `${plural(report.depositsSeen, 'deposit')} seen (${report.depositsNew} new), ` +
    `${plural(report.withdrawalsChecked, 'withdrawal')} checked (${report.withdrawalsAdvanced} advanced)`
  );
}

export const registerSyncCommands: CommandRegistrar = (program, io) => {
  addEngineOptions(
    program
      .command('sync')
      .description('Fetch currencies, balances, new deposits and the status of unsettled withdrawals from the service')
      .option('--full', 'walk every deposit page, not only until a page of known deposits')
      .option('--progress', 'show progress lines on stderr even when it is not a terminal'),
  ).action(async (options: { readonly full?: boolean; readonly progress?: boolean }, command: Command) => {
    await withSession(command, io, async (session) => {
      const showProgress = options.progress === true || io.stderrIsTTY === true;
      let last = '';
      const unsubscribe = showProgress
        ? session.onEvent((event) => {
            if (event.type !== 'sync/progress' || event.progress === null || event.progress.message === last) return;
            last = event.progress.message;
            io.stderr(`${event.progress.message}\n`);
          })
        : () => undefined;
      try {
        const report = await session.run('sync/run', { full: options.full === true });
        session.output(report, () => session.say(describeSync(report)));
      } finally {
        unsubscribe();
      }
    });
  });

  addEngineOptions(program.command('balances').description('Show the cached balances (run sync to refresh them)')).action(
    async (_options: unknown, command: Command) => {
      await withSession(command, io, async (session) => {
        const balances = await session.run('balances/list', {});
        session.output(balances, () => {
          if (balances.length === 0) return session.say('no balances cached yet: run "treasury-desk sync"');
          session.io.stdout(
            table(
              ['currency', 'name', 'available', 'frozen', `observed (${session.timeZone})`],
              balances.map((balance) => [balance.currency, balance.displayName, balance.available, balance.frozen, session.time(balance.observedAt)]),
              ['left', 'left', 'right', 'right', 'left'],
            ),
          );
        });
      });
    },
  );

  addEngineOptions(program.command('currencies').description('Show the cached currency list: decimals, minimums and withdrawal fees')).action(
    async (_options: unknown, command: Command) => {
      await withSession(command, io, async (session) => {
        const currencies = await session.run('currencies/list', {});
        session.output(currencies, () => {
          if (currencies.length === 0) return session.say('no currencies cached yet: run "treasury-desk sync"');
          session.io.stdout(
            table(
              ['symbol', 'name', 'decimals', 'withdraw min', 'fixed fee', 'percent fee', 'min fee', 'max fee', 'deposit min'],
              currencies.map((currency) => [
                currency.symbol,
                currency.displayName,
                String(currency.decimals),
                currency.withdrawMin,
                currency.withdrawFixedFee,
                currency.withdrawPercentFee,
                currency.withdrawMinFee,
                currency.withdrawMaxFee,
                currency.depositMin,
              ]),
              ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
            ),
          );
        });
      });
    },
  );
};
