// `treasury-desk governance show | set | veto`: the desk's time-locked loosening (issue 20, part 4): the loosening delay, how a freeze is lifted, the loosening changes waiting with the time each takes effect, and any admin's veto of one of them before then.
import { type Command, Option } from 'commander';
import { type GovernanceView, utcMinuteText } from '../../contract';
import { wholeNumber } from '../args';
import { addEngineOptions, type EngineSession, withSession } from '../engine-session';
import type { CommandRegistrar } from '../program';
import { shortProposal, waitingFor } from '../proposals';

const hours = wholeNumber(0, 720);

function describe(state: GovernanceView, session: EngineSession): void {
  session.say(`loosening delay: ${state.looseningDelayHours === 0 ? 'none (a loosening change takes effect at once)' : `${state.looseningDelayHours} h`}`);
  session.say(state.freezeLift === 'four-eyes' ? 'freeze lift: two admins (sending unfreeze, then operator confirm)' : `freeze lift: one admin's unfreeze, after a ${state.freezeLockHours} h time lock`);
  if (state.proposal !== null) session.say(`a governance change (proposal ${shortProposal(state.proposal.id)}) waits for ${waitingFor(state.proposal)}`);
  if (state.pending.length === 0) {
    session.say('no loosening change is waiting');
    return;
  }
  session.say('pending changes (any admin may veto one before it takes effect: "treasury-desk governance veto ID --as ADMIN"):');
  for (const change of state.pending) {
    session.say(`  ${shortProposal(change.id)}  ${change.kind} ${change.subject} by ${change.proposer}${change.confirmedBy === null ? '' : ` and ${change.confirmedBy}`}: ${change.loosens.join('; ')}; takes effect ${utcMinuteText(change.effectiveAt)}`);
  }
}

export const registerGovernanceCommands: CommandRegistrar = (program, io) => {
  const governance = program.command('governance').description('The loosening delay, how a freeze is lifted, and vetoes of loosening changes waiting');

  addEngineOptions(governance.command('show').description('The governance in force and the loosening changes waiting, with when each takes effect')).action(async (_options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const state = await session.run('governance/state', {});
      session.output(state, () => describe(state, session));
    });
  });

  addEngineOptions(
    governance
      .command('set')
      .description('Propose the governance (a second admin confirms); a shorter delay or a one-admin lift is itself a loosening and waits')
      .requiredOption('--delay <hours>', 'hours a loosening change waits before it takes effect (0 to 720)', hours)
      .addOption(new Option('--freeze-lift <rule>', 'who lifts a freeze: two admins, or one after the lock').choices(['four-eyes', 'time-lock']).default('four-eyes'))
      .option('--lock <hours>', 'with --freeze-lift time-lock: hours before one admin\'s lift takes effect (1 to 720)', hours, 0)
      .requiredOption('--as <admin>', 'the admin proposing it (asked for a passphrase)'),
  ).action(async (options: { delay: number; freezeLift: 'four-eyes' | 'time-lock'; lock: number; as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const state = await session.runAs('governance/set', { looseningDelayHours: options.delay, freezeLift: options.freezeLift, freezeLockHours: options.lock }, options.as, {
        looseningDelayHours: '--delay',
        freezeLockHours: '--lock',
      });
      session.output(state, () => describe(state, session));
    });
  });

  addEngineOptions(
    governance
      .command('veto')
      .description('Cancel a loosening change before it takes effect; any one admin, signed')
      .argument('<id>', 'the change, as "governance show" lists it (a unique prefix of at least 8)')
      .option('--reason <text>', 'why, for the other admins and the audit log')
      .requiredOption('--as <admin>', 'the admin vetoing it (asked for a passphrase)'),
  ).action(async (id: string, options: { reason?: string; as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const state = await session.runAs('governance/veto', { change: id, ...(options.reason === undefined ? {} : { reason: options.reason }) }, options.as, { change: 'ID', reason: '--reason' });
      session.output(state, () => describe(state, session));
    });
  });
};
