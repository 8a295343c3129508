// `treasury-desk sending status | freeze | unfreeze`: the emergency freeze of the profile's sending (issue 20). One admin
// freezes at once, saying why; lifting it is proposed by one admin and confirmed by another (`operator confirm`), or,
// under a time-locked lift, one admin's lift ends the freeze after the lock: the status says when and who scheduled it,
// and counts the other loosening changes waiting that affect sending (governance show lists them).
import type { Command } from 'commander';
import { type GovernanceView, type ScheduledChangeView, type SendingStateView, utcMinuteText } from '../../contract';
import { addEngineOptions, type EngineSession, withSession } from '../engine-session';
import type { CommandRegistrar } from '../program';
import { shortProposal, waitingFor } from '../proposals';

/** The kinds of scheduled loosening change that change what may be sent (the lift of the freeze itself is said apart). */
const AFFECTS_SENDING: ReadonlySet<ScheduledChangeView['kind']> = new Set(['policy', 'book', 'group']);

/** Who scheduled the lift: "alice scheduled its lift" (under a time lock) or "... (confirmed by frank)". */
function liftedBy(liftBy: { proposer: string; confirmedBy: string | null } | null): string {
  if (liftBy === null) return 'its lift is scheduled';
  return `${liftBy.proposer} scheduled its lift${liftBy.confirmedBy === null ? '' : ` (confirmed by ${liftBy.confirmedBy})`}`;
}

function describe(state: SendingStateView, governance: GovernanceView, session: EngineSession): void {
  if (state.frozen === null) session.say('sending is not frozen');
  else session.say(`sending is FROZEN by ${state.frozen.by} since ${utcMinuteText(state.frozen.since)}: ${state.frozen.reason}`);
  if (state.frozen !== null && state.frozen.liftAt !== null) {
    session.say(`the freeze ends ${utcMinuteText(state.frozen.liftAt)}: ${liftedBy(state.frozen.liftBy)}; any admin may veto the lift before then ("treasury-desk governance show" lists it)`);
  }
  if (state.lift !== null) {
    session.say(`a lift of the freeze (proposal ${shortProposal(state.lift.id)}) waits for ${waitingFor(state.lift)}`);
    session.say(`confirm it with "treasury-desk operator confirm ${shortProposal(state.lift.id)} --as ADMIN"`);
  } else if (state.frozen !== null && state.frozen.liftAt === null) {
    session.say(
      governance.freezeLift === 'time-lock'
        ? `to lift it: "treasury-desk sending unfreeze --as ADMIN"; sending resumes ${governance.freezeLockHours} h later unless an admin vetoes it`
        : 'to lift it: "treasury-desk sending unfreeze --as ADMIN", then another admin confirms',
    );
  }
  const others = governance.pending.filter((change) => AFFECTS_SENDING.has(change.kind)).length;
  if (others > 0) {
    session.say(`${others} other loosening change${others === 1 ? '' : 's'} that affect${others === 1 ? 's' : ''} sending wait${others === 1 ? 's' : ''} for the delay: "treasury-desk governance show" lists ${others === 1 ? 'it' : 'them'}`);
  }
}

/** The sending state, with the governance it is read under (how a freeze is lifted, and the loosening changes waiting). */
async function show(session: EngineSession, state: SendingStateView): Promise<void> {
  const governance = await session.run('governance/state', {});
  session.output(state, () => describe(state, governance, session));
}

export const registerSendingCommands: CommandRegistrar = (program, io) => {
  const sending = program.command('sending').description('Freeze all sending at once, or lift a freeze (two admins)');

  addEngineOptions(sending.command('status').description('Whether sending is frozen, by whom and why')).action(async (_options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const state = await session.run('sending/state', {});
      await show(session, state);
    });
  });

  addEngineOptions(
    sending
      .command('freeze')
      .description('Stop all sending of this profile at once (requests and approvals go on); an admin, signed')
      .requiredOption('--reason <text>', 'why, for the other operators and the audit log')
      .requiredOption('--as <admin>', 'the admin doing it (asked for a passphrase)'),
  ).action(async (options: { reason: string; as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const state = await session.runAs('sending/freeze', { reason: options.reason }, options.as, { reason: '--reason' });
      await show(session, state);
    });
  });

  addEngineOptions(
    sending
      .command('unfreeze')
      .description('Propose lifting the freeze; it takes effect when another, independent admin confirms it')
      .requiredOption('--as <admin>', 'the admin proposing it (asked for a passphrase)'),
  ).action(async (options: { as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const state = await session.runAs('sending/unfreeze', {}, options.as);
      await show(session, state);
    });
  });
};
