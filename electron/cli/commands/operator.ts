// `treasury-desk operator ...`: the signed roster of the active profile (APPROVALS.md). `found` makes its first one or
// two admins; an admin `invite`s (or `rekey`s) an operator, who `accept`s at the desk with the one-time code and their
// own new passphrase; a second independent admin `confirm`s; `role`, `disable`, `withdraw-proposal`, `passphrase`,
// `list`. Passphrases and codes come from hidden prompts (new passphrases typed twice) or, without a terminal, from
// TREASURY_DESK_PASSPHRASE, TREASURY_DESK_NEW_PASSPHRASE(_2) and TREASURY_DESK_INVITATION_CODE; never from argv.
import type { Command } from 'commander';
import type { InvitationView, OperatorView, ProposalView, RosterView } from '../../contract';
import { collect } from '../args';
import { addEngineOptions, askInvitationCode, askNewPassphrase, askPassphrase, ENV, PLACEHOLDER, withSession, type EngineSession } from '../engine-session';
import { formatTime, table } from '../format';
import type { CommandRegistrar } from '../program';
import { PROPOSAL_PREFIX_MIN, resolveProposalId, shortProposal, waitingFor } from '../proposals';
import { registerGroupCommands } from './approval-groups';

/** How request fields are called on this command line. */
const LABELS = { name: 'NAME', role: 'ROLE', proposal: 'PROPOSAL_ID', admins: '--admin', code: 'the invitation code', operator: 'NAME', newPassphrase: 'the new passphrase' } as const;

function enrolledByText(operator: OperatorView): string {
  if (operator.founding) return 'founder';
  return operator.enrolledBy.length === 0 ? '-' : operator.enrolledBy.join(' + ');
}

function statusText(operator: OperatorView, now: number, timeZone: string): string {
  if (operator.lockedUntil !== null && operator.lockedUntil > now) return `${operator.status}, locked out until ${formatTime(operator.lockedUntil, timeZone)}`;
  return operator.status;
}

/** The roster for people: operators, then open proposals, then the notice (what the desk cannot do), said plainly. */
export function rosterText(roster: RosterView, timeZone: string, now: number = Date.now()): string {
  let text = '';
  if (roster.operators.length > 0) {
    text += table(
      ['name', 'role', 'status', 'key fingerprint', 'party', 'enrolled by'],
      roster.operators.map((operator) => [
        operator.name,
        operator.role,
        statusText(operator, now, timeZone),
        operator.keyFingerprint ?? '-',
        operator.party.length === 0 ? '-' : operator.party.join(', '),
        enrolledByText(operator),
      ]),
    );
  }
  if (roster.proposals.length > 0) {
    text += `${text === '' ? '' : '\n'}open proposals:\n`;
    text += table(
      ['id', 'summary', 'proposer', 'waiting for'],
      roster.proposals.map((proposal) => [shortProposal(proposal.id), proposal.summary, proposal.proposer, waitingFor(proposal)]),
    );
  }
  const devices = roster.operators.flatMap((operator) => operator.devices.map((device) => [operator.name, device.workstation, device.keyFingerprint, device.confirmedBy]));
  if (devices.length > 0) text += `${text === '' ? '' : '\n'}device keys (one per workstation):\n${table(['name', 'workstation', 'key fingerprint', 'confirmed by'], devices)}`;
  if (roster.pendingDevices.length > 0) {
    text += `${text === '' ? '' : '\n'}device keys waiting for a confirmation:\n`;
    text += table(
      ['id', 'name', 'workstation', 'key fingerprint'],
      roster.pendingDevices.map((device) => [shortProposal(device.id), device.operator, device.workstation, device.keyFingerprint]),
    );
  }
  if (roster.notice !== null) text += `${text === '' ? '' : '\n'}${roster.notice}\n`;
  return text;
}

function printInvitation(session: EngineSession, invitation: InvitationView, what: string): void {
  session.output(invitation, () => {
    session.say(`${what} for ${invitation.operator}: code ${invitation.code}`);
    session.say(invitation.message);
    session.say(`${invitation.operator} completes it at this desk with "treasury-desk operator accept ${invitation.operator}" (proposal ${shortProposal(invitation.proposal)}).`);
  });
}

/** Says whether a roster change is in force now or waits for a second admin (and how to confirm it). */
function printChange(session: EngineSession, roster: RosterView, applied: boolean, done: string, pending: ProposalView | undefined): void {
  session.output(roster, () => {
    if (applied || !pending) return session.say(done);
    session.say(`proposed: ${pending.summary} (proposal ${shortProposal(pending.id)})`);
    session.say(`it waits for ${waitingFor(pending)}: "treasury-desk operator confirm ${shortProposal(pending.id)} --as ADMIN"`);
  });
}

function findOperator(roster: RosterView, name: string): OperatorView | undefined {
  return roster.operators.find((operator) => operator.name.toLowerCase() === name.trim().toLowerCase());
}

function openProposalFor(roster: RosterView, kind: ProposalView['kind'], subject: string): ProposalView | undefined {
  return roster.proposals.filter((proposal) => proposal.kind === kind && proposal.subject.toLowerCase() === subject.trim().toLowerCase()).at(-1);
}

export const registerOperatorCommands: CommandRegistrar = (program, io) => {
  const operator = program.command('operator').description("The profile's operators: a signed roster of who may request, approve and administer");

  addEngineOptions(
    operator
      .command('found')
      .description("Found the active profile's desk with its first one or two admins, each typing their own new passphrase")
      .requiredOption('--admin <name>', 'a founding admin; give it twice for two independent admins (four-eyes from the start)', collect),
  ).action(async (options: { readonly admin: readonly string[] }, command: Command) => {
    await withSession(command, io, async (session) => {
      const names = options.admin;
      session.check('operators/found', { admins: names.map((name) => ({ operator: name, passphrase: PLACEHOLDER })) }, LABELS);
      const admins: { operator: string; passphrase: string }[] = [];
      for (const [index, name] of names.entries()) {
        admins.push({ operator: name, passphrase: await askNewPassphrase(io, name, index === 0 ? ENV.newPassphrase : ENV.newPassphrase2) });
      }
      const roster = await session.run('operators/found', { admins }, LABELS);
      session.output(roster, () => {
        const founders = roster.operators.filter((entry) => entry.founding);
        session.say(`founded the desk: ${founders.map((entry) => `${entry.name} (admin, key ${entry.keyFingerprint ?? '-'})`).join(', ')}`);
        if (roster.notice !== null) session.say(roster.notice);
        else if (roster.fourEyes) session.say('two independent admins: roster and policy changes by one wait for the other, and approvals can give four-eyes.');
      });
    });
  });

  addEngineOptions(
    operator
      .command('invite')
      .description('Invite an operator: prints a one-time code to hand over in person; they accept it at the desk with their own passphrase')
      .argument('<name>', "the new operator's name")
      .requiredOption('--role <role>', 'viewer, initiator, approver or admin')
      .requiredOption('--as <admin>', 'the admin inviting (asked for a passphrase)'),
  ).action(async (name: string, options: { readonly role: string; readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const invitation = await session.runAs('operators/invite', { name, role: options.role }, options.as, { ...LABELS, role: '--role' });
      printInvitation(session, invitation, 'invitation');
    });
  });

  addEngineOptions(
    operator
      .command('accept')
      .description('Complete an invitation (or a re-key) at this desk: the code the admin gave you, then your own new passphrase')
      .argument('<name>', 'your operator name, as invited'),
  ).action(async (name: string, _options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      session.check('operators/accept', { name, code: 'placeholder', passphrase: PLACEHOLDER }, LABELS);
      const code = await askInvitationCode(io, name);
      const passphrase = await askNewPassphrase(io, name);
      const accepted = await session.run('operators/accept', { name, code, passphrase }, LABELS);
      const roster = await session.run('operators/list', {});
      const pending = roster.proposals.find(
        (proposal) => (proposal.kind === 'enrol' || proposal.kind === 'rekey') && proposal.subject.toLowerCase() === accepted.name.toLowerCase() && proposal.acceptedKey !== null,
      );
      const keyFingerprint = pending?.acceptedKey ?? accepted.keyFingerprint;
      session.output({ operator: accepted, keyFingerprint, pendingProposal: pending ?? null }, () => {
        session.say(`${accepted.name} accepted: new key fingerprint ${keyFingerprint ?? '-'}`);
        if (pending) {
          session.say(`it waits for ${waitingFor(pending)}: they compare this fingerprint and run "treasury-desk operator confirm ${shortProposal(pending.id)} --as ADMIN"`);
        } else session.say(`${accepted.name} is ${accepted.status} as ${accepted.role}`);
      });
    });
  });

  const proposalDecision = (name: 'confirm' | 'withdraw-proposal', description: string, verb: string): void => {
    addEngineOptions(
      operator
        .command(name)
        .description(description)
        .argument('<proposal-id>', `the proposal id, or a unique prefix of at least ${PROPOSAL_PREFIX_MIN} characters ("operator list" shows them)`)
        .requiredOption('--as <admin>', 'the admin deciding (asked for a passphrase)'),
    ).action(async (typed: string, options: { readonly as: string }, command: Command) => {
      await withSession(command, io, async (session) => {
        const before = await session.run('operators/list', {});
        const id = resolveProposalId(typed, before.proposals);
        const method = name === 'confirm' ? 'operators/confirm' : 'operators/withdrawProposal';
        session.check(method, { proposal: id, as: { operator: options.as, passphrase: PLACEHOLDER } }, LABELS);
        const proposal = before.proposals.find((entry) => entry.id === id);
        if (proposal) {
          const key = proposal.acceptedKey === null ? '' : `; ${proposal.subject}'s key fingerprint ${proposal.acceptedKey}`;
          session.beforeAsking(`${verb} proposal ${shortProposal(id)}: ${proposal.summary}, proposed by ${proposal.proposer}${key}`);
        }
        const as = await session.acting(options.as);
        const roster = await session.run(method, { proposal: id, as }, LABELS);
        const still = roster.proposals.find((entry) => entry.id === id);
        session.output(roster, () => {
          if (still) session.say(`proposal ${shortProposal(id)} still waits for ${waitingFor(still)}`);
          else session.say(name === 'confirm' ? `confirmed: ${proposal?.summary ?? `proposal ${shortProposal(id)}`} is in force` : `withdrew proposal ${shortProposal(id)}`);
        });
      });
    });
  };
  proposalDecision('confirm', 'Confirm a proposal as a second admin independent of its proposer (for an invitation: after it was accepted)', 'Confirming');
  proposalDecision('withdraw-proposal', 'Withdraw an open proposal (an invitation, role change, disabling or policy change)', 'Withdrawing');
  registerGroupCommands(operator, io);

  addEngineOptions(
    operator
      .command('role')
      .description("Change an operator's role (waits for a second admin on a desk with two independent admins)")
      .argument('<name>', 'the operator')
      .argument('<role>', 'viewer, initiator, approver or admin')
      .requiredOption('--as <admin>', 'the admin doing it (asked for a passphrase)'),
  ).action(async (name: string, role: string, options: { readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const roster = await session.runAs('operators/setRole', { name, role }, options.as, LABELS);
      const now = findOperator(roster, name);
      printChange(session, roster, now?.role === role, `${now?.name ?? name} is now ${role}`, openProposalFor(roster, 'role', name));
    });
  });

  addEngineOptions(
    operator
      .command('disable')
      .description('Disable an operator: their later signatures never count (waits for a second admin on a four-eyes desk)')
      .argument('<name>', 'the operator')
      .requiredOption('--as <admin>', 'the admin doing it (asked for a passphrase)'),
  ).action(async (name: string, options: { readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const roster = await session.runAs('operators/disable', { name }, options.as, LABELS);
      const now = findOperator(roster, name);
      printChange(session, roster, now?.status === 'disabled', `${now?.name ?? name} is disabled`, openProposalFor(roster, 'disable', name));
    });
  });

  addEngineOptions(
    operator
      .command('rekey')
      .description('A new key for an operator who lost their passphrase: prints a one-time code, like an invitation')
      .argument('<name>', 'the operator')
      .requiredOption('--as <admin>', 'the admin doing it (asked for a passphrase)'),
  ).action(async (name: string, options: { readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const invitation = await session.runAs('operators/rekey', { name }, options.as, LABELS);
      printInvitation(session, invitation, 're-key');
    });
  });

  addEngineOptions(
    operator
      .command('passphrase')
      .description('Choose a new passphrase for your own key (the key and the roster stay as they are)')
      .argument('<name>', 'your operator name'),
  ).action(async (name: string, _options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const labels = { ...LABELS, passphrase: 'the passphrase' };
      session.check('operators/changePassphrase', { operator: name, passphrase: PLACEHOLDER, newPassphrase: PLACEHOLDER }, labels);
      const passphrase = await askPassphrase(io, name);
      const newPassphrase = await askNewPassphrase(io, name);
      const changed = await session.run('operators/changePassphrase', { operator: name, passphrase, newPassphrase }, labels);
      session.output(changed, () => session.say(`new passphrase set for ${changed.name}; the key stays ${changed.keyFingerprint ?? '-'}`));
    });
  });

  const device = operator.command('device').description("An operator's key at another workstation of a team desk (no key ever leaves the workstation it was made at)");
  addEngineOptions(
    device
      .command('add')
      .description('At this workstation: a new key for NAME, sealed by the passphrase typed here, proposed; it signs once confirmed elsewhere')
      .argument('<name>', 'your operator name'),
  ).action(async (name: string, _options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const labels = { ...LABELS, passphrase: 'the passphrase' };
      session.check('operators/addDevice', { operator: name, passphrase: PLACEHOLDER }, labels);
      const passphrase = await askNewPassphrase(io, name);
      const proposed = await session.run('operators/addDevice', { operator: name, passphrase }, labels);
      session.output(proposed, () => {
        session.say(`device key ${proposed.keyFingerprint} for ${proposed.operator} at ${proposed.workstation} proposed (id ${shortProposal(proposed.id)})`);
        session.say(
          `it signs once confirmed: at another workstation, "treasury-desk operator device confirm ${shortProposal(proposed.id)} --as ${proposed.operator}" (or --as an admin: ${proposed.operator} then counts as that admin's party). Compare the key fingerprint.`,
        );
      });
    });
  });
  addEngineOptions(
    device
      .command('confirm')
      .description("Confirm a device key proposed at another workstation: as the operator themself (with their key here) or as an admin")
      .argument('<id>', `the device key's id, or a unique prefix of at least ${PROPOSAL_PREFIX_MIN} characters ("operator list" shows them)`)
      .requiredOption('--as <operator>', 'the operator themself, or an admin (asked for a passphrase)'),
  ).action(async (typed: string, options: { readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const before = await session.run('operators/list', {});
      const id = resolveProposalId(typed, before.pendingDevices);
      session.check('operators/confirmDevice', { proposal: id, as: { operator: options.as, passphrase: PLACEHOLDER } }, LABELS);
      const pending = before.pendingDevices.find((entry) => entry.id === id);
      if (pending) session.beforeAsking(`Confirming ${pending.operator}'s device key ${pending.keyFingerprint} for workstation ${pending.workstation}`);
      const as = await session.acting(options.as);
      const roster = await session.run('operators/confirmDevice', { proposal: id, as }, LABELS);
      session.output(roster, () => session.say(`confirmed: ${pending?.operator ?? 'the operator'}'s device key ${pending?.keyFingerprint ?? ''} signs for them at ${pending?.workstation ?? 'its workstation'}`));
    });
  });

  addEngineOptions(operator.command('list').description('The roster: operators, their keys and parties, open proposals, and what the desk cannot do')).action(
    async (_options: unknown, command: Command) => {
      await withSession(command, io, async (session) => {
        const roster = await session.run('operators/list', {});
        session.output(roster, () => {
          io.stdout(rosterText(roster, session.timeZone));
          if (!roster.founded) session.say('found it with "treasury-desk operator found --admin NAME [--admin NAME2]"');
        });
      });
    },
  );
};
