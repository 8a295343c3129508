// `treasury-desk operator groups | group NAME`: the approval groups of the signed roster (issue 20). An admin proposes a
// group's whole member list (`--member` repeated, or `--dissolve`); a second, independent admin confirms it with
// `operator confirm`. Also the text of a policy tier's groups for `policy list` and `policy set`, and its parser.
import type { Command } from 'commander';
import type { ApprovalGroupsView } from '../../contract';
import { parseTierGroupsSpec, type TierGroups } from '../../contract/tier-groups';
import { collect } from '../args';
import { addEngineOptions, withSession } from '../engine-session';
import { UsageError } from '../errors';
import { table } from '../format';
import { shortProposal, waitingFor } from '../proposals';
import type { CliIo } from '../io';

/** `AMOUNT=finance+treasury-leads|cfo:2` → the tier's amount and its groups (contract/tier-groups reads the groups). */
export function parseTierGroups(text: string): { above: string; groups: TierGroups } {
  const usage = `--tier-groups must be AMOUNT=GROUP[:COUNT][+GROUP[:COUNT]...][|...] such as 1000=finance+treasury-leads|cfo (above 1000: one of finance and one of treasury-leads, or one of cfo); got ${JSON.stringify(text.slice(0, 60))}.`;
  const [above, spec, ...rest] = text.trim().split('=');
  if (!above || !spec || rest.length > 0) throw new UsageError(usage);
  const parsed = parseTierGroupsSpec(spec);
  if (!parsed.ok || parsed.groups === undefined) throw new UsageError(usage);
  return { above, groups: parsed.groups };
}

function groupsText(view: ApprovalGroupsView): string {
  let text = view.groups.length === 0 ? 'no approval groups\n' : table(['group', 'members'], view.groups.map((group) => [group.name, group.members.join(', ')]));
  if (view.pending.length > 0) {
    text += `group changes waiting for a second admin:\n${table(['id', 'summary', 'proposer', 'waiting for'], view.pending.map((proposal) => [shortProposal(proposal.id), proposal.summary, proposal.proposer, waitingFor(proposal)]))}`;
  }
  return text;
}

interface GroupOptions {
  readonly member?: readonly string[];
  readonly dissolve?: boolean;
  readonly as: string;
}

/** Adds `groups` and `group` under the `operator` command. */
export function registerGroupCommands(operator: Command, io: CliIo): void {
  addEngineOptions(operator.command('groups').description('Show the approval groups a policy tier can require, and group changes waiting for a second admin')).action(
    async (_options: unknown, command: Command) => {
      await withSession(command, io, async (session) => {
        const view = await session.run('operators/groups', {});
        session.output(view, () => io.stdout(groupsText(view)));
      });
    },
  );

  addEngineOptions(
    operator
      .command('group')
      .description("Propose an approval group's members (the whole list); another, independent admin confirms it (operator confirm)")
      .argument('<name>', 'the group: lower-case letters, digits and dashes (finance, treasury-leads)')
      .option('--member <name>', 'an operator in the group; repeat for each member (the list replaces the current one)', collect)
      .option('--dissolve', 'empty the group (a policy tier naming it can then not be met)')
      .requiredOption('--as <admin>', 'the admin proposing it (asked for a passphrase)'),
  ).action(async (name: string, options: GroupOptions, command: Command) => {
    const members = options.member ?? [];
    if (members.length === 0 && options.dissolve !== true) throw new UsageError('name the members with --member NAME (repeat it), or give --dissolve to empty the group.');
    if (members.length > 0 && options.dissolve === true) throw new UsageError('--member and --dissolve exclude each other.');
    await withSession(command, io, async (session) => {
      const change = await session.runAs('operators/setGroup', { group: name, members }, options.as, { group: 'NAME', members: '--member' });
      session.output(change, () => {
        if (change.applied) session.say(`in force now: ${change.proposal.summary}`);
        else {
          session.say(`proposed: ${change.proposal.summary} (proposal ${shortProposal(change.proposal.id)})`);
          session.say(`it waits for ${waitingFor(change.proposal)}: "treasury-desk operator confirm ${shortProposal(change.proposal.id)} --as ADMIN"`);
        }
      });
    });
  });
}
