// `treasury-desk withdraw ...`: the withdrawal desk. preflight and request (fee, total, balance after, approvals
// needed, warnings with look-alike positions), approve / reject / cancel as an operator, submit, status with the
// timeline, list. The engine enforces roles, self-approval and states; the CLI shows its answers.
import type { Command } from 'commander';
import { WITHDRAWAL_STATES, type WithdrawalPreflight, type WithdrawalView } from '../../contract';
import { wholeNumber } from '../args';
import { addEngineOptions, withSession, type EngineSession } from '../engine-session';
import { NegativeAnswer, UsageError } from '../errors';
import { differenceMarks, fields, formatTime, orDash, table } from '../format';
import type { CommandRegistrar } from '../program';

interface WithdrawalOptions {
  readonly currency: string;
  readonly amount: string;
  readonly to: string;
  readonly type?: string;
  readonly memo?: string;
}

const LABELS = { toAddress: '--to', withdrawType: '--type', id: 'ID' } as const;

function addWithdrawalOptions(command: Command): Command {
  return command
    .requiredOption('--currency <symbol>', 'currency symbol, e.g. trx.usdt')
    .requiredOption('--amount <amount>', 'amount the recipient receives, as a decimal (the fee comes on top)')
    .requiredOption('--to <address>', 'destination address')
    .option('--type <type>', 'normal or financialConfirmation (default: what the currency policy uses)');
}

function withdrawalInput(options: WithdrawalOptions) {
  return {
    currency: options.currency,
    amount: options.amount,
    toAddress: options.to,
    ...(options.type !== undefined ? { withdrawType: options.type } : {}),
  };
}

/** The preflight as label/value lines, then errors and warnings (look-alikes with their differing positions). */
function preflightText(preflight: WithdrawalPreflight, currency: string, toAddress: string): string {
  const unit = (value: string | null): string => (value === null ? '-' : `${value} ${currency}`);
  let text = fields([
    ['amount', unit(preflight.amountReceived)],
    ['fee', unit(preflight.fee)],
    ['total debited', unit(preflight.totalDebited)],
    ['minimum', unit(preflight.minimum)],
    ['available', unit(preflight.available)],
    ['balance after', unit(preflight.balanceAfter)],
    ['approvals needed', String(preflight.requiredApprovals)],
    ['daily limit left', preflight.dailyLimitRemaining === null ? 'no limit' : unit(preflight.dailyLimitRemaining)],
    ['service address check', preflight.serviceAddressCheck === null ? 'not asked (offline)' : preflight.serviceAddressCheck ? 'accepted' : 'refused'],
  ]);
  for (const issue of preflight.errors) text += `error: ${issue.field}: ${issue.message}\n`;
  for (const issue of preflight.warnings) text += `warning: ${issue.field}: ${issue.message}\n`;
  for (const lookAlike of preflight.lookAlike) {
    const label = lookAlike.label === null ? '' : ` (${lookAlike.label})`;
    const positions = lookAlike.differingPositions.map((position) => position + 1).join(', ');
    text += `warning: look-alike of known address ${lookAlike.knownAddress}${label}: differs at positions ${positions} (counting from 1)\n`;
    text += differenceMarks(lookAlike.knownAddress, toAddress, lookAlike.differingPositions);
  }
  return text;
}

function approvalsText(withdrawal: WithdrawalView): string {
  const approved = withdrawal.approvals.filter((approval) => approval.decision === 'approve').length;
  return `${approved}/${withdrawal.requiredApprovals}`;
}

function stateText(withdrawal: WithdrawalView): string {
  if (withdrawal.outcome !== null) return `${withdrawal.state} (${withdrawal.outcome})`;
  if (withdrawal.orderStatus !== null) return `${withdrawal.state} (${withdrawal.orderStatus})`;
  return withdrawal.state;
}

/** Request, approvals and platform statuses in time order. */
function timeline(withdrawal: WithdrawalView): [number, string][] {
  const events: [number, string][] = [[withdrawal.createdAt, `requested by ${withdrawal.initiator}`]];
  for (const approval of withdrawal.approvals) {
    events.push([approval.at, approval.decision === 'approve' ? `approved by ${approval.operator}` : `rejected by ${approval.operator}: ${approval.reason ?? ''}`]);
  }
  for (const event of withdrawal.history) events.push([event.observedAt, `${event.status} (from ${event.source})`]);
  return events.sort((a, b) => a[0] - b[0]);
}

function printWithdrawal(session: EngineSession, withdrawal: WithdrawalView, withTimeline: boolean): void {
  session.io.stdout(
    fields([
      ['request', withdrawal.id],
      ['state', stateText(withdrawal)],
      ['amount', `${withdrawal.amount} ${withdrawal.currency}`],
      ['fee', withdrawal.fee === null ? '-' : `${withdrawal.fee} ${withdrawal.currency}`],
      ['to', withdrawal.toAddress],
      ['type', withdrawal.withdrawType],
      ['memo', orDash(withdrawal.memo)],
      ['initiator', withdrawal.initiator],
      ['approvals', approvalsText(withdrawal)],
      ['userOrder', withdrawal.userOrder],
      ['apiOrder', orDash(withdrawal.apiOrder)],
      ['txid', orDash(withdrawal.txid)],
      ...(withdrawal.lastError === null ? [] : [['last error', withdrawal.lastError] as const]),
    ]),
  );
  if (withTimeline) {
    session.say('timeline (UTC):');
    for (const [at, what] of timeline(withdrawal)) session.say(`  ${formatTime(at)}  ${what}`);
  }
}

/** Input problems of a preflight are exit 2 like a refused request; balance, limit and address refusals exit 1. */
const INPUT_FIELDS: ReadonlySet<string> = new Set(['amount', 'currency', 'withdrawType']);

export const registerWithdrawCommands: CommandRegistrar = (program, io) => {
  const withdraw = program.command('withdraw').description('The withdrawal desk: request, approve, submit, track');

  addEngineOptions(
    addWithdrawalOptions(withdraw.command('preflight').description('Check a withdrawal without requesting it: fee, total, balance after, approvals, warnings')),
  ).action(async (options: WithdrawalOptions, command: Command) => {
    await withSession(command, io, async (session) => {
      const preflight = await session.run('withdrawals/preflight', withdrawalInput(options), LABELS);
      session.output(preflight, () => io.stdout(preflightText(preflight, options.currency, options.to)));
      if (!preflight.ok) {
        const summary = preflight.errors.map((issue) => `${issue.field}: ${issue.message}`).join('; ');
        if (preflight.errors.some((issue) => INPUT_FIELDS.has(issue.field))) throw new UsageError(`the withdrawal would be refused: ${summary}`);
        throw new NegativeAnswer(`the withdrawal would be refused: ${summary}`);
      }
    });
  });

  addEngineOptions(
    addWithdrawalOptions(withdraw.command('request').description('Request a withdrawal; it then waits for the approvals its policy requires'))
      .option('--memo <text>', 'a note kept with the request (sent as the remark)')
      .requiredOption('--as <operator>', 'the initiator (asked for a passphrase)'),
  ).action(async (options: WithdrawalOptions & { readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const answer = await session.runAs(
        'withdrawals/request',
        { ...withdrawalInput(options), ...(options.memo !== undefined ? { memo: options.memo } : {}) },
        options.as,
        LABELS,
      );
      session.output(answer, () => {
        const { withdrawal, preflight } = answer;
        session.say(`request ${withdrawal.id}: ${withdrawal.state}, ${withdrawal.requiredApprovals} approval${withdrawal.requiredApprovals === 1 ? '' : 's'} needed`);
        session.say(`userOrder ${withdrawal.userOrder}`);
        io.stdout(preflightText(preflight, withdrawal.currency, withdrawal.toAddress));
      });
    });
  });

  const decision = (name: 'approve' | 'cancel', description: string): void => {
    const decisionCommand = withdraw
      .command(name)
      .description(description)
      .argument('<id>', 'the request id')
      .requiredOption('--as <operator>', 'the operator deciding (asked for a passphrase)');
    if (name === 'cancel') decisionCommand.option('--reason <text>', 'why, for the audit trail');
    addEngineOptions(decisionCommand).action(async (id: string, options: { readonly as: string; readonly reason?: string }, command: Command) => {
      await withSession(command, io, async (session) => {
        const withdrawal =
          name === 'approve'
            ? await session.runAs('withdrawals/approve', { id }, options.as, LABELS)
            : await session.runAs('withdrawals/cancel', { id, ...(options.reason !== undefined ? { reason: options.reason } : {}) }, options.as, LABELS);
        session.output(withdrawal, () => {
          session.say(`request ${withdrawal.id}: ${withdrawal.state} (approvals ${approvalsText(withdrawal)})`);
          if (withdrawal.state === 'approved') session.say(`submit it with "treasury-desk withdraw submit ${withdrawal.id}"`);
        });
      });
    });
  };
  decision('approve', 'Approve a request (never your own); it is approved once the policy has its approvals');

  addEngineOptions(
    withdraw
      .command('reject')
      .description('Reject a request (never your own); a rejected request is final')
      .argument('<id>', 'the request id')
      .requiredOption('--reason <text>', 'why, for the initiator and the audit trail')
      .requiredOption('--as <operator>', 'the operator deciding (asked for a passphrase)'),
  ).action(async (id: string, options: { readonly reason: string; readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const withdrawal = await session.runAs('withdrawals/reject', { id, reason: options.reason }, options.as, LABELS);
      session.output(withdrawal, () => session.say(`request ${withdrawal.id}: ${withdrawal.state}`));
    });
  });

  decision('cancel', 'Cancel a request not yet sent to the service (its initiator or an admin)');

  addEngineOptions(
    withdraw.command('submit').description('Send an approved request to the service (safe to repeat: the same userOrder is reused)').argument('<id>', 'the request id'),
  ).action(async (id: string, _options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const withdrawal = await session.run('withdrawals/submit', { id }, LABELS);
      session.output(withdrawal, () => {
        session.say(`request ${withdrawal.id}: ${stateText(withdrawal)}`);
        if (withdrawal.apiOrder !== null) session.say(`apiOrder ${withdrawal.apiOrder}`);
      });
    });
  });

  addEngineOptions(withdraw.command('status').description('Show a request with its status timeline').argument('<id>', 'the request id')).action(
    async (id: string, _options: unknown, command: Command) => {
      await withSession(command, io, async (session) => {
        const withdrawal = await session.run('withdrawals/get', { id }, LABELS);
        session.output(withdrawal, () => printWithdrawal(session, withdrawal, true));
      });
    },
  );

  addEngineOptions(
    withdraw
      .command('list')
      .description('List withdrawal requests, newest first')
      .option('--state <state>', `only this state: ${WITHDRAWAL_STATES.join(', ')}`)
      .option('--limit <n>', 'rows per page (1 to 1000)', wholeNumber(1, 1000), 50)
      .option('--cursor <cursor>', 'continue after a previous page (its next cursor)'),
  ).action(async (options: { readonly state?: string; readonly limit: number; readonly cursor?: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const page = await session.run('withdrawals/list', {
        ...(options.state !== undefined ? { state: options.state } : {}),
        limit: options.limit,
        ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
      });
      session.output(page, () => {
        if (page.rows.length === 0) return session.say('no withdrawal requests match');
        io.stdout(
          table(
            ['id', 'state', 'currency', 'amount', 'to', 'initiator', 'approvals', 'requested (UTC)'],
            page.rows.map((row) => [row.id, stateText(row), row.currency, row.amount, row.toAddress, row.initiator, approvalsText(row), formatTime(row.createdAt)]),
            ['right', 'left', 'left', 'right'],
          ),
        );
        if (page.nextCursor !== null) io.stderr(`more requests: add --cursor ${page.nextCursor}\n`);
      });
    });
  });
};
