// The withdrawal address book: destinations per (profile, chain) with a label and how often and when they were used.
// Addresses are stored as given; normalising them (e.g. EVM case) is the caller's job with the chains rules. The label
// and note here are the one place a book entry's label lives (`addressbook label` and `labels set book` both write it).
import { perDatabase, type ReadableDB, type WritableDB } from '../store/database';
import { invalidArgument } from '../store/errors';

export interface AddressBookEntry {
  readonly id: number;
  readonly profile: string;
  readonly chain: string;
  readonly address: string;
  readonly label: string | null;
  readonly note: string | null;
  readonly createdAt: number;
  readonly firstUsedAt: number | null;
  readonly lastUsedAt: number | null;
  readonly useCount: number;
}

interface EntryRow {
  id: number;
  profile: string;
  chain: string;
  address: string;
  label: string | null;
  note: string | null;
  created_at: number;
  first_used_at: number | null;
  last_used_at: number | null;
  use_count: number;
}

const COLUMNS = 'id, profile, chain, address, label, note, created_at, first_used_at, last_used_at, use_count';

function toEntry(row: EntryRow): AddressBookEntry {
  return {
    id: row.id,
    profile: row.profile,
    chain: row.chain,
    address: row.address,
    label: row.label,
    note: row.note,
    createdAt: row.created_at,
    firstUsedAt: row.first_used_at,
    lastUsedAt: row.last_used_at,
    useCount: row.use_count,
  };
}

const statements = perDatabase((db) => ({
  save: db.prepare(
    `INSERT INTO address_book (profile, chain, address, label, created_at) VALUES (@profile, @chain, @address, @label, @now)
     ON CONFLICT (profile, chain, address) DO UPDATE SET label = excluded.label
     RETURNING ${COLUMNS}`,
  ),
  use: db.prepare(
    `INSERT INTO address_book (profile, chain, address, created_at, first_used_at, last_used_at, use_count)
     VALUES (@profile, @chain, @address, @now, @now, @now, 1)
     ON CONFLICT (profile, chain, address) DO UPDATE SET
       first_used_at = COALESCE(first_used_at, excluded.first_used_at),
       last_used_at = MAX(COALESCE(last_used_at, excluded.last_used_at), excluded.last_used_at),
       use_count = use_count + 1
     RETURNING ${COLUMNS}`,
  ),
  one: db.prepare(`SELECT ${COLUMNS} FROM address_book WHERE profile = ? AND chain = ? AND address = ?`),
  all: db.prepare(`SELECT ${COLUMNS} FROM address_book WHERE profile = ? ORDER BY last_used_at DESC NULLS LAST, id DESC`),
  byChain: db.prepare(`SELECT ${COLUMNS} FROM address_book WHERE profile = ? AND chain = ? ORDER BY last_used_at DESC NULLS LAST, id DESC`),
  relabel: db.prepare(`UPDATE address_book SET label = @label, note = @note WHERE profile = @profile AND chain = @chain AND address = @address RETURNING ${COLUMNS}`),
  remove: db.prepare('DELETE FROM address_book WHERE profile = ? AND chain = ? AND address = ?'),
}));

function checkAddress(chain: string, address: string): void {
  if (chain === '' || address === '') throw invalidArgument('address book entries need a chain and an address');
}

/** Adds an entry, or relabels an existing one. */
export function saveAddressBookEntry(
  db: WritableDB,
  profile: string,
  entry: { readonly chain: string; readonly address: string; readonly label?: string | null },
  now: number = Date.now(),
): AddressBookEntry {
  checkAddress(entry.chain, entry.address);
  return toEntry(statements(db).save.get({ profile, chain: entry.chain, address: entry.address, label: entry.label ?? null, now }) as EntryRow);
}

/** Counts one withdrawal to this address (adding it, unlabelled, if new). */
export function recordAddressUse(db: WritableDB, profile: string, chain: string, address: string, now: number = Date.now()): AddressBookEntry {
  checkAddress(chain, address);
  return toEntry(statements(db).use.get({ profile, chain, address, now }) as EntryRow);
}

export function getAddressBookEntry(db: ReadableDB, profile: string, chain: string, address: string): AddressBookEntry | undefined {
  const row = statements(db).one.get(profile, chain, address) as EntryRow | undefined;
  return row === undefined ? undefined : toEntry(row);
}

/** Entries most recently used first (never-used ones last). */
export function listAddressBook(db: ReadableDB, profile: string, chain?: string): AddressBookEntry[] {
  const s = statements(db);
  const rows = (chain === undefined ? s.all.all(profile) : s.byChain.all(profile, chain)) as EntryRow[];
  return rows.map(toEntry);
}

/** Sets an existing entry's label and note (null clears them); undefined when there is no such entry. */
export function setAddressBookLabel(
  db: WritableDB,
  profile: string,
  entry: { readonly chain: string; readonly address: string; readonly label: string | null; readonly note: string | null },
): AddressBookEntry | undefined {
  const row = statements(db).relabel.get({ profile, ...entry }) as EntryRow | undefined;
  return row === undefined ? undefined : toEntry(row);
}

export function deleteAddressBookEntry(db: WritableDB, profile: string, chain: string, address: string): boolean {
  return statements(db).remove.run(profile, chain, address).changes === 1;
}
