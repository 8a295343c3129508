// `treasury-desk radar list | clear`: the poisoning radar (issue 21 item 3). `list` shows each deposit sender that looks
// like an address-book entry, the evidence and where its clearance stands; `clear` proposes clearing one (an admin) or
// confirms another admin's proposal, after which the address may be paid (`operator confirm` confirms it too).
import type { Command } from 'commander';
import { type PoisoningAlertView, type PoisoningStatus, utcMinuteText } from '../../contract';
import { addEngineOptions, type EngineSession, withSession } from '../engine-session';
import { table } from '../format';
import type { CommandRegistrar } from '../program';
import { shortProposal, waitingFor } from '../proposals';

const STATUS_WORDS: Readonly<Record<PoisoningStatus, string>> = {
  blocked: 'REFUSED',
  clearing: 'clearing',
  clearScheduled: 'cleared from',
  cleared: 'cleared',
};

function status(alert: PoisoningAlertView): string {
  if (alert.status === 'clearScheduled' && alert.clearedFrom !== null) return `${STATUS_WORDS.clearScheduled} ${utcMinuteText(alert.clearedFrom)}`;
  return STATUS_WORDS[alert.status];
}

/** What a clearance waits for, or who cleared it. */
function clearanceLine(alert: PoisoningAlertView, session: EngineSession): void {
  if (alert.clearing !== null) {
    session.say(`clearing ${alert.sender} (proposal ${shortProposal(alert.clearing.id)} by ${alert.clearing.proposer}) waits for ${waitingFor(alert.clearing)}`);
    session.say(`confirm it with "treasury-desk radar clear ${alert.sender} --as ADMIN"`);
  } else if (alert.status === 'blocked') {
    session.say(`${alert.sender} looks like ${alert.looksLike} (${alert.similarity}) and is refused; an admin clears it with "treasury-desk radar clear ${alert.sender} --as ADMIN" and another admin confirms`);
  } else {
    session.say(`${alert.sender} is ${status(alert)} by ${alert.clearedBy.join(' and ')}`);
  }
}

export const registerRadarCommands: CommandRegistrar = (program, io) => {
  const radar = program.command('radar').description('The poisoning radar: deposit senders that look like an address-book entry');

  addEngineOptions(radar.command('list').description('Each flagged sender, the book entry it looks like, its first deposit and its status')).action(
    async (_options: unknown, command: Command) => {
      await withSession(command, io, async (session) => {
        const view = await session.run('radar/list', {});
        session.output(view, () => {
          if (view.alerts.length === 0) return session.say('no deposit came from a look-alike of an address-book entry');
          io.stdout(
            table(
              ['sender', 'looks like', 'how', 'first deposit', 'txid', 'deposits', 'status'],
              view.alerts.map((alert) => [
                alert.sender,
                alert.looksLike,
                alert.similarity,
                `${alert.firstDeposit.amount} ${alert.firstDeposit.currency} ${session.time(alert.firstDeposit.at)}`,
                alert.firstDeposit.txid,
                String(alert.deposits),
                status(alert),
              ]),
            ),
          );
          session.say(`${view.blocked} of ${view.alerts.length} refused at preflight, request and send until two admins clear them`);
          for (const alert of view.alerts) if (alert.clearing !== null) clearanceLine(alert, session);
        });
      });
    },
  );

  addEngineOptions(
    radar
      .command('clear')
      .description('Propose clearing a flagged address (an admin), or confirm another admin\'s proposal: then it may be paid')
      .argument('<address>', 'the flagged address, as "radar list" shows it')
      .requiredOption('--as <admin>', 'the admin proposing or confirming (asked for a passphrase)'),
  ).action(async (address: string, options: { as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const alert = await session.runAs('radar/clear', { address }, options.as, { address: 'ADDRESS' });
      session.output(alert, () => clearanceLine(alert, session));
    });
  });
};
