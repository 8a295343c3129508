// `treasury-desk payouts ...`: batch payouts from a CSV (docs/payouts.md). import (every line preflighted; a file with
// a bad line is refused whole, naming each line), list, status (the batch intent's fingerprint, totals per currency
// with fees, flags, the policy, approvals and each line), approve / reject / cancel the whole batch as a named operator
// (shown with its fingerprint before the passphrase is asked), submit (line by line, safe to repeat: resumes after a
// crash without sending any line twice), and export of the results as CSV.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { PayoutBatchView, ResponseOf } from '../../contract';
import { wholeNumber } from '../args';
import { addEngineOptions, PLACEHOLDER, withSession, type EngineSession, type LooseRequest } from '../engine-session';
import { NegativeAnswer } from '../errors';
import { addressWithPayee, fields, orDash, table } from '../format';
import type { CommandRegistrar } from '../program';

const LABELS = { path: 'FILE', id: 'ID' } as const;
const EXPORT_LABELS = { path: '--csv', id: 'ID' } as const;

function batchLine(batch: PayoutBatchView): string {
  const totals = batch.totals.map((total) => `${total.total} ${total.currency}`).join(', ');
  return `batch ${batch.id}: ${batch.lineCount} line${batch.lineCount === 1 ? '' : 's'} (${totals} with fees) from ${batch.source}, requested by ${batch.initiator}; fingerprint ${batch.fingerprint}`;
}

function printBatch(session: EngineSession, batch: PayoutBatchView, withLines: boolean): void {
  session.io.stdout(
    fields([
      ['batch', batch.id],
      ['fingerprint', batch.fingerprint],
      ['state', batch.state],
      ['file', batch.source],
      ['initiator', batch.initiator],
      ['requested', session.time(batch.requestedAt)],
      ['lines', String(batch.lineCount)],
      ['approvals', `${batch.countedApprovals} of ${batch.requiredApprovals} counted`],
      ['verification', batch.verified ? 'ok: the signed statements support it' : 'not ok'],
    ]),
  );
  session.say('totals (fees included):');
  session.io.stdout(
    table(
      ['currency', 'lines', 'amount', 'fee', 'total'],
      batch.totals.map((total) => [total.currency, String(total.lines), total.amount, total.fee, total.total]),
      ['left', 'right', 'right', 'right', 'right'],
    ),
  );
  session.say('policy (the largest line decides the approvals; the daily limit caps the sum):');
  for (const policy of batch.policies) {
    const limit = policy.dailyLimit === null ? 'no daily limit' : `daily limit ${policy.dailyLimit}, ${policy.dailyLimitRemaining ?? '-'} left after this batch`;
    session.say(`  ${policy.currency}: largest line ${policy.largestLine} needs ${policy.approvalsForLargestLine} approval${policy.approvalsForLargestLine === 1 ? '' : 's'}; ${limit}; policy ${policy.reference.slice(0, 16)}`);
  }
  for (const flag of batch.flags) session.say(`flag: line ${flag.line}: ${flag.kind === 'newDestination' ? 'new destination' : 'look-alike'}: ${flag.detail}`);
  for (const problem of batch.problems) session.say(`  problem: ${problem}`);
  for (const approval of batch.approvals) {
    session.say(`  ${session.time(approval.at)}  ${approval.decision === 'approve' ? `approved by ${approval.operator}: ${approval.counts ? 'counts' : `does not count${approval.note === null ? '' : ` (${approval.note})`}`}` : `rejected by ${approval.operator}: ${approval.reason ?? ''}`}`);
  }
  const counts = Object.entries(batch.stateCounts).map(([state, count]) => `${count} ${state}`).join(', ');
  session.say(`lines: ${counts}`);
  if (withLines) {
    session.io.stdout(
      table(
        ['line', 'state', 'currency', 'amount', 'to', 'userOrder', 'status', 'apiOrder', 'error'],
        batch.lines.map((line) => [String(line.line), line.state, line.currency, line.amount, addressWithPayee(line.toAddress, line.payee), line.userOrder, orDash(line.orderStatus), orDash(line.apiOrder), orDash(line.error)]),
        ['right', 'left', 'left', 'right'],
      ),
    );
  }
}

type DecisionMethod = 'payouts/approve' | 'payouts/reject' | 'payouts/cancel';

/** The batch is read and shown with its fingerprint before the passphrase is asked. */
async function decide<M extends DecisionMethod | 'payouts/submit'>(session: EngineSession, method: M, verb: string, request: { readonly id: string; readonly reason?: string }, operator: string): Promise<ResponseOf<M>> {
  session.check(method, { ...request, as: { operator, passphrase: PLACEHOLDER } } as LooseRequest<M>, LABELS);
  const current = await session.run('payouts/get', { id: request.id }, LABELS);
  session.beforeAsking(`${verb} ${batchLine(current)}`);
  const as = await session.acting(operator);
  return session.run(method, { ...request, as } as LooseRequest<M>, LABELS);
}

export const registerPayoutCommands: CommandRegistrar = (program, io) => {
  const payouts = program.command('payouts').description('Batch payouts from a CSV: import, approve as a whole, submit line by line, track, export');

  addEngineOptions(
    payouts
      .command('import')
      .description('Import a CSV (columns currency, amount, toAddress, memo and optionally userOrder) as one batch; refused whole if any line is bad')
      .argument('<file>', 'the CSV file')
      .requiredOption('--as <operator>', 'the initiator (asked for a passphrase)'),
  ).action(async (file: string, options: { readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const batch = await session.runAs('payouts/import', { path: resolve(file) }, options.as, LABELS);
      session.output(batch, () => {
        session.say(`${batchLine(batch)}`);
        session.say(`${batch.requiredApprovals} approval${batch.requiredApprovals === 1 ? '' : 's'} needed; approvers compare the fingerprint with what they are shown`);
        printBatch(session, batch, false);
      });
    });
  });

  addEngineOptions(
    payouts
      .command('list')
      .description('List batches, newest first')
      .option('--limit <n>', 'rows per page (1 to 1000)', wholeNumber(1, 1000), 50)
      .option('--cursor <cursor>', 'continue after a previous page (its next cursor)'),
  ).action(async (options: { readonly limit: number; readonly cursor?: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const page = await session.run('payouts/list', { limit: options.limit, ...(options.cursor !== undefined ? { cursor: options.cursor } : {}) });
      session.output(page, () => {
        if (page.rows.length === 0) return session.say('no payout batches yet');
        io.stdout(
          table(
            ['id', 'state', 'lines', 'fingerprint', 'file', 'initiator', `requested (${session.timeZone})`],
            page.rows.map((row) => [row.id, row.state, String(row.lineCount), row.fingerprint, row.source, row.initiator, session.time(row.requestedAt)]),
            ['right', 'left', 'right'],
          ),
        );
        if (page.nextCursor !== null) io.stderr(`more batches: add --cursor ${page.nextCursor}\n`);
      });
    });
  });

  addEngineOptions(payouts.command('status').description('Show a batch: fingerprint, totals, flags, policy, approvals and every line').argument('<id>', 'the batch id')).action(
    async (id: string, _options: unknown, command: Command) => {
      await withSession(command, io, async (session) => {
        const batch = await session.run('payouts/get', { id }, LABELS);
        session.output(batch, () => printBatch(session, batch, true));
      });
    },
  );

  addEngineOptions(
    payouts.command('approve').description('Approve a whole batch (never your own)').argument('<id>', 'the batch id').requiredOption('--as <operator>', 'the approver (asked for a passphrase)'),
  ).action(async (id: string, options: { readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const batch = await decide(session, 'payouts/approve', 'Approving', { id }, options.as);
      session.output(batch, () => {
        session.say(`batch ${batch.id}: ${batch.state} (approvals ${batch.countedApprovals}/${batch.requiredApprovals} counted)`);
        if (batch.state === 'approved') session.say(`submit it with "treasury-desk payouts submit ${batch.id} --as OPERATOR"`);
      });
    });
  });

  addEngineOptions(
    payouts
      .command('reject')
      .description('Reject a whole batch (never your own); final')
      .argument('<id>', 'the batch id')
      .requiredOption('--reason <text>', 'why, for the initiator and the audit trail')
      .requiredOption('--as <operator>', 'the operator deciding (asked for a passphrase)'),
  ).action(async (id: string, options: { readonly as: string; readonly reason: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const batch = await decide(session, 'payouts/reject', 'Rejecting', { id, reason: options.reason }, options.as);
      session.output(batch, () => session.say(`batch ${batch.id}: ${batch.state}`));
    });
  });

  addEngineOptions(
    payouts
      .command('cancel')
      .description('Cancel the lines of a batch not yet sent (its initiator or an admin)')
      .argument('<id>', 'the batch id')
      .option('--reason <text>', 'why, for the audit trail')
      .requiredOption('--as <operator>', 'the operator cancelling (asked for a passphrase)'),
  ).action(async (id: string, options: { readonly as: string; readonly reason?: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const batch = await decide(session, 'payouts/cancel', 'Cancelling', { id, ...(options.reason !== undefined ? { reason: options.reason } : {}) }, options.as);
      session.output(batch, () => session.say(`batch ${batch.id}: ${batch.state}`));
    });
  });

  addEngineOptions(
    payouts
      .command('submit')
      .description('Send an approved batch line by line, each once its statements verify (safe to repeat: resumes without sending any line twice)')
      .argument('<id>', 'the batch id')
      .requiredOption('--as <operator>', 'the operator submitting, with the submit permission (asked for a passphrase)'),
  ).action(async (id: string, options: { readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const result = await decide(session, 'payouts/submit', 'Submitting', { id }, options.as);
      session.output(result, () => {
        session.say(`batch ${result.batch.id}: ${result.batch.state}; ${result.sent} line${result.sent === 1 ? '' : 's'} sent or settled in this run`);
        for (const failure of result.failures) session.say(`line ${failure.line} not sent: ${failure.error}`);
      });
      if (result.failures.length > 0) {
        throw new NegativeAnswer(`${result.failures.length} line${result.failures.length === 1 ? '' : 's'} of batch ${id} could not be sent: line ${result.failures.map((failure) => failure.line).join(', ')} ("payouts status ${id}" shows why)`);
      }
    });
  });

  addEngineOptions(
    payouts.command('export').description("Write the batch's results as CSV, one row per line").argument('<id>', 'the batch id').requiredOption('--csv <file>', 'the CSV file to write'),
  ).action(async (id: string, options: { readonly csv: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const written = await session.run('payouts/exportCsv', { id, path: resolve(options.csv) }, EXPORT_LABELS);
      session.output(written, () => session.say(`wrote ${written.rows} line${written.rows === 1 ? '' : 's'} to ${written.path}`));
    });
  });
};
