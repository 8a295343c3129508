// `treasury-desk withdraw ...`: the withdrawal desk. preflight and request (fee, total, balance after, approvals
// needed, warnings with look-alike positions, the intent's fingerprint), approve / reject / cancel / submit as a named
// operator (each shows the request and its fingerprint before the passphrase is asked; approve shows everything the
// approver signs, as `show` does), status with the verification
// of its signed statements, each approval and whether it counts, the platform's remark and every field of the order
// record the service reported, the timeline, and whether the order is stuck and what to do next; list (--stuck: the
// orders stuck now); export writes the requests as CSV. The engine enforces roles, self-approval, parties and states, and verifies the statements; the CLI
// shows its answers.
import type { Command } from 'commander';
import { resolve } from 'node:path';
import {
  type ApproverView,
  decisionsOpen,
  destinationHistoryWords,
  escapeSingleLine,
  groupAmount,
  reviewLines,
  reviewWarning,
  SERVICE_ADDRESS_CHECK_WORDS,
  WITHDRAWAL_STATES,
  type StuckFlagView,
  type WithdrawalPreflight,
  type WithdrawalView,
} from '../../contract';
import { wholeNumber } from '../args';
import { addEngineOptions, PLACEHOLDER, withSession, type EngineSession } from '../engine-session';
import { ContractFailure, NegativeAnswer, UsageError } from '../errors';
import { duration } from '../../core/notifications/texts';
import { addressWithPayee, batchLineText, block, differenceMarks, fields, orDash, recordLines, table } from '../format';
import type { CommandRegistrar } from '../program';

interface WithdrawalOptions {
  readonly currency: string;
  readonly amount: string;
  readonly to: string;
  readonly type?: string;
  readonly memo?: string;
}

const LABELS = { toAddress: '--to', withdrawType: '--type', id: 'ID' } as const;

/** The locale the CLI groups amounts for in what a decision shows (1,250.5), as the app does in an en-US locale. */
const CLI_LOCALE = 'en-US';

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
    ['destination', destinationHistoryWords(preflight.newDestination)],
    ['service address check', SERVICE_ADDRESS_CHECK_WORDS[preflight.serviceAddressCheck]],
  ]);
  for (const issue of preflight.errors) text += `${escapeSingleLine(`error: ${issue.field}: ${issue.message}`)}\n`;
  for (const issue of preflight.warnings) text += `${escapeSingleLine(`warning: ${issue.field}: ${issue.message}`)}\n`;
  for (const lookAlike of preflight.lookAlike) {
    const label = lookAlike.label === null ? '' : ` (${lookAlike.label})`;
    const positions = lookAlike.differingPositions.map((position) => position + 1).join(', ');
    text += `warning: look-alike of known address ${lookAlike.knownAddress}${label}: differs at positions ${positions} (counting from 1)\n`;
    text += differenceMarks(lookAlike.knownAddress, toAddress, lookAlike.differingPositions);
  }
  return text;
}

/** Approvals that count (independent parties, verified) out of those required. */
function approvalsText(withdrawal: WithdrawalView): string {
  return `${withdrawal.verification.countedApprovals}/${withdrawal.verification.requiredApprovals}`;
}

function fingerprintText(withdrawal: WithdrawalView): string {
  return withdrawal.fingerprint ?? 'none (requested before signed approvals)';
}

/** One line naming the request and its fingerprint, e.g. for "Approving request 12: ...". */
function requestLine(withdrawal: WithdrawalView): string {
  return `request ${withdrawal.id}: ${groupAmount(withdrawal.amount, CLI_LOCALE)} ${withdrawal.currency} to ${withdrawal.toAddress}, requested by ${withdrawal.initiator}; fingerprint ${fingerprintText(withdrawal)}`;
}

/** Each approval or rejection, and whether it counts toward four-eyes (and why not). */
function decisionsText(session: EngineSession, withdrawal: WithdrawalView): string {
  return withdrawal.approvals
    .map((approval) => {
      if (approval.decision === 'reject') return block(`  ${session.time(approval.at)}  rejected by ${approval.operator}`, approval.reason ?? '');
      const what = `approved by ${approval.operator}: ${approval.counts ? 'counts' : `does not count${approval.note === null ? '' : ` (${approval.note})`}`}`;
      return `${escapeSingleLine(`  ${session.time(approval.at)}  ${what}`)}\n`;
    })
    .join('');
}

/** "pendingTransfer for 3 h 5 min (stuck after 2 h), since 2024-05-01 12:00:00Z" */
function stuckText(stuck: StuckFlagView, time: (ms: number) => string): string {
  return `${stuck.status} for ${duration(stuck.stuckForMs)} (stuck after ${duration(stuck.thresholdMs)}), since ${time(stuck.since)}`;
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
      ...(withdrawal.batch === null ? [] : [['batch payout', batchLineText(withdrawal.batch)] as const]),
      ['fingerprint', fingerprintText(withdrawal)],
      ['state', stateText(withdrawal)],
      ['amount', `${withdrawal.amount} ${withdrawal.currency}`],
      ['fee', withdrawal.fee === null ? '-' : `${withdrawal.fee} ${withdrawal.currency}`],
      ['to', addressWithPayee(withdrawal.toAddress, withdrawal.payee)],
      ['type', withdrawal.withdrawType],
      ['memo', orDash(withdrawal.memo)],
      ['initiator', withdrawal.initiator],
      ['approvals', `${withdrawal.verification.countedApprovals} of ${withdrawal.verification.requiredApprovals} counted`],
      ['verification', withdrawal.verification.ok ? 'ok: the signed statements support it' : 'not ok'],
      ['userOrder', withdrawal.userOrder],
      ['apiOrder', orDash(withdrawal.apiOrder)],
      ['txid', orDash(withdrawal.txid)],
      ...(withdrawal.lastError === null ? [] : [['last error', withdrawal.lastError] as const]),
    ]),
  );
  for (const problem of withdrawal.verification.problems) session.say(`  problem: ${problem}`);
  if (withdrawal.stuck !== null) {
    session.say(`STUCK: ${stuckText(withdrawal.stuck, (ms) => session.time(ms))}; what to do:`);
    for (const step of withdrawal.stuck.nextSteps) session.say(`  - ${step}`);
  }
  if (withdrawal.platformMessage !== null) session.say(`platform's remark (text from the service): ${withdrawal.platformMessage}`);
  if (withdrawal.platformRecord !== null) {
    session.say('the order as the service last reported it (every field):');
    session.io.stdout(recordLines(withdrawal.platformRecord));
  }
  if (withdrawal.approvals.length > 0) {
    session.say(`approvals (${session.timeZone}):`);
    session.io.stdout(decisionsText(session, withdrawal));
  }
  if (withTimeline) {
    session.say(`timeline (${session.timeZone}):`);
    for (const [at, what] of timeline(withdrawal)) session.say(`  ${session.time(at)}  ${what}`);
  }
}

/** Input problems of a preflight or a request are exit 2; balance, limit and address refusals exit 1 (both commands). */
const INPUT_FIELDS: ReadonlySet<string> = new Set(['amount', 'currency', 'withdrawType']);

/**
 * A request the engine refused for what its preflight found: exit 1 like `withdraw preflight` when no refused field is
 * bad input (the balance, the daily limit, the address), exit 2 when the amount, currency or type is wrong.
 */
function refusedRequest(error: unknown): unknown {
  if (!(error instanceof ContractFailure) || error.fromSchema || error.code !== 'invalidInput' || error.fieldNames.length === 0) return error;
  if (error.fieldNames.some((field) => INPUT_FIELDS.has(field))) return error;
  return new NegativeAnswer(`refused: ${error.message.replace(/^invalidInput: /, '')}`);
}

/**
 * Everything the approver signs (withdrawals/review), one `label  value` line each in the contract's words, the same
 * as the app's approve dialog and detail; an item to look at twice is marked `!`, a warning comes first.
 */
function reviewText(session: EngineSession, review: ApproverView): string[] {
  const warning = reviewWarning(review);
  const lines = reviewLines(review, { locale: CLI_LOCALE, time: (ms) => session.time(ms) });
  const text = fields(lines.map((line) => [`${line.warn ? '!' : ' '} ${line.label}`, line.value] as const));
  return [...(warning === null ? [] : [`WARNING: ${warning}`]), ...text.split('\n').filter((line) => line !== ''), ...review.problems.map((problem) => `  problem: ${problem}`)];
}

type DecisionMethod = 'withdrawals/approve' | 'withdrawals/reject' | 'withdrawals/cancel' | 'withdrawals/submit';

/**
 * A decision by a named operator: the request is checked (bad input exits 2 before anyone types a passphrase), read,
 * and shown with its fingerprint; only then is the passphrase asked and the decision sent to the engine.
 */
async function decide(
  session: EngineSession,
  method: DecisionMethod,
  verb: string,
  request: { readonly id: string; readonly reason?: string },
  operator: string,
): Promise<WithdrawalView> {
  session.check(method, { ...request, as: { operator, passphrase: PLACEHOLDER } }, LABELS);
  const current = await session.run('withdrawals/get', { id: request.id }, LABELS);
  session.beforeAsking(`${verb} ${requestLine(current)}`);
  if (method === 'withdrawals/approve') {
    // The approver sees everything they sign before the passphrase is asked.
    for (const line of reviewText(session, await session.run('withdrawals/review', { id: request.id }, LABELS))) session.beforeAsking(line);
  }
  const as = await session.acting(operator);
  return (await session.run(method, { ...request, as }, LABELS)) as WithdrawalView;
}

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
      .option('--memo <text>', 'a note kept with the request and sent to the service with the order as its remark')
      .requiredOption('--as <operator>', 'the initiator (asked for a passphrase)'),
  ).action(async (options: WithdrawalOptions & { readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const answer = await session
        .runAs('withdrawals/request', { ...withdrawalInput(options), ...(options.memo !== undefined ? { memo: options.memo } : {}) }, options.as, LABELS)
        .catch((error: unknown) => {
          throw refusedRequest(error);
        });
      session.output(answer, () => {
        const { withdrawal, preflight } = answer;
        session.say(`request ${withdrawal.id}: ${withdrawal.state}, ${withdrawal.requiredApprovals} approval${withdrawal.requiredApprovals === 1 ? '' : 's'} needed`);
        session.say(`fingerprint ${fingerprintText(withdrawal)} (approvers compare it with what they are shown)`);
        session.say(`userOrder ${withdrawal.userOrder}`);
        io.stdout(preflightText(preflight, withdrawal.currency, withdrawal.toAddress));
      });
    });
  });

  const decision = (name: 'approve' | 'cancel', description: string, verb: string): void => {
    const decisionCommand = withdraw
      .command(name)
      .description(description)
      .argument('<id>', 'the request id')
      .requiredOption('--as <operator>', 'the operator deciding (asked for a passphrase)');
    if (name === 'cancel') decisionCommand.option('--reason <text>', 'why, for the audit trail');
    addEngineOptions(decisionCommand).action(async (id: string, options: { readonly as: string; readonly reason?: string }, command: Command) => {
      await withSession(command, io, async (session) => {
        const withdrawal = await decide(
          session,
          name === 'approve' ? 'withdrawals/approve' : 'withdrawals/cancel',
          verb,
          { id, ...(options.reason !== undefined ? { reason: options.reason } : {}) },
          options.as,
        );
        session.output(withdrawal, () => {
          session.say(`request ${withdrawal.id}: ${withdrawal.state} (approvals ${approvalsText(withdrawal)} counted)`);
          const mine = withdrawal.approvals.filter((approval) => approval.decision === 'approve' && approval.operator.toLowerCase() === options.as.trim().toLowerCase()).at(-1);
          if (name === 'approve' && mine && !mine.counts) session.say(`${mine.operator}'s approval does not count${mine.note === null ? '' : `: ${mine.note}`}`);
          if (decisionsOpen(withdrawal.state).submit) session.say(`submit it with "treasury-desk withdraw submit ${withdrawal.id} --as OPERATOR"`);
        });
      });
    });
  };
  decision('approve', 'Approve a request (never your own); it is approved once the policy has its approvals from independent parties', 'Approving');

  addEngineOptions(
    withdraw
      .command('reject')
      .description('Reject a request (never your own); a rejected request is final')
      .argument('<id>', 'the request id')
      .requiredOption('--reason <text>', 'why, for the initiator and the audit trail')
      .requiredOption('--as <operator>', 'the operator deciding (asked for a passphrase)'),
  ).action(async (id: string, options: { readonly reason: string; readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const withdrawal = await decide(session, 'withdrawals/reject', 'Rejecting', { id, reason: options.reason }, options.as);
      session.output(withdrawal, () => session.say(`request ${withdrawal.id}: ${withdrawal.state}`));
    });
  });

  decision('cancel', 'Cancel a request not yet sent to the service (its initiator or an admin)', 'Cancelling');

  addEngineOptions(
    withdraw
      .command('submit')
      .description('Send an approved request to the service once its signed statements verify (safe to repeat: the same userOrder is reused)')
      .argument('<id>', 'the request id')
      .requiredOption('--as <operator>', 'the operator submitting, with the submit permission (asked for a passphrase)'),
  ).action(async (id: string, options: { readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const withdrawal = await decide(session, 'withdrawals/submit', 'Submitting', { id }, options.as);
      session.output(withdrawal, () => {
        session.say(`request ${withdrawal.id}: ${stateText(withdrawal)}`);
        if (withdrawal.apiOrder !== null) session.say(`apiOrder ${withdrawal.apiOrder}`);
      });
    });
  });

  addEngineOptions(
    withdraw.command('status').description('Show a request: its fingerprint, what its signed statements support, each approval and the timeline').argument('<id>', 'the request id'),
  ).action(
    async (id: string, _options: unknown, command: Command) => {
      await withSession(command, io, async (session) => {
        const withdrawal = await session.run('withdrawals/get', { id }, LABELS);
        session.output(withdrawal, () => printWithdrawal(session, withdrawal, true));
      });
    },
  );

  addEngineOptions(
    withdraw
      .command('show')
      .description('Show everything an approver signs: amount, fee and total, chain, type, memo as remark, the destination\'s standing, the rule, approvals given and still needed, age, fingerprint')
      .argument('<id>', 'the request id'),
  ).action(async (id: string, _options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const review = await session.run('withdrawals/review', { id }, LABELS);
      session.output(review, () => {
        session.say(`request ${review.id}, as its approvers are shown it (${session.timeZone}):`);
        for (const line of reviewText(session, review)) session.say(line);
      });
    });
  });

  addEngineOptions(
    withdraw
      .command('list')
      .description('List withdrawal requests, newest first')
      .option('--state <state>', `only this state: ${WITHDRAWAL_STATES.join(', ')}`)
      .option('--limit <n>', 'rows per page (1 to 1000)', wholeNumber(1, 1000), 50)
      .option('--cursor <cursor>', 'continue after a previous page (its next cursor)')
      .option('--stuck', 'only the orders stuck now (pending past their threshold, see "settings stuck-thresholds"), with what to do next'),
  ).action(async (options: { readonly state?: string; readonly limit: number; readonly cursor?: string; readonly stuck?: boolean }, command: Command) => {
    if (options.stuck === true && (options.state !== undefined || options.cursor !== undefined)) throw new UsageError('--stuck lists every stuck order at once: leave out --state and --cursor.');
    await withSession(command, io, async (session) => {
      if (options.stuck === true) {
        const stuck = await session.run('withdrawals/list', { stuck: true });
        session.output(stuck, () => {
          if (stuck.rows.length === 0) return session.say('no withdrawal is stuck');
          io.stdout(
            table(
              ['id', 'currency', 'amount', 'status', 'stuck for', 'stuck after', `since (${session.timeZone})`, 'apiOrder', 'txid'],
              stuck.rows.map((row) => [
                row.id,
                row.currency,
                row.amount,
                row.stuck?.status ?? '-',
                row.stuck === null ? '-' : duration(row.stuck.stuckForMs),
                row.stuck === null ? '-' : duration(row.stuck.thresholdMs),
                row.stuck === null ? '-' : session.time(row.stuck.since),
                orDash(row.apiOrder),
                orDash(row.txid),
              ]),
              ['right', 'left', 'right'],
            ),
          );
          for (const row of stuck.rows) {
            session.say(`request ${row.id}, what to do:`);
            for (const step of row.stuck?.nextSteps ?? []) session.say(`  - ${step}`);
          }
        });
        return;
      }
      const page = await session.run('withdrawals/list', {
        ...(options.state !== undefined ? { state: options.state } : {}),
        limit: options.limit,
        ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
      });
      session.output(page, () => {
        if (page.rows.length === 0) return session.say('no withdrawal requests match');
        io.stdout(
          table(
            ['id', 'state', 'currency', 'amount', 'to', 'initiator', 'approvals', `requested (${session.timeZone})`, 'batch payout'],
            page.rows.map((row) => [
              row.id,
              stateText(row),
              row.currency,
              row.amount,
              addressWithPayee(row.toAddress, row.payee),
              row.initiator,
              approvalsText(row),
              session.time(row.createdAt),
              row.batch === null ? '-' : batchLineText(row.batch),
            ]),
            ['right', 'left', 'left', 'right'],
          ),
        );
        if (page.nextCursor !== null) io.stderr(`more requests: add --cursor ${page.nextCursor}\n`);
      });
    });
  });

  addEngineOptions(
    withdraw
      .command('export')
      .description('Write the withdrawal requests, newest first, to a CSV file (times in the reporting time zone with their offset, amounts exactly as stored)')
      .option('--state <state>', `only this state: ${WITHDRAWAL_STATES.join(', ')}`)
      .requiredOption('--csv <file>', 'the CSV file to write (replaced whole)'),
  ).action(async (options: { readonly state?: string; readonly csv: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const request = { ...(options.state !== undefined ? { state: options.state } : {}), path: resolve(options.csv) };
      const written = await session.run('withdrawals/exportCsv', request, { path: '--csv', state: '--state' });
      session.output(written, () => session.say(`wrote ${written.rows} withdrawal request${written.rows === 1 ? '' : 's'} to ${written.path}`));
    });
  });
};
