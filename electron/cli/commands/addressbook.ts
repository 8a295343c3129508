// `treasury-desk addressbook list | add | approve | label | remove`: the withdrawal address book. An addition waits for
// an independent operator's `addressbook approve` (at once on a desk without two independent admins: the answer says
// so); the "only from book" and "new destination waits" policy options (`policy set`) read the approved entries.
import type { Command } from 'commander';
import type { AddressBookView } from '../../contract';
import { addEngineOptions, withSession, type EngineSession } from '../engine-session';
import { table } from '../format';
import type { CommandRegistrar } from '../program';
import { resolveProposalId, shortProposal } from '../proposals';
import { registerControlProofCommands } from './control-proof';

interface AsOptions {
  readonly as: string;
}

function printBook(session: EngineSession, book: AddressBookView, io: { stdout(text: string): void }): void {
  session.output(book, () => {
    io.stdout(
      table(
        ['chain', 'address', 'label', 'in book', 'uses', 'last use'],
        book.entries.map((entry) => [
          entry.chain,
          entry.address,
          entry.label ?? '',
          entry.approved
            ? `yes (${[entry.addedBy, entry.approvedBy].filter(Boolean).join(' + ')})`
            : entry.scheduled === null
              ? 'no'
              : `takes effect ${session.time(entry.scheduled.takesEffectAt)} (${shortProposal(entry.scheduled.change)}, vetoable)`,
          String(entry.useCount),
          entry.lastUsedAt === null ? 'never' : session.time(entry.lastUsedAt),
        ]),
      ),
    );
    for (const pending of book.pending) {
      session.say(`waiting for approval: ${pending.chain}:${pending.address}, added by ${pending.proposer} (proposal ${shortProposal(pending.proposal)}; "treasury-desk addressbook approve ${shortProposal(pending.proposal)} --as OPERATOR")`);
    }
    if (book.notice) session.say(book.notice);
  });
}

const chainOption = '--chain <chain>';
const chainHelp = 'trx, eth, bnb, solana or ton';

export const registerAddressBookCommands: CommandRegistrar = (program, io) => {
  const book = program.command('addressbook').description('The withdrawal address book: list, add (approved four-eyes), label, remove, prove control');

  addEngineOptions(book.command('list').description('Entries with label, use count and last use, and the additions waiting for approval')).action(async (_options: unknown, command: Command) => {
    await withSession(command, io, async (session) => printBook(session, await session.run('addressbook/list', {}), io));
  });

  addEngineOptions(
    book
      .command('add')
      .description('Propose an address for the book; another, independent operator approves it')
      .argument('<address>', 'the address exactly as it is paid')
      .requiredOption(chainOption, chainHelp)
      .option('--label <text>', 'a label for it')
      .requiredOption('--as <operator>', 'the initiator or admin doing it (asked for a passphrase)'),
  ).action(async (address: string, options: AsOptions & { readonly chain: string; readonly label?: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const answer = await session.runAs('addressbook/add', { chain: options.chain, address, ...(options.label === undefined ? {} : { label: options.label }) }, options.as, { chain: '--chain', address: 'ADDRESS', label: '--label' });
      printBook(session, answer, io);
    });
  });

  addEngineOptions(
    book
      .command('approve')
      .description('Approve an address-book addition (an approver or admin independent of who added it)')
      .argument('<proposal>', 'the proposal id, or a unique prefix of at least 8, as "addressbook list" shows it')
      .requiredOption('--as <operator>', 'the approving operator (asked for a passphrase)'),
  ).action(async (typed: string, options: AsOptions, command: Command) => {
    await withSession(command, io, async (session) => {
      const proposal = resolveProposalId(typed, (await session.run('operators/list', {})).proposals.filter((entry) => entry.kind === 'book' || entry.kind === 'payees'));
      printBook(session, await session.runAs('addressbook/approve', { proposal }, options.as), io);
    });
  });

  addEngineOptions(
    book
      .command('label')
      .description("Set an entry's label (the same label \"labels set book chain:address\" writes); an empty TEXT removes it")
      .argument('<address>', 'the address')
      .argument('<text>', 'the label')
      .requiredOption(chainOption, chainHelp)
      .option('--note <text>', 'a longer note')
      .requiredOption('--as <operator>', 'the operator doing it (asked for a passphrase)'),
  ).action(async (address: string, text: string, options: AsOptions & { readonly chain: string; readonly note?: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const request = { chain: options.chain, address, label: text, ...(options.note === undefined ? {} : { note: options.note }) };
      printBook(session, await session.runAs('addressbook/label', request, options.as, { chain: '--chain', address: 'ADDRESS', label: 'TEXT' }), io);
    });
  });

  addEngineOptions(
    book
      .command('remove')
      .description('Remove an address from the book (it takes effect at once: it only restricts)')
      .argument('<address>', 'the address')
      .requiredOption(chainOption, chainHelp)
      .requiredOption('--as <operator>', 'the initiator or admin doing it (asked for a passphrase)'),
  ).action(async (address: string, options: AsOptions & { readonly chain: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      printBook(session, await session.runAs('addressbook/remove', { chain: options.chain, address }, options.as, { chain: '--chain', address: 'ADDRESS' }), io);
    });
  });
  registerControlProofCommands(book, io);
};
