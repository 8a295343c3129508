// `treasury-desk sync | balances | currencies | merchant`: fetch from the service into the desk's cache, then read the
// cache (balances, currencies and the merchant account work offline). `sync` says whether the deposit history is
// complete; `sync --verify` compares the service's whole deposit list with the desk's and exits 1 on any difference.
// Progress lines go to stderr when it is a terminal or with --progress. Currencies the service added after this desk
// was built are listed with a note: the desk has no address rules for them, so withdrawals in them are refused.
import type { Command } from 'commander';
import { escapeSingleLine, type DepositHistoryView, type DepositRef, type DepositVerification, type MoreFields, type SyncReport } from '../../contract';
import { addEngineOptions, withSession, type EngineSession } from '../engine-session';
import { NegativeAnswer, UsageError } from '../errors';
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

/** One line on the deposit history's completeness; `time` writes an instant in the desk's reporting time zone. */
export function describeHistory(history: DepositHistoryView, time: (ms: number | null) => string): string {
  if (history.complete) return `deposit history complete (${plural(history.depositsHeld, 'deposit')} held, as of ${time(history.completeAt)})`;
  const walk = history.walk;
  if (walk === null) return `deposit history not yet complete (${plural(history.depositsHeld, 'deposit')} held): the next sync walks the service's whole list`;
  return (
    `deposit history incomplete: ${walk.full ? 'a full walk' : 'the walk'} started ${time(walk.startedAt)} read ${plural(walk.pagesWalked, 'page')} ` +
    `(${plural(walk.recordsWalked, 'deposit')}) and resumes at page ${walk.nextPage} on the next sync; the service does not say how many pages remain`
  );
}

function printRefs(session: EngineSession, title: string, refs: readonly DepositRef[], extra?: (ref: DepositRef) => string): void {
  session.say(`${title}: ${refs.length}`);
  if (refs.length === 0) return;
  session.io.stdout(
    table(
      ['apiOrder', 'txid', 'currency', 'amount', ...(extra ? ['detail'] : [])],
      refs.map((ref) => [ref.apiOrder, ref.txid, ref.currency, ref.amount, ...(extra ? [extra(ref)] : [])]),
      ['left', 'left', 'left', 'right', 'left'],
    ),
  );
}

function printVerification(session: EngineSession, verification: DepositVerification): void {
  session.output(verification, () => {
    session.say(
      `checked ${plural(verification.listedByService, 'deposit')} the service lists (${plural(verification.pagesWalked, 'page')}) ` +
        `against ${plural(verification.heldLocally, 'deposit')} held here`,
    );
    printRefs(session, 'missing here (listed by the service, not held)', verification.missingLocally);
    printRefs(session, 'not listed by the service (held here)', verification.notListed, (ref) => `from ${ref.source ?? '-'}`);
    const differing = new Map(verification.differing.map((entry) => [entry.apiOrder, entry.fields]));
    printRefs(session, 'differing from the service (held as first seen)', verification.differing, (ref) => `fields: ${(differing.get(ref.apiOrder) ?? []).join(', ')}`);
    if (verification.completeMarkWithdrawn) session.say('the history is no longer marked complete: run "treasury-desk sync" to fetch what is missing');
    if (verification.ok) session.say('deposit history verified: the desk holds exactly what the service lists');
  });
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
      .option('--full', 'walk every deposit page once more, not only down to the part of the history already complete')
      .option('--verify', "walk the service's whole deposit list and report, exactly, deposits missing here or no longer listed there (exit 1 if any); stores nothing")
      .option('--progress', 'show progress lines on stderr even when it is not a terminal'),
  ).action(async (options: { readonly full?: boolean; readonly verify?: boolean; readonly progress?: boolean }, command: Command) => {
    if (options.full === true && options.verify === true) throw new UsageError('use --full or --verify, not both: --verify only compares, --full fetches');
    await withSession(command, io, async (session) => {
      const showProgress = options.progress === true || io.stderrIsTTY === true;
      let last = '';
      const unsubscribe = showProgress
        ? session.onEvent((event) => {
            if (event.type !== 'sync/progress' || event.progress === null || event.progress.message === last) return;
            last = event.progress.message;
            io.stderr(`${escapeSingleLine(event.progress.message)}\n`);
          })
        : () => undefined;
      try {
        if (options.verify === true) {
          const verification = await session.run('sync/verify', {});
          printVerification(session, verification);
          if (!verification.ok) {
            const counts = [
              `${verification.missingLocally.length} missing here`,
              `${verification.notListed.length} not listed by the service`,
              `${verification.differing.length} differing`,
            ];
            throw new NegativeAnswer(`the deposit history differs from the service's: ${counts.join(', ')}`);
          }
          return;
        }
        const report = await session.run('sync/run', { full: options.full === true });
        const status = await session.run('sync/status', {});
        session.output({ ...report, depositHistory: status.depositHistory }, () => {
          session.say(describeSync(report));
          session.say(describeHistory(status.depositHistory, (ms) => session.time(ms)));
        });
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
