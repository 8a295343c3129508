// `treasury-desk addressbook prove CHAIN ADDRESS | proof CHAIN ADDRESS`: proof that a payee controls a book address by a
// reverse micro-deposit (issue 21 item 2). `prove` starts or retries it and prints what to tell the payee; `proof` says
// where it stands ("control proven on DATE by deposit TXID" and which workstation proved it, waiting, a proof another
// workstation reports that this one has not verified yet, or why a deposit did not prove it).
import type { Command } from 'commander';
import { controlProofReportText, controlProofSignerText, type ControlProofView, controlStandingText } from '../../contract';
import { addEngineOptions, type EngineSession, withSession } from '../engine-session';
import type { CliIo } from '../io';

function printProof(session: EngineSession, view: ControlProofView): void {
  session.output(view, () => {
    session.say(`${view.chain}:${view.address}: ${controlStandingText(view.standing, (ms) => session.time(ms))}`);
    if (!view.chainCanProve) {
      session.say(view.chainReason);
      return;
    }
    if (view.request !== null) {
      session.say(`proof deposit address ${view.request.depositAddress} (userOrder ${view.request.userOrder}), asked by ${view.request.requestedBy} on ${session.time(view.request.requestedAt)}`);
    }
    if (view.instructions !== null) session.say(view.instructions);
    if (view.evidence !== null) session.say(`evidence: deposit ${view.evidence.txid} of ${view.evidence.amount} ${view.evidence.currency} from ${view.evidence.fromAddress}`);
    if (view.provenBy !== null) session.say(`proven by ${controlProofSignerText(view.provenBy)}`);
    for (const report of view.reported) session.say(`NOT PROVEN HERE: ${controlProofReportText(report, (ms) => session.time(ms))}`);
    for (const deposit of view.deposits) session.say(`deposit ${deposit.txid} (${deposit.amount} ${deposit.currency}) does not prove it: ${deposit.refusal ?? 'it was not taken as a proof'}`);
    for (const refusal of view.refused) session.say(`REFUSED: ${refusal}`);
    if (view.status === 'none') session.say(`no proof was asked: "treasury-desk addressbook prove ${view.chain} ${view.address} --as OPERATOR" starts one`);
  });
}

/** Adds `prove` and `proof` to the `addressbook` command. */
export function registerControlProofCommands(book: Command, io: CliIo): void {
  addEngineOptions(
    book
      .command('prove')
      .description('Prove that the payee controls a book address: a deposit address is made for it, and the payee sends the deposit minimum from the address')
      .argument('<chain>', 'trx, eth, bnb or solana (TON cannot prove it)')
      .argument('<address>', 'the book address')
      .requiredOption('--as <operator>', 'the operator asking (asked for a passphrase)'),
  ).action(async (chain: string, address: string, options: { readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      printProof(session, await session.runAs('addressbook/prove', { chain, address }, options.as, { chain: 'CHAIN', address: 'ADDRESS' }));
    });
  });

  addEngineOptions(
    book
      .command('proof')
      .description('Where the proof of control of a book address stands')
      .argument('<chain>', 'trx, eth, bnb, solana or ton')
      .argument('<address>', 'the book address'),
  ).action(async (chain: string, address: string, _options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      printProof(session, await session.run('addressbook/proof', { chain, address }, { chain: 'CHAIN', address: 'ADDRESS' }));
    });
  });
}
