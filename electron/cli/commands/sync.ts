// `treasury-desk sync | balances | currencies | merchant`: fetch from the service into the desk's cache, then read the
// cache (balances, currencies and the merchant account work offline). Progress lines go to stderr when it is a
// terminal or with --progress. Currencies the service added after this desk was built are listed with a note: the desk
// has no address rules for them, so withdrawals in them are refused.
import type { Command } from 'commander';
import type { MoreFields, SyncReport } from '../../contract';
import { addEngineOptions, withSession, type EngineSession } from '../engine-session';
import { fields, orDash, plural, recordLines, table } from '../format';
import type { CommandRegistrar } from '../program';

/** Notes under a table: each currency without address rules once, then every unknown field by currency. */
function sayNotes(session: EngineSession, rows: readonly { readonly symbol: string; readonly note: string | null; readonly moreFields: MoreFields }[]): void {
  for (const row of rows) if (row.note !== null) session.say(`note: ${row.symbol}: ${row.note}`);
  for (const row of rows) {
    if (Object.keys(row.moreFields).length === 0) continue;
    session.say(`more fields of ${row.symbol} (sent by the service, not in the spec):`);
    session.io.stdout(recordLines(row.moreFields));
  }
}

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
              balances.map((balance) => [
                balance.addressRules ? balance.currency : `${balance.currency} (new)`,
                balance.displayName,
                balance.available,
                balance.frozen,
                session.time(balance.observedAt),
              ]),
              ['left', 'left', 'right', 'right', 'left'],
            ),
          );
          sayNotes(session, balances.map((balance) => ({ symbol: balance.currency, note: balance.note, moreFields: balance.moreFields })));
        });
      });
    },
  );

  addEngineOptions(
    program.command('currencies').description('Show the cached currency list: decimals, minimums, deposit and withdrawal fees (percent fees in percent; a max fee of 0 is no cap)'),
  ).action(async (_options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const currencies = await session.run('currencies/list', {});
      session.output(currencies, () => {
        if (currencies.length === 0) return session.say('no currencies cached yet: run "treasury-desk sync"');
        session.io.stdout(
          table(
            ['symbol', 'name', 'decimals', 'deposit min', 'deposit fee (fixed + %, min..max)', 'withdraw min', 'withdraw fee (fixed + %, min..max)'],
            currencies.map((currency) => [
              currency.addressRules ? currency.symbol : `${currency.symbol} (new)`,
              currency.displayName,
              currency.decimals === null ? 'unknown' : String(currency.decimals),
              currency.depositMin,
              `${currency.depositFixedFee} + ${currency.depositPercentFee}%, ${currency.depositMinFee}..${currency.depositMaxFee}`,
              currency.withdrawMin,
              `${currency.withdrawFixedFee} + ${currency.withdrawPercentFee}%, ${currency.withdrawMinFee}..${currency.withdrawMaxFee}`,
            ]),
            ['left', 'left', 'right', 'right', 'left', 'right', 'left'],
          ),
        );
        sayNotes(session, currencies);
      });
    });
  });

  addEngineOptions(
    program.command('merchant').description('Show the merchant account as merchantInfo last answered (run sync or selfcheck to refresh it): name, API version, allowed withdrawal types, auditor messenger'),
  ).action(async (_options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const { merchant } = await session.run('merchant/info', {});
      session.output({ merchant }, () => {
        if (merchant === null) return session.say('merchantInfo has not answered for this profile yet: run "treasury-desk sync" or "treasury-desk selfcheck"');
        session.io.stdout(
          fields([
            ['merchant', `${merchant.merchantName} (${merchant.merchantId})`],
            ['API version', merchant.apiVersion === null ? '-' : String(merchant.apiVersion)],
            ['withdrawal types', orDash(merchant.withdrawTypes.join(', '))],
            ['auditor messenger', merchant.auditorMessengerBound === null ? 'not reported' : merchant.auditorMessengerBound ? 'bound' : 'not bound: financialConfirmation withdrawals are refused'],
            ['reported', session.time(merchant.fetchedAt)],
          ]),
        );
        if (Object.keys(merchant.moreFields).length > 0) {
          session.say('more fields (sent by the service, not in the spec):');
          session.io.stdout(recordLines(merchant.moreFields));
        }
      });
    });
  });
};
