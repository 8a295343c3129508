// `treasury-desk policy list | set | test`: withdrawal policy per currency (approvals by amount threshold, daily limit,
// financialConfirmation, "only from book", "new destination waits"). `set` changes only what is given and keeps the rest; an admin proposes it, and on a desk with
// two independent admins it waits for the other's `operator confirm` (the answer says which). `test` is the policy
// simulator: which rules apply to a withdrawal that is never made, and what they require (nothing is signed).
import type { Command } from 'commander';
import type { PolicyRuleFinding, PolicyRuleName, PolicyTestView, PolicyView, PolicyWindowView } from '../../contract';
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
  readonly window?: readonly string[];
  readonly destinationCap?: readonly string[];
  readonly unusualFactor?: string;
  readonly firstPaymentApproval?: boolean;
  readonly provenControlAbove?: string;
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

/** `24h` or `7d` → whole hours; anything else is a usage error naming the option. */
function parseHours(text: string, option: string, example: string): number {
  const match = /^([0-9]{1,4})([hd])$/.exec(text);
  if (!match?.[1] || !match[2]) throw new UsageError(`${option}: the window is hours or days such as 24h or 7d; got ${JSON.stringify(text.slice(0, 20))} (${example}).`);
  return Number(match[1]) * (match[2] === 'd' ? 24 : 1);
}

const WINDOW_EXAMPLE = 'e.g. --window 24h:initiator:amount=1000:count=3';
const WINDOW_SCOPES: readonly PolicyWindowView['scope'][] = ['currency', 'initiator', 'destination'];

/** `DURATION:SCOPE[:amount=A][:count=N]` → a window; the amount stays text for the engine to judge. */
export function parseWindow(text: string): PolicyWindowView {
  const [duration = '', scope = '', ...limits] = text.trim().split(':');
  const hours = parseHours(duration, '--window', WINDOW_EXAMPLE);
  const known = WINDOW_SCOPES.find((name) => name === scope);
  if (!known) throw new UsageError(`--window: the scope is currency, initiator or destination; got ${JSON.stringify(scope.slice(0, 20))} (${WINDOW_EXAMPLE}).`);
  let maxAmount: string | undefined;
  let maxCount: number | undefined;
  for (const limit of limits) {
    const amount = /^amount=([^:\s]+)$/.exec(limit);
    const count = /^count=([0-9]{1,6})$/.exec(limit);
    if (amount?.[1] !== undefined && maxAmount === undefined) maxAmount = amount[1];
    else if (count?.[1] !== undefined && maxCount === undefined) maxCount = Number(count[1]);
    else throw new UsageError(`--window: each limit is amount=AMOUNT or count=N, at most one of each; got ${JSON.stringify(limit.slice(0, 30))} (${WINDOW_EXAMPLE}).`);
  }
  if (maxAmount === undefined && maxCount === undefined) throw new UsageError(`--window: give amount=AMOUNT, count=N or both (${WINDOW_EXAMPLE}).`);
  return { hours, scope: known, ...(maxAmount === undefined ? {} : { maxAmount }), ...(maxCount === undefined ? {} : { maxCount }) };
}

const CAP_EXAMPLE = 'e.g. --destination-cap TXYZ...:10000:24h';

/** `ADDRESS:AMOUNT:DURATION` → a destination cap. */
export function parseDestinationCap(text: string): { address: string; maxAmount: string; hours: number } {
  const parts = text.trim().split(':');
  const [address, maxAmount, duration] = parts;
  if (parts.length !== 3 || !address || !maxAmount || !duration) throw new UsageError(`--destination-cap is ADDRESS:AMOUNT:DURATION (${CAP_EXAMPLE}); got ${JSON.stringify(text.slice(0, 60))}.`);
  return { address, maxAmount, hours: parseHours(duration, '--destination-cap', CAP_EXAMPLE) };
}

/** Repeated options: "none" alone clears the list; not given keeps the current one. */
function listOption<T>(values: readonly string[] | undefined, parse: (text: string) => T, current: readonly T[] | undefined): T[] {
  if (values === undefined) return [...(current ?? [])];
  if (values.length === 1 && values[0]?.toLowerCase() === 'none') return [];
  return values.map(parse);
}

function windowText(window: PolicyWindowView): string {
  const limits = [window.maxAmount === undefined ? null : `amount ${window.maxAmount}`, window.maxCount === undefined ? null : `count ${window.maxCount}`].filter((part) => part !== null);
  return `${window.hours} h per ${window.scope}: ${limits.join(', ')}`;
}

function velocityText(policy: PolicyView): string {
  const windows = policy.windows.map(windowText);
  const caps = policy.destinationCaps.map((cap) => `${cap.address}: ${cap.maxAmount} per ${cap.hours} h`);
  return [windows.length > 0 ? windows.join('; ') : 'none', caps.length > 0 ? caps.join('; ') : 'none'].join(' | ');
}

/** `--unusual-factor F` / "none" and `--[no-]first-payment-approval` over the current rule; null: no rule. */
function unusualOption(options: SetOptions, current: PolicyView['unusualAmount']): PolicyView['unusualAmount'] {
  const factor = options.unusualFactor?.trim();
  if (factor?.toLowerCase() === 'none') {
    if (options.firstPaymentApproval !== undefined) throw new UsageError('--unusual-factor none removes the unusual-amount rule: leave out --first-payment-approval.');
    return null;
  }
  if (factor === undefined && current === null) {
    if (options.firstPaymentApproval !== undefined) throw new UsageError('--first-payment-approval is part of the unusual-amount rule: give --unusual-factor F too (e.g. --unusual-factor 3).');
    return null;
  }
  return { factor: factor ?? current?.factor ?? '', firstPayment: options.firstPaymentApproval ?? current?.firstPayment ?? false };
}

function unusualText(rule: NonNullable<PolicyView['unusualAmount']>): string {
  return `one approval more above ${rule.factor} × the median paid to the address${rule.firstPayment ? ', and for a first payment' : ''}`;
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
  windows: 'windows and caps',
  approvalExpiry: 'approvals expire',
  unusualAmount: 'unusual amount',
  withdrawType: 'withdraw type',
  poisoning: 'poisoning radar',
  provenControl: 'proven control',
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
            ['currency', 'approvals (above amount: count from groups)', 'daily limit', 'approvals expire', 'withdraw type', 'only from book', 'new destination waits', 'windows', 'destination caps', 'unusual amount', 'proven control above'],
            policies.map((entry) => [
              entry.currency,
              thresholdsText(entry),
              entry.dailyLimit ?? 'none',
              entry.approvalValidHours === null ? 'never' : `after ${entry.approvalValidHours} h`,
              entry.useFinancialConfirmation ? 'financialConfirmation' : 'normal',
              entry.onlyFromBook ? 'yes' : 'no',
              entry.newDestinationWaitHours > 0 ? `${entry.newDestinationWaitHours} h` : 'no',
              entry.windows.length > 0 ? entry.windows.map(windowText).join('; ') : 'none',
              entry.destinationCaps.length > 0 ? entry.destinationCaps.map((cap) => `${cap.address}: ${cap.maxAmount} per ${cap.hours} h`).join('; ') : 'none',
              entry.unusualAmount === null ? 'none' : unusualText(entry.unusualAmount),
              entry.provenControlAbove ?? 'off',
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
      .option('--new-destination-wait <hours>', 'a destination whose addition to the book came into force less than HOURS ago is refused; 0 for no wait')
      .option('--tier-groups <amount=groups>', 'the tier above AMOUNT also needs approvals from groups: finance+treasury-leads|cfo:2 (+ is AND, | is OR); repeat per tier, "none" clears', collect)
      .option('--approval-valid-hours <hours>', 'an approval counts for HOURS (1 to 720), then must be given again; "none": never expires')
      .option(
        '--window <duration:scope:limits>',
        'a rolling window, e.g. 24h:initiator:amount=1000:count=3 (scope currency, initiator or destination; DURATION Nh or Nd up to 720h); repeat for several (replaces all windows); "none" clears them',
        collect,
      )
      .option('--unusual-factor <factor>', 'one approval more when the amount is above FACTOR × the median paid to that address (e.g. 3); "none" removes the rule')
      .option('--first-payment-approval', 'with the unusual-amount rule: one approval more for a first payment to an address')
      .option('--no-first-payment-approval', 'with the unusual-amount rule: a first payment needs no approval more')
      .option('--proven-control-above <amount>', 'above AMOUNT pay only addresses whose control is proven (addressbook prove); "none" turns it off')
      .option('--destination-cap <address:amount:duration>', 'at most AMOUNT to ADDRESS per DURATION, e.g. TXYZ...:10000:24h; repeat for several (replaces all caps); "none" clears them', collect)
      .requiredOption('--as <admin>', 'the admin doing it (asked for a passphrase)'),
  ).action(async (options: SetOptions, command: Command) => {
    // Parsed before anything is asked or signed: a bad value changes nothing.
    const thresholds = options.threshold?.map(parseThreshold);
    const tierGroups = options.tierGroups?.map((text) => (text.trim().endsWith('=none') ? { above: text.trim().slice(0, -'=none'.length), groups: undefined } : parseTierGroups(text)));
    const validHours = options.approvalValidHours?.toLowerCase();
    const windowsGiven = options.window === undefined ? undefined : listOption(options.window, parseWindow, []);
    const capsGiven = options.destinationCap === undefined ? undefined : listOption(options.destinationCap, parseDestinationCap, []);
    await withSession(command, io, async (session) => {
      const current = (await session.run('policies/list', {})).find((entry) => entry.currency === options.currency);
      const tiers = withTierGroups(thresholds ?? current?.thresholds.map((threshold) => ({ ...threshold })) ?? [], tierGroups ?? []);
      const windows = windowsGiven ?? current?.windows.map((window) => ({ ...window })) ?? [];
      const destinationCaps = capsGiven ?? current?.destinationCaps.map((cap) => ({ ...cap })) ?? [];
      const unusualAmount = unusualOption(options, current?.unusualAmount ?? null);
      const provenGiven = options.provenControlAbove?.trim();
      const provenControlAbove = provenGiven === undefined ? (current?.provenControlAbove ?? null) : provenGiven.toLowerCase() === 'none' ? null : provenGiven;
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
          ...(windows.length > 0 ? { windows } : {}),
          ...(destinationCaps.length > 0 ? { destinationCaps } : {}),
          ...(unusualAmount === null ? {} : { unusualAmount }),
          ...(provenControlAbove === null ? {} : { provenControlAbove }),
        },
        options.as,
        { thresholds: '--threshold', newDestinationWaitHours: '--new-destination-wait', approvalValidHours: '--approval-valid-hours', windows: '--window', destinationCaps: '--destination-cap', unusualAmount: '--unusual-factor', provenControlAbove: '--proven-control-above' },
      );
      session.output(change, () => {
        const { policy: updated, proposal } = change;
        session.say(
          `policy of ${updated.currency}: approvals ${thresholdsText(updated)}; daily limit ${updated.dailyLimit ?? 'none'}; ` +
            `${updated.useFinancialConfirmation ? 'financialConfirmation' : 'normal'} withdrawals` +
            `${updated.onlyFromBook ? '; only addresses from the book' : ''}${updated.newDestinationWaitHours > 0 ? `; a new destination waits ${updated.newDestinationWaitHours} h` : ''}` +
            `${updated.approvalValidHours === null ? '' : `; an approval counts for ${updated.approvalValidHours} h`}`,
        );
        if (updated.unusualAmount !== null) session.say(`unusual amount: ${unusualText(updated.unusualAmount)}`);
        if (updated.provenControlAbove !== null) session.say(`above ${updated.provenControlAbove} only addresses whose control is proven`);
        if (updated.windows.length > 0 || updated.destinationCaps.length > 0) session.say(`windows | destination caps: ${velocityText(updated)}`);
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
