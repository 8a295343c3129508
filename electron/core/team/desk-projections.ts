// The team database's projection rows for batch payouts, labels and the address book: what a statement that changes
// them writes beside itself, and what a workstation expects a row to say (computed the same way from its local tables,
// which only verified statements changed), so a row edited in the database is refused by name.
import { sameAddress, type Chain } from '../../chains';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import { findBookRow } from '../address-book';
import {
  getLabel,
  type LabelLine,
  parseBookRef,
  signedImportLines,
  signedLabelSet,
  STORED_LABEL_TYPES,
  type StoredLabelType,
} from '../labels';
import type { Roster, Statement } from '../ledger';
import { payoutBatchState } from '../payouts';
import { getPayoutBatchByHash, getWithdrawalRequestByUserOrder, type PayoutBatch } from '../withdrawals';
import { MAX_PROJECTION_KEY_LENGTH, type ProjectionTable, type ProjectionWrite } from './shared-store';

/** The parts of the desk this file's functions use (each its module's interface, built by that module; the engine passes them together: engine.ts deskParts). */
type DeskParts = Kernel & AuditRecorder & ProfileSelection & MerchantConnection;

/** The projection tables this module writes and checks. */
export const DESK_STATE_TABLES = ['payout_batches', 'labels', 'address_book'] as const satisfies readonly ProjectionTable[];
export type DeskStateTable = (typeof DESK_STATE_TABLES)[number];

/** An address's standing in the book: in force (signed and, where needed, confirmed), proposed, or neither. */
export type BookStanding = 'inForce' | 'proposed' | 'none';

export function batchProjection(context: DeskParts, batch: PayoutBatch): ProjectionWrite {
  return {
    table: 'payout_batches',
    key: `${batch.profile}/${batch.batchHash}`,
    row: {
      profile: batch.profile,
      batchHash: batch.batchHash,
      fingerprint: batch.fingerprint,
      lineCount: batch.lineCount,
      initiator: batch.initiator,
      state: payoutBatchState(context, batch),
    },
  };
}

/** A label on a deposit, withdrawal or deposit address; an absent one (removed) is an empty label with no note. */
export function labelProjection(context: DeskParts, profile: string, type: StoredLabelType, ref: string): ProjectionWrite {
  const record = getLabel(context.db, profile, type, ref);
  return { table: 'labels', key: `${profile}/${type}:${ref}`, row: { profile, type, ref, label: record?.label ?? '', note: record?.note ?? null } };
}

function bookStanding(roster: Roster, chain: Chain, address: string): BookStanding {
  if (roster.bookEntry(chain, address)) return 'inForce';
  const proposed = roster.openProposals().some((proposal) => {
    if (proposal.kind !== 'book') return false;
    const book = parseBookRef(proposal.subject);
    return typeof book !== 'string' && book.chain === chain && sameAddress(book.address, address, chain);
  });
  return proposed ? 'proposed' : 'none';
}

/** An address's book row: its label and note (the desk's row; null when it has none) and its standing from the roster. */
export function bookProjection(context: DeskParts, roster: Roster, profile: string, chain: Chain, address: string): ProjectionWrite {
  const row = findBookRow(context, profile, chain, address);
  return {
    table: 'address_book',
    key: `${profile}/${chain}:${address}`,
    row: { profile, chain, address, label: row?.label ?? null, note: row?.note ?? null, state: bookStanding(roster, chain, address) },
  };
}

function labelLineProjection(context: DeskParts, roster: () => Roster, profile: string, line: LabelLine): ProjectionWrite | null {
  if (line.type !== 'book') return labelProjection(context, profile, line.type as StoredLabelType, line.ref);
  const book = parseBookRef(line.ref);
  return typeof book === 'string' ? null : bookProjection(context, roster(), profile, book.chain, book.address);
}

/** The book ref (chain:address) a statement changes the standing or the row of, or null. */
function bookRefOf(statement: Statement, roster: () => Roster): string | null {
  if (statement.kind === 'book' || statement.kind === 'unbook') return statement.subject;
  if (statement.kind === 'action' && (statement.body['action'] === 'addressbook/forget' || statement.body['action'] === 'addressbook/label')) return statement.subject;
  if (statement.kind === 'confirm' || statement.kind === 'withdraw-proposal') {
    const id = statement.body['proposal'];
    const proposal = typeof id === 'string' ? roster().proposal(id) : undefined;
    return proposal?.kind === 'book' ? proposal.subject : null;
  }
  return null;
}

/**
 * The payout_batches, labels and address_book rows a verified statement implies (read after it was applied here):
 * a batch's request and decisions, a label set or import, a book proposal, its confirmation or withdrawal, an unbook,
 * an entry's label or forgetting. A row whose key would pass the database's limit is left out (never the append).
 */
export function deskStateProjectionsFor(context: DeskParts, statement: Statement): ProjectionWrite[] {
  const profile = statement.profile;
  if (profile === null) return [];
  let cachedRoster: Roster | undefined;
  const roster = (): Roster => (cachedRoster ??= context.trail.roster(profile));
  const writes: (ProjectionWrite | null)[] = [];
  // A batch decision is signed under the batch hash; an order status names a line, whose batch's state may move.
  const batchHash = statement.kind === 'system' ? (getWithdrawalRequestByUserOrder(context.db, statement.subject)?.batchHash ?? null) : statement.subject;
  const batch = batchHash === null ? undefined : getPayoutBatchByHash(context.db, profile, batchHash);
  if (batch) writes.push(batchProjection(context, batch));
  const bookRef = bookRefOf(statement, roster);
  const book = bookRef === null ? null : parseBookRef(bookRef);
  if (book !== null && typeof book !== 'string') writes.push(bookProjection(context, roster(), profile, book.chain, book.address));
  const action = statement.kind === 'action' ? statement.body['action'] : undefined;
  if (action === 'labels/set' || action === 'labels/import') {
    const lines = action === 'labels/set' ? signedLabelSet(statement.subject, statement.body['details']) : signedImportLines(statement.body['details']);
    if (typeof lines !== 'string') for (const line of Array.isArray(lines) ? lines : [lines]) writes.push(labelLineProjection(context, roster, profile, line));
  }
  return writes.filter((write): write is ProjectionWrite => write !== null && write.key.length <= MAX_PROJECTION_KEY_LENGTH);
}

/**
 * What this workstation's verified state says the row named by `row`'s identifying fields should be (null: no signed
 * statement made such a row). The caller compares every field and the key.
 */
export function expectedDeskStateRow(context: DeskParts, roster: (profile: string) => Roster, table: DeskStateTable, row: Readonly<Record<string, unknown>>): ProjectionWrite | null {
  const profile = row['profile'];
  if (typeof profile !== 'string') return null;
  if (table === 'payout_batches') {
    const batch = typeof row['batchHash'] === 'string' ? getPayoutBatchByHash(context.db, profile, row['batchHash']) : undefined;
    return batch ? batchProjection(context, batch) : null;
  }
  if (table === 'labels') {
    const stored = STORED_LABEL_TYPES.find((known) => known === row['type']);
    return stored === undefined || typeof row['ref'] !== 'string' ? null : labelProjection(context, profile, stored, row['ref']);
  }
  const book = typeof row['chain'] === 'string' && typeof row['address'] === 'string' ? parseBookRef(`${row['chain']}:${row['address']}`) : 'no chain:address';
  return typeof book === 'string' ? null : bookProjection(context, roster(profile), profile, book.chain, book.address);
}
