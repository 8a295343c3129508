// `treasury-desk policy list | set | test`: withdrawal policy per currency (approvals by amount threshold, daily limit,
// financialConfirmation, "only from book", "new destination waits"). `set` changes only what is given and keeps the rest; an admin proposes it, and on a desk with
// two independent admins it waits for the other's `operator confirm` (the answer says which). `test` is the policy
// simulator: which rules apply to a withdrawal that is never made, and what they require (nothing is signed).
import type { Command } from 'commander';
import type { PolicyRuleFinding, PolicyRuleName, PolicyTestView, PolicyView } from '../../contract';
import { collect } from '../args';
import { addEngineOptions, withSession } from '../engine-session';
import { UsageError } from '../errors';
import { table } from '../format';
import type { CommandRegistrar } from '../program';
import { shortProposal, waitingFor } from '../proposals';
import { tierGroupsText } from '../../contract/tier-groups';
import { parseTierGroups } from './approval-groups';

interface SetOptions {
  readonly currency: string;
  readonly threshold?: readonly string[];
  readonly dailyLimit?: string;
  readonly financialConfirmation?: boolean;
  readonly onlyFromBook?: boolean;
  readonly newDestinationWait?: string;
  readonly tierGroups?: readonly string[];
  readonly approvalValidHours?: string;
  readonly as: string;
}

function thresholdsText(policy: PolicyView): string {
  return policy.thresholds.map((threshold) => `>${threshold.above}: ${threshold.approvals}${threshold.groups ? ` from ${tierGroupsText(threshold.groups)}` : ''}`).join(', ');
}

/** `AMOUNT:APPROVALS` → {above, approvals}; the amount stays text for the engine to judge. */
function parseThreshold(text: string): { above: string; approvals: number } {
  const match = /^([^:\s]+):([0-9]{1,2})$/.exec(text.trim());
  if (!match?.[1] || !match[2]) {
    throw new UsageError(`--threshold must be AMOUNT:APPROVALS such as 1000:2 (amounts above 1000 need 2 approvals); got ${JSON.stringify(text.slice(0, 40))}.`);
  }
  return { above: match[1], approvals: Number(match[2]) };
}

interface TestOptions {
  readonly currency: string;
  readonly amount: string;
  readonly to: string;
  readonly as?: string;
}

const RULE_NAMES: Readonly<Record<PolicyRuleName, string>> = {
  initiator: 'initiator',
  freeze: 'freeze',
  approvals: 'approvals',
  dailyLimit: 'daily limit',
  onlyFromBook: 'only from book',
  newDestinationWait: 'new destination waits',
  withdrawType: 'withdraw type',
};

/** One finding as a line: REFUSES, ok, or off, then the rule's name and what it says. */
function findingLine(finding: PolicyRuleFinding): string {
  const mark = finding.refuses ? 'REFUSES' : finding.active ? 'ok' : 'off';
  return `  ${mark.padEnd(7)} ${RULE_NAMES[finding.rule]}: ${finding.text}`;
}

function testReport(view: PolicyTestView): string[] {
  const { source: from, reference } = view.policy;
  const source = from === 'draft' ? 'a draft policy' : from === 'default' || reference === null ? 'the default policy (never set)' : `the policy in force (${shortProposal(reference)})`;
  const who = view.initiator === null ? '' : ` requested by ${view.initiator}`;
  const refusing = view.findings.filter((finding) => finding.refuses).length;
  return [
    `${view.amount} ${view.currency} to ${view.toAddress}${who}, under ${source}:`,
    view.allowed
      ? `allowed now: it would wait for ${view.requiredApprovals} independent approval${view.requiredApprovals === 1 ? '' : 's'}`
      : `not allowed now: ${refusing} rule${refusing === 1 ? '' : 's'} refuse${refusing === 1 ? 's' : ''} it`,
    ...view.findings.map(findingLine),
  ];
}

type Tier = { above: string; approvals: number; groups?: readonly (readonly { group: string; count: number }[])[] };

/** The tiers with `--tier-groups` applied: each names a tier's amount exactly as a --threshold (or the policy) gives it. */
function withTierGroups(tiers: readonly Tier[], changes: readonly { above: string; groups: Tier['groups'] }[]): Tier[] {
  const result = tiers.map((tier) => ({ ...tier }));
  for (const change of changes) {
    const tier = result.find((entry) => entry.above === change.above);
    if (!tier) throw new UsageError(`--tier-groups names the tier above ${change.above}, but the thresholds are ${result.map((entry) => entry.above).join(', ') || 'none'}: add --threshold ${change.above}:APPROVALS first.`);
    if (change.groups === undefined) delete tier.groups;
    else tier.groups = change.groups;
  }
  return result;
}

export const registerPolicyCommands: CommandRegistrar = (program, io) => {
  const policy = program.command('policy').description('Withdrawal policies per currency');

  addEngineOptions(policy.command('list').description('Show the withdrawal policy of every currency')).action(async (_options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const policies = await session.run('policies/list', {});
      session.output(policies, () =>
        io.stdout(
          table(
            ['currency', 'approvals (above amount: count from groups)', 'daily limit', 'approvals expire', 'withdraw type', 'only from book', 'new destination waits'],
            policies.map((entry) => [
              entry.currency,
              thresholdsText(entry),
              entry.dailyLimit ?? 'none',
              entry.approvalValidHours === null ? 'never' : `after ${entry.approvalValidHours} h`,
              entry.useFinancialConfirmation ? 'financialConfirmation' : 'normal',
              entry.onlyFromBook ? 'yes' : 'no',
              entry.newDestinationWaitHours > 0 ? `${entry.newDestinationWaitHours} h` : 'no',
            ]),
          ),
        ),
      );
    });
  });

  addEngineOptions(
    policy
      .command('set')
      .description("Change a currency's policy (what is not given stays as it is)")
      .requiredOption('--currency <symbol>', 'currency symbol, e.g. trx.usdt')
      .option('--threshold <amount:approvals>', 'amounts above AMOUNT need APPROVALS approvals; repeat for several (replaces all thresholds)', collect)
      .option('--daily-limit <amount>', 'the most that may be requested per UTC day, or "none"')
      .option('--financial-confirmation', "use financialConfirmation withdrawals (the platform's finance side confirms)")
      .option('--no-financial-confirmation', 'use normal withdrawals')
      .option('--only-from-book', 'allow only destinations approved into the address book (addressbook add + approve)')
      .option('--no-only-from-book', 'allow any destination')
      .option('--new-destination-wait <hours>', 'a destination added to the book (or first seen) less than HOURS ago is refused; 0 for no wait')
      .option('--tier-groups <amount=groups>', 'the tier above AMOUNT also needs approvals from groups: finance+treasury-leads|cfo:2 (+ is AND, | is OR); repeat per tier, "none" clears', collect)
      .option('--approval-valid-hours <hours>', 'an approval counts for HOURS (1 to 720), then must be given again; "none": never expires')
      .requiredOption('--as <admin>', 'the admin doing it (asked for a passphrase)'),
  ).action(async (options: SetOptions, command: Command) => {
    const thresholds = options.threshold?.map(parseThreshold);
    const tierGroups = options.tierGroups?.map((text) => (text.trim().endsWith('=none') ? { above: text.trim().slice(0, -'=none'.length), groups: undefined } : parseTierGroups(text)));
    const validHours = options.approvalValidHours?.toLowerCase();
    await withSession(command, io, async (session) => {
      const current = (await session.run('policies/list', {})).find((entry) => entry.currency === options.currency);
      const tiers = withTierGroups(thresholds ?? current?.thresholds.map((threshold) => ({ ...threshold })) ?? [], tierGroups ?? []);
      const change = await session.runAs(
        'policies/set',
        {
          currency: options.currency,
          thresholds: tiers,
          dailyLimit: options.dailyLimit === undefined ? (current?.dailyLimit ?? null) : options.dailyLimit.toLowerCase() === 'none' ? null : options.dailyLimit,
          useFinancialConfirmation: options.financialConfirmation ?? current?.useFinancialConfirmation ?? false,
          onlyFromBook: options.onlyFromBook ?? current?.onlyFromBook ?? false,
          newDestinationWaitHours: options.newDestinationWait === undefined ? (current?.newDestinationWaitHours ?? 0) : Number(options.newDestinationWait),
          ...(validHours === 'none' ? {} : validHours === undefined ? (current?.approvalValidHours ? { approvalValidHours: current.approvalValidHours } : {}) : { approvalValidHours: Number(validHours) }),
        },
        options.as,
        { thresholds: '--threshold', newDestinationWaitHours: '--new-destination-wait', approvalValidHours: '--approval-valid-hours' },
      );
      session.output(change, () => {
        const { policy: updated, proposal } = change;
        session.say(
          `policy of ${updated.currency}: approvals ${thresholdsText(updated)}; daily limit ${updated.dailyLimit ?? 'none'}; ` +
            `${updated.useFinancialConfirmation ? 'financialConfirmation' : 'normal'} withdrawals` +
            `${updated.onlyFromBook ? '; only addresses from the book' : ''}${updated.newDestinationWaitHours > 0 ? `; a new destination waits ${updated.newDestinationWaitHours} h` : ''}` +
            `${updated.approvalValidHours === null ? '' : `; an approval counts for ${updated.approvalValidHours} h`}`,
        );
        if (change.applied) session.say('in force now');
        else {
          session.say(`not in force yet: proposal ${shortProposal(proposal.id)} waits for ${waitingFor(proposal)}`);
          session.say(`until then the policy in force stays; confirm with "treasury-desk operator confirm ${shortProposal(proposal.id)} --as ADMIN"`);
        }
      });
    });
  });

  addEngineOptions(
    policy
      .command('test')
      .description('The policy simulator: which rules apply to a withdrawal and what they require (nothing is requested or signed)')
      .requiredOption('--currency <symbol>', 'currency symbol, e.g. trx.usdt')
      .requiredOption('--amount <amount>', 'the amount, e.g. 1250.5')
      .requiredOption('--to <address>', 'the destination address')
      .option('--as <operator>', 'who would request it (no passphrase is asked: nothing is signed)'),
  ).action(async (options: TestOptions, command: Command) => {
    await withSession(command, io, async (session) => {
      const view = await session.run('policies/test', { currency: options.currency, amount: options.amount, toAddress: options.to, ...(options.as === undefined ? {} : { initiator: options.as }) });
      session.output(view, () => io.stdout(`${testReport(view).join('\n')}\n`));
    });
  });
};
