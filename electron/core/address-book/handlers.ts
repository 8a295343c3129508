// The address-book feature (addressbook/*): the withdrawal destinations the desk has seen and the ones signed
// statements put in the book. An addition is an operator's `book` proposal that takes effect when an operator of an
// independent party approves it (at once on a desk without two independent admins, which the answer says); a removal
// is an `unbook` statement. Whether an address is in the book is read from the roster (statements), never from a row;
// the address_book row keeps what the desk saw (uses, first and last use) and the entry's label and note.
import { isChain, sameAddress, validateAddress, type Chain } from '../../chains';
import type { AddressBookEntryView, AddressBookView, TreasuryHandlers } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import { DeskError } from '../kernel/errors';
import { actingAs, signAction, signRosterStatement } from '../operators';
import { disjoint, parseBookSubject, type Roster, type ScheduledChange } from '../ledger';
import {
  deleteAddressBookEntry,
  listAddressBook,
  saveAddressBookEntry,
  setAddressBookLabel,
  type AddressBookEntry,
} from './address-book-table';
import type { Handle } from '../kernel/handle';

export interface AddressBookFeatureDeps {
  readonly context: Kernel & AuditRecorder & ProfileSelection;
}

const ALONE_NOTICE =
  'This desk has no two independent admins, so an address-book addition takes effect on one operator’s word: with the “only from book” policy, that is not four-eyes.';

/** The desk's row for an address of the chain (an EVM address in any letter case), if it has one. */
export function findBookRow(context: Kernel & AuditRecorder & ProfileSelection, profile: string, chain: Chain, address: string): AddressBookEntry | undefined {
  return listAddressBook(context.db, profile, chain).find((entry) => sameAddress(entry.address, address, chain));
}

export function checkAddress(chain: Chain, address: string): void {
  const check = validateAddress(chain, address);
  if (!check.valid) throw new DeskError('invalidInput', `${address.slice(0, 100)} is not a ${chain} address: ${check.reason}`, { address: check.reason });
}

/**
 * Sets the label and note of a book entry (the one place they live; `labels set book` and `addressbook label` both
 * come here), adding the desk's row for the address when it has none. Runs inside the caller's transaction.
 */
export function writeBookLabel(context: Kernel & AuditRecorder & ProfileSelection, profile: string, chain: Chain, address: string, label: string | null, note: string | null): AddressBookEntry {
  const row = findBookRow(context, profile, chain, address) ?? saveAddressBookEntry(context.db, profile, { chain, address }, context.now());
  const updated = setAddressBookLabel(context.db, profile, { chain, address: row.address, label, note });
  if (!updated) throw new DeskError('internal', `the address-book entry ${chain}:${address} disappeared`);
  return updated;
}

/**
 * The desk's row for an address proposed for the book (a `book` statement; inside its transaction): added when the
 * desk has none, with the proposal's label when it names one (null: none given). The proposal here, and a team
 * workstation applying one pulled from another.
 */
export function recordBookProposal(context: Kernel & AuditRecorder & ProfileSelection, profile: string, chain: Chain, address: string, label: string | null): void {
  const row = findBookRow(context, profile, chain, address);
  if (label !== null) writeBookLabel(context, profile, chain, address, label === '' ? null : label, row?.note ?? null);
  else if (!row) saveAddressBookEntry(context.db, profile, { chain, address }, context.now());
}

/** Removes the desk's row for an address (its label and what the desk saw), if it has one; inside the caller's transaction. */
export function forgetBookRow(context: Kernel & AuditRecorder & ProfileSelection, profile: string, chain: Chain, address: string): void {
  const row = findBookRow(context, profile, chain, address);
  if (row) deleteAddressBookEntry(context.db, profile, row.chain, row.address);
}

/** The book additions confirmed and waiting for the loosening delay at `now` (issue 20 part 4), from the signed roster. */
function scheduledAdditions(roster: Roster, now: number): { chain: Chain; address: string; change: ScheduledChange }[] {
  return roster.scheduledChanges(now).flatMap((change) => {
    const parsed = change.kind === 'book' ? parseBookSubject(change.subject) : null;
    return parsed === null || !isChain(parsed.chain) ? [] : [{ chain: parsed.chain, address: parsed.address, change }];
  });
}

function entryView(row: AddressBookEntry, roster: Roster, now: number, scheduled: ReturnType<typeof scheduledAdditions>): AddressBookEntryView {
  const signed = roster.bookEntry(row.chain, row.address, now);
  const waiting = signed === undefined ? scheduled.find((entry) => entry.chain === row.chain && sameAddress(entry.address, row.address, entry.chain))?.change : undefined;
  return {
    chain: row.chain,
    address: row.address,
    label: row.label,
    note: row.note,
    approved: signed !== undefined,
    addedBy: signed?.proposer ?? null,
    approvedBy: signed?.confirmedBy ?? null,
    approvedAt: signed?.since ?? null,
    scheduled: waiting === undefined ? null : { change: waiting.id, takesEffectAt: waiting.effectiveAt, addedBy: waiting.proposer, approvedBy: waiting.confirmedBy },
    firstSeenAt: row.createdAt,
    useCount: row.useCount,
    firstUsedAt: row.firstUsedAt,
    lastUsedAt: row.lastUsedAt,
  };
}

/**
 * The book of the active profile at the engine's clock: the desk's rows with their signed standing (in the book, or an
 * addition waiting for its delay), signed entries and scheduled additions whose row is gone, and additions waiting for approval.
 */
export function addressBookView(context: Kernel & AuditRecorder & ProfileSelection): AddressBookView {
  const profile = context.activeProfile().name;
  const roster = context.trail.roster(profile, { cached: true });
  const now = context.now();
  const scheduled = scheduledAdditions(roster, now);
  const rows = listAddressBook(context.db, profile);
  const entries = rows.map((row) => entryView(row, roster, now, scheduled));
  const signedOrScheduled = [...roster.bookEntries(now).map((signed) => ({ chain: signed.chain, address: signed.address, since: signed.since })), ...scheduled.map((entry) => ({ chain: entry.chain, address: entry.address, since: entry.change.appliedAt }))];
  for (const signed of signedOrScheduled) {
    if (entries.some((entry) => entry.chain === signed.chain && sameAddress(entry.address, signed.address, signed.chain as Chain))) continue;
    const unseen = { id: 0, profile, chain: signed.chain, address: signed.address, label: null, note: null, firstUsedAt: null, lastUsedAt: null, useCount: 0 };
    entries.push(entryView({ ...unseen, createdAt: signed.since }, roster, now, scheduled));
  }
  const pending = roster
    .openProposals()
    .filter((proposal) => proposal.kind === 'book')
    .map((proposal) => {
      const colon = proposal.subject.indexOf(':');
      return { proposal: proposal.id, chain: proposal.subject.slice(0, colon), address: proposal.subject.slice(colon + 1), proposer: proposal.proposer, at: proposal.at };
    });
  return { entries, pending, notice: roster.independentAdmins() ? null : ALONE_NOTICE };
}

export function addressBookHandlers(
  { context }: AddressBookFeatureDeps,
  handle: Handle,
): Pick<TreasuryHandlers, 'addressbook/list' | 'addressbook/add' | 'addressbook/approve' | 'addressbook/remove' | 'addressbook/label'> {
  const changed = (): AddressBookView => {
    context.emit({ type: 'operators/changed' });
    return addressBookView(context);
  };
  return {
    'addressbook/list': handle('addressbook/list', () => addressBookView(context)),

    'addressbook/add': handle('addressbook/add', async (request) => {
      checkAddress(request.chain, request.address);
      const acting = await actingAs(context, request.as, 'requestWithdrawal');
      if (acting.roster.bookEntry(request.chain, request.address)) throw new DeskError('conflict', `${request.chain}:${request.address} is already in the address book`);
      const waiting = acting.roster
        .openProposals()
        .find((proposal) => proposal.kind === 'book' && proposal.subject.startsWith(`${request.chain}:`) && sameAddress(proposal.subject.slice(request.chain.length + 1), request.address, request.chain));
      if (waiting) throw new DeskError('conflict', `${request.chain}:${request.address} already waits for approval (proposal ${waiting.id.slice(0, 12)}): approve it with addressbook approve`);
      const subject = `${request.chain}:${request.address}`;
      const label = request.label ?? null;
      await signRosterStatement(context, acting, { kind: 'book', subject, body: { label } }, () => recordBookProposal(context, acting.profile, request.chain, request.address, label));
      return changed();
    }),

    'addressbook/approve': handle('addressbook/approve', async (request) => {
      const acting = await actingAs(context, request.as, 'approveWithdrawal');
      const proposal = acting.roster.proposal(request.proposal);
      if ((proposal?.kind !== 'book' && proposal?.kind !== 'payees') || proposal.state !== 'open') throw new DeskError('notFound', 'there is no address-book addition or payees batch waiting with that id');
      if (!proposal.needsConfirmation) throw new DeskError('conflict', 'that addition needs no approval');
      const proposer = acting.roster.at(proposal.proposer);
      if (!proposer || !disjoint(proposer.party, acting.snapshot.party)) {
        throw new DeskError('forbidden', `${acting.name} is not independent of ${proposal.proposer}, who proposed the addition: another operator must approve it`);
      }
      await signRosterStatement(context, acting, { kind: 'confirm', subject: proposal.subject, body: { proposal: proposal.id } });
      return changed();
    }),

    'addressbook/remove': handle('addressbook/remove', async (request) => {
      const acting = await actingAs(context, request.as, 'requestWithdrawal');
      const signed = acting.roster.bookEntry(request.chain, request.address);
      const row = findBookRow(context, acting.profile, request.chain, request.address);
      if (!signed && !row) throw new DeskError('notFound', `${request.chain}:${request.address} is not in the address book`);
      const forget = (): void => forgetBookRow(context, acting.profile, request.chain, request.address);
      if (signed) await signRosterStatement(context, acting, { kind: 'unbook', subject: signed.subject, body: {} }, forget);
      else await signAction(acting, 'addressbook/forget', `${request.chain}:${request.address}`, { address: row?.address ?? request.address }, forget);
      return changed();
    }),

    'addressbook/label': handle('addressbook/label', async (request) => {
      const acting = await actingAs(context, request.as, 'editLabels');
      if (!acting.roster.bookEntry(request.chain, request.address) && !findBookRow(context, acting.profile, request.chain, request.address)) {
        throw new DeskError('notFound', `${request.chain}:${request.address} is not in the address book: add it first (addressbook add)`);
      }
      const label = request.label === '' ? null : request.label;
      const note = request.note === undefined || request.note === '' ? null : request.note;
      await signAction(acting, 'addressbook/label', `${request.chain}:${request.address}`, { label, note }, () => {
        writeBookLabel(context, acting.profile, request.chain, request.address, label, note);
      });
      return changed();
    }),
  };
}
