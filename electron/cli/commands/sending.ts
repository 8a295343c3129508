// `treasury-desk sending status | freeze | unfreeze`: the emergency freeze of the profile's sending (issue 20). One admin
// freezes at once, saying why; lifting it is proposed by one admin and confirmed by another (`operator confirm`).
import type { Command } from 'commander';
import { type SendingStateView, utcMinuteText } from '../../contract';
import { addEngineOptions, type EngineSession, withSession } from '../engine-session';
import type { CommandRegistrar } from '../program';
import { shortProposal, waitingFor } from '../proposals';

function describe(state: SendingStateView, session: EngineSession): void {
  if (state.frozen === null) session.say('sending is not frozen');
  else session.say(`sending is FROZEN by ${state.frozen.by} since ${utcMinuteText(state.frozen.since)}: ${state.frozen.reason}`);
  if (state.frozen !== null && state.frozen.liftAt !== null) {
    session.say(`its lift takes effect ${utcMinuteText(state.frozen.liftAt)} unless an admin vetoes it ("treasury-desk governance show" lists it)`);
  }
  if (state.lift !== null) {
    session.say(`a lift of the freeze (proposal ${shortProposal(state.lift.id)}) waits for ${waitingFor(state.lift)}`);
    session.say(`confirm it with "treasury-desk operator confirm ${shortProposal(state.lift.id)} --as ADMIN"`);
  } else if (state.frozen !== null) session.say('to lift it: "treasury-desk sending unfreeze --as ADMIN", then another admin confirms');
}

export const registerSendingCommands: CommandRegistrar = (program, io) => {
  const sending = program.command('sending').description('Freeze all sending at once, or lift a freeze (two admins)');

  addEngineOptions(sending.command('status').description('Whether sending is frozen, by whom and why')).action(async (_options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const state = await session.run('sending/state', {});
      session.output(state, () => describe(state, session));
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
      session.output(state, () => describe(state, session));
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
      session.output(state, () => describe(state, session));
    });
  });
};
