// `treasury-desk payees list | show | add | add-address | remove-address | import | approve`: counterparties with a
// name, a note and addresses on any chains (issue 21). Adding payees (one, or a CSV as one batch) and adding an address
// waits for an independent operator's approval, like a book addition; names are display text, shown escaped.
import type { Command } from 'commander';
import { escapeSingleLine, type PayeesView, type PayeeView } from '../../contract';
import { addEngineOptions, withSession, type EngineSession } from '../engine-session';
import { fields, table } from '../format';
import type { CommandRegistrar } from '../program';
import { resolveProposalId, shortProposal } from '../proposals';

interface AsOptions {
  readonly as: string;
}

function addressState(session: EngineSession, address: PayeeView['addresses'][number]): string {
  return address.approved ? `yes (${[address.addedBy, address.approvedBy].filter(Boolean).join(' + ')})` : `takes effect ${session.time(address.since)} (vetoable)`;
}

function printPayees(session: EngineSession, view: PayeesView, io: { stdout(text: string): void }): void {
  session.output(view, () => {
    io.stdout(table(['payee', 'note', 'addresses', 'chains'], view.payees.map((payee) => [payee.name, payee.note, String(payee.addresses.length), [...new Set(payee.addresses.map((entry) => entry.chain))].join(' ')])));
    for (const pending of view.pending) {
      const names = pending.payees.map((payee) => `${escapeSingleLine(payee.name)} (${payee.addresses.map((entry) => `${entry.chain}:${entry.address}`).join(', ')})`).join('; ');
      session.say(`waiting for approval: ${names}, by ${pending.proposer} (proposal ${shortProposal(pending.proposal)}; "treasury-desk payees approve ${shortProposal(pending.proposal)} --as OPERATOR")`);
    }
    if (view.notice) session.say(view.notice);
  });
}

const chainOption = '--chain <chain>';
const chainHelp = 'trx, eth, bnb, solana or ton';

/** `chain:address` as typed for `--address` (repeatable). */
function parseAddressOption(value: string, previous: { chain: string; address: string }[] = []): { chain: string; address: string }[] {
  const colon = value.indexOf(':');
  return [...previous, colon < 1 ? { chain: '', address: value } : { chain: value.slice(0, colon).trim(), address: value.slice(colon + 1).trim() }];
}

export const registerPayeeCommands: CommandRegistrar = (program, io) => {
  const payees = program.command('payees').description('Payees: counterparties with addresses on any chains, added and approved four-eyes like the address book');

  addEngineOptions(payees.command('list').description('Payees with their addresses, and the batches waiting for approval')).action(async (_options: unknown, command: Command) => {
    await withSession(command, io, async (session) => printPayees(session, await session.run('payees/list', {}), io));
  });

  addEngineOptions(payees.command('show').description("One payee's addresses and who added and approved them").argument('<payee>', 'its name or id')).action(async (payee: string, _options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const view = await session.run('payees/show', { payee }, { payee: 'PAYEE' });
      session.output(view, () => {
        io.stdout(fields([['payee', view.name], ['id', view.id], ['note', view.note], ['added by', [view.addedBy, view.approvedBy].filter(Boolean).join(' + ')], ['since', session.time(view.since)]]));
        io.stdout(table(['chain', 'address', 'in book'], view.addresses.map((address) => [address.chain, address.address, addressState(session, address)])));
      });
    });
  });

  addEngineOptions(
    payees
      .command('add')
      .description('Propose a payee with its addresses (one signed batch); another, independent operator approves it')
      .argument('<name>', 'the payee name (unique in any letter case)')
      .requiredOption('--address <chain:address>', 'an address of the payee, e.g. eth:0x…; repeat for each', parseAddressOption)
      .option('--note <text>', 'a note')
      .requiredOption('--as <operator>', 'the initiator or admin doing it (asked for a passphrase)'),
  ).action(async (name: string, options: AsOptions & { readonly address: { chain: string; address: string }[]; readonly note?: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const request = { name, addresses: options.address, ...(options.note === undefined ? {} : { note: options.note }) };
      printPayees(session, await session.runAs('payees/add', request, options.as, { name: 'NAME', addresses: '--address', note: '--note' }), io);
    });
  });

  addEngineOptions(
    payees
      .command('add-address')
      .description('Propose one more address for a payee; it waits for its own approval')
      .argument('<payee>', 'its name or id')
      .argument('<address>', 'the address exactly as it is paid')
      .requiredOption(chainOption, chainHelp)
      .requiredOption('--as <operator>', 'the initiator or admin doing it (asked for a passphrase)'),
  ).action(async (payee: string, address: string, options: AsOptions & { readonly chain: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      printPayees(session, await session.runAs('payees/addAddress', { payee, chain: options.chain, address }, options.as, { payee: 'PAYEE', chain: '--chain', address: 'ADDRESS' }), io);
    });
  });

  addEngineOptions(
    payees
      .command('remove-address')
      .description('Remove an address from the book and so from its payee (at once: it only restricts)')
      .argument('<address>', 'the address')
      .requiredOption(chainOption, chainHelp)
      .requiredOption('--as <operator>', 'the initiator or admin doing it (asked for a passphrase)'),
  ).action(async (address: string, options: AsOptions & { readonly chain: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      await session.runAs('addressbook/remove', { chain: options.chain, address }, options.as, { chain: '--chain', address: 'ADDRESS' });
      printPayees(session, await session.run('payees/list', {}), io);
    });
  });

  addEngineOptions(
    payees
      .command('import')
      .description('Import payees from a CSV (name,note,chain,address; one address a line) as one signed batch, or nothing')
      .argument('<file>', 'the CSV file (UTF-8)')
      .requiredOption('--as <operator>', 'the initiator or admin doing it (asked for a passphrase)'),
  ).action(async (file: string, options: AsOptions, command: Command) => {
    await withSession(command, io, async (session) => {
      printPayees(session, await session.runAs('payees/import', { path: file }, options.as, { path: 'FILE' }), io);
    });
  });

  addEngineOptions(
    payees
      .command('approve')
      .description('Approve a payees batch or a payee address (an approver or admin independent of who proposed it)')
      .argument('<proposal>', 'the proposal id, or a unique prefix of at least 8, as "payees list" shows it')
      .requiredOption('--as <operator>', 'the approving operator (asked for a passphrase)'),
  ).action(async (typed: string, options: AsOptions, command: Command) => {
    await withSession(command, io, async (session) => {
      const proposal = resolveProposalId(typed, (await session.run('operators/list', {})).proposals.filter((entry) => entry.kind === 'payees' || entry.kind === 'book'));
      await session.runAs('addressbook/approve', { proposal }, options.as);
      printPayees(session, await session.run('payees/list', {}), io);
    });
  });
};
