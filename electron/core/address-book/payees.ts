// The payees feature (payees/*, issue 21 item 1): counterparties with a name, a note and addresses on any chains. A
// payee is made by a signed `payees` batch (one payee from the CLI or app, a whole CSV from an import) that an
// independent operator approves like a book addition (addressbook/approve); a later address is a `book` proposal naming
// the payee; removing an address is addressbook/remove. Invariant: what a payee is and which addresses it has are read
// from the signed roster, never from a row; a bad request or file signs nothing.
import { randomUUID } from 'node:crypto';
import { sameAddress, type Chain } from '../../chains';
import type { PayeePendingView, PayeesView, PayeeView, TreasuryHandlers } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import { DeskError } from '../kernel/errors';
import { FileReadError, readRegularTextFile } from '../files/bounded-read';
import { actingAs, signRosterStatement, type ActingOperator } from '../operators';
import { parsePayees, PAYEES_SUBJECT, payeeNameKey, payeeNameProblem, type PayeeDraft, type PayeeInForce, type Roster } from '../ledger';
import { checkAddress, recordBookProposal } from './handlers';
import { PAYEE_FILE_MAX_BYTES, payeeTextProblem, readPayeeCsv, type PayeeLineProblem } from './payee-csv';
import type { Handle } from '../kernel/handle';

type Context = Kernel & AuditRecorder & ProfileSelection;

const ALONE_NOTICE = 'This desk has no two independent admins, so payees and their addresses take effect on one operator’s word: with the “only from book” policy, that is not four-eyes.';
const PROBLEMS_IN_MESSAGE = 20;

/** Every payee the roster holds (in force or waiting for the loosening delay), with its addresses from the signed book. */
function payeeViews(roster: Roster, now: number): PayeeView[] {
  const entries = roster.bookEntries(Number.POSITIVE_INFINITY);
  return roster.payees(Number.POSITIVE_INFINITY).map((payee) => ({
    id: payee.id,
    name: payee.name,
    note: payee.note,
    addedBy: payee.proposer,
    approvedBy: payee.confirmedBy,
    since: payee.since,
    addresses: entries
      .filter((entry) => entry.payee === payee.id)
      .map((entry) => ({ chain: entry.chain, address: entry.address, approved: entry.since <= now, addedBy: entry.proposer, approvedBy: entry.confirmedBy, since: entry.since })),
  }));
}

/** The payees batches and payee addresses waiting for approval. */
function pendingPayees(roster: Roster): PayeePendingView[] {
  return roster.openProposals().flatMap((proposal): PayeePendingView[] => {
    const base = { proposal: proposal.id, proposer: proposal.proposer, at: proposal.at };
    if (proposal.kind === 'payees') {
      const payees = parsePayees(proposal.body);
      return typeof payees === 'string' ? [] : [{ ...base, payees }];
    }
    const payeeId = proposal.body['payee'];
    if (proposal.kind !== 'book' || typeof payeeId !== 'string') return [];
    const payee = roster.payees(Number.POSITIVE_INFINITY).find((candidate) => candidate.id === payeeId);
    const colon = proposal.subject.indexOf(':');
    return [{ ...base, payees: [{ id: payeeId, name: payee?.name ?? payeeId, note: payee?.note ?? '', addresses: [{ chain: proposal.subject.slice(0, colon), address: proposal.subject.slice(colon + 1) }] }] }];
  });
}

export function payeesView(context: Context): PayeesView {
  const roster = context.trail.roster(context.activeProfile().name, { cached: true });
  return { payees: payeeViews(roster, context.now()), pending: pendingPayees(roster), notice: roster.independentAdmins() ? null : ALONE_NOTICE };
}

/** The payee named by id or by name (any letter case), in force or waiting for its delay. */
export function findPayee(roster: Roster, idOrName: string): PayeeInForce | undefined {
  const all = roster.payees(Number.POSITIVE_INFINITY);
  return all.find((payee) => payee.id === idOrName.trim()) ?? all.find((payee) => payeeNameKey(payee.name) === payeeNameKey(idOrName));
}

/** The payee an address of the book belongs to (its name), from the signed roster; null when it has none. */
export function payeeNameOf(roster: Roster, chain: string, address: string, now?: number): string | null {
  const payee = roster.bookEntry(chain, address, now)?.payee ?? null;
  return payee === null ? null : (roster.payee(payee, now)?.name ?? null);
}

/** The names a new payee must not repeat or look like: the payees held and those in batches waiting for approval. */
function takenNames(roster: Roster): string[] {
  return [...roster.payees(Number.POSITIVE_INFINITY).map((payee) => payee.name), ...pendingPayees(roster).flatMap((pending) => pending.payees.map((payee) => payee.name))];
}

/** Whether an address is in the book, waits for its delay, or waits for approval (alone or in a payees batch). */
function bookedOrWaiting(roster: Roster): (chain: string, address: string) => boolean {
  const waiting = [
    ...roster.openProposals().flatMap((proposal) => {
      if (proposal.kind !== 'book') return [];
      const colon = proposal.subject.indexOf(':');
      return [{ chain: proposal.subject.slice(0, colon), address: proposal.subject.slice(colon + 1) }];
    }),
    ...pendingPayees(roster).flatMap((pending) => pending.payees.flatMap((payee) => payee.addresses)),
  ];
  return (chain, address) => roster.bookEntry(chain, address, Number.POSITIVE_INFINITY) !== undefined || waiting.some((entry) => entry.chain === chain && sameAddress(entry.address, address, chain as Chain));
}

/** Signs one payees batch and keeps the desk's row of each address (what the desk saw), in one transaction. */
async function proposePayees(context: Context, acting: ActingOperator, payees: readonly PayeeDraft[]): Promise<void> {
  await signRosterStatement(context, acting, { kind: 'payees', subject: PAYEES_SUBJECT, body: { payees: payees.map((payee) => ({ ...payee, addresses: payee.addresses.map((entry) => ({ ...entry })) })) } }, () => {
    for (const payee of payees) for (const { chain, address } of payee.addresses) recordBookProposal(context, acting.profile, chain as Chain, address, null);
  });
}

function refuseLines(problems: readonly PayeeLineProblem[], lineCount: number): never {
  const shown = problems.slice(0, PROBLEMS_IN_MESSAGE).map((problem) => `line ${problem.line}: ${problem.message}`);
  const more = problems.length > PROBLEMS_IN_MESSAGE ? `; and ${problems.length - PROBLEMS_IN_MESSAGE} more` : '';
  const fields: Record<string, string> = {};
  for (const problem of problems) fields[`line ${problem.line}`] = problem.message;
  throw new DeskError(
    'invalidInput',
    `the payees were not imported (nothing was signed or stored): ${problems.length} of ${lineCount} line${lineCount === 1 ? '' : 's'} (line 1 is the first address after the header) need fixing: ${shown.join('; ')}${more}. Correct the file and import it again.`,
    fields,
  );
}

function readPayeeFile(path: string): string {
  try {
    return readRegularTextFile(path, PAYEE_FILE_MAX_BYTES);
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    const reason = error.code === 'notUtf8' ? 'it is not UTF-8 text: save it as CSV (UTF-8)' : error.code === 'tooLarge' ? `it ${error.reason}: split it into several files` : `it ${error.reason}`;
    throw new DeskError('invalidInput', `could not read the payee file ${path}: ${reason}`);
  }
}

export function payeesHandlers({ context }: { readonly context: Context }, handle: Handle): Pick<TreasuryHandlers, 'payees/list' | 'payees/show' | 'payees/add' | 'payees/addAddress' | 'payees/import'> {
  const changed = (): PayeesView => {
    context.emit({ type: 'operators/changed' });
    return payeesView(context);
  };
  return {
    'payees/list': handle('payees/list', () => payeesView(context)),

    'payees/show': handle('payees/show', (request) => {
      const roster = context.trail.roster(context.activeProfile().name, { cached: true });
      const payee = findPayee(roster, request.payee);
      const view = payee === undefined ? undefined : payeeViews(roster, context.now()).find((candidate) => candidate.id === payee.id);
      if (view === undefined) throw new DeskError('notFound', `there is no payee ${JSON.stringify(request.payee)}: payees list shows them`);
      return view;
    }),

    'payees/add': handle('payees/add', async (request) => {
      const name = request.name.trim().normalize('NFC');
      const note = (request.note ?? '').trim().normalize('NFC');
      const textProblem = payeeTextProblem(name, note);
      if (textProblem) throw new DeskError('invalidInput', textProblem);
      for (const { chain, address } of request.addresses) checkAddress(chain, address);
      const acting = await actingAs(context, request.as, 'requestWithdrawal');
      const nameProblem = payeeNameProblem(name, takenNames(acting.roster));
      if (nameProblem) throw new DeskError('conflict', nameProblem);
      const booked = bookedOrWaiting(acting.roster);
      request.addresses.forEach(({ chain, address }, index) => {
        if (booked(chain, address)) throw new DeskError('conflict', `${chain}:${address} is already in the address book or waits for approval: remove it from this payee, or from the book first`);
        if (request.addresses.slice(0, index).some((earlier) => earlier.chain === chain && sameAddress(earlier.address, address, chain))) throw new DeskError('invalidInput', `${chain}:${address} is listed twice`);
      });
      await proposePayees(context, acting, [{ id: randomUUID(), name, note, addresses: request.addresses.map(({ chain, address }) => ({ chain, address: address.trim() })) }]);
      return changed();
    }),

    'payees/addAddress': handle('payees/addAddress', async (request) => {
      checkAddress(request.chain, request.address);
      const acting = await actingAs(context, request.as, 'requestWithdrawal');
      const payee = findPayee(acting.roster, request.payee);
      if (payee === undefined) throw new DeskError('notFound', `there is no payee ${JSON.stringify(request.payee)}: payees list shows them (a payee waiting for approval is approved first)`);
      if (bookedOrWaiting(acting.roster)(request.chain, request.address)) throw new DeskError('conflict', `${request.chain}:${request.address} is already in the address book or waits for approval`);
      await signRosterStatement(context, acting, { kind: 'book', subject: `${request.chain}:${request.address}`, body: { label: null, payee: payee.id } }, () =>
        recordBookProposal(context, acting.profile, request.chain, request.address, null),
      );
      return changed();
    }),

    'payees/import': handle('payees/import', async (request) => {
      const text = readPayeeFile(request.path);
      const acting = await actingAs(context, request.as, 'requestWithdrawal');
      const reading = readPayeeCsv(text, { names: takenNames(acting.roster), booked: bookedOrWaiting(acting.roster) });
      if (!reading.ok) {
        if ('reason' in reading) throw new DeskError('invalidInput', `the payees were not imported (nothing was signed or stored): ${reading.reason}`);
        refuseLines(reading.problems, text.split(/\r?\n/).filter((line) => line.trim() !== '').length - 1);
      }
      await proposePayees(context, acting, reading.payees);
      return changed();
    }),
  };
}
