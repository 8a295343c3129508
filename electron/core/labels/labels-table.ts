// Labels and notes on deposits (ref = apiOrder), withdrawals (ref = userOrder) and deposit addresses (ref = the
// address), per profile, with who set them and when: hints for people, never inputs to decisions. Address-book
// entries keep theirs in address_book (address-book.ts). An empty label with no note removes the row.
import { perDatabase, type ReadableDB, type WritableDB } from '../store/database';

export const STORED_LABEL_TYPES = ['deposit', 'withdrawal', 'addr'] as const;
export type StoredLabelType = (typeof STORED_LABEL_TYPES)[number];

export interface LabelRecord {
  readonly type: StoredLabelType;
  readonly ref: string;
  readonly label: string;
  readonly note: string | null;
  readonly updatedAt: number;
  readonly updatedBy: string;
}

interface LabelRow {
  type: StoredLabelType;
  ref: string;
  label: string;
  note: string | null;
  updated_at: number;
  updated_by: string;
}

const COLUMNS = 'type, ref, label, note, updated_at, updated_by';
/** The most rows one search answers. */
export const LABEL_SEARCH_LIMIT = 500;

function toRecord(row: LabelRow): LabelRecord {
  return { type: row.type, ref: row.ref, label: row.label, note: row.note, updatedAt: row.updated_at, updatedBy: row.updated_by };
}

/** A label or note containing @text, case-insensitive: what a search and a list's label filter match. */
const CONTAINS_TEXT = "(instr(lower(label), lower(@text)) > 0 OR instr(lower(coalesce(note, '')), lower(@text)) > 0)";

const statements = perDatabase((db) => ({
  upsert: db.prepare(
    `INSERT INTO labels (profile, type, ref, label, note, updated_at, updated_by) VALUES (@profile, @type, @ref, @label, @note, @now, @by)
     ON CONFLICT (profile, type, ref) DO UPDATE SET label = excluded.label, note = excluded.note, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
  ),
  remove: db.prepare('DELETE FROM labels WHERE profile = ? AND type = ? AND ref = ?'),
  one: db.prepare(`SELECT ${COLUMNS} FROM labels WHERE profile = ? AND type = ? AND ref = ?`),
  all: db.prepare(`SELECT ${COLUMNS} FROM labels WHERE profile = ? ORDER BY type, ref`),
  search: db.prepare(
    `SELECT ${COLUMNS} FROM labels WHERE profile = @profile AND (@type IS NULL OR type = @type) AND ${CONTAINS_TEXT}
     ORDER BY updated_at DESC, type, ref LIMIT ${LABEL_SEARCH_LIMIT}`,
  ),
  refs: db.prepare(`SELECT ref FROM labels WHERE profile = @profile AND type = @type AND ${CONTAINS_TEXT}`).pluck(),
}));

/** Sets (or, with an empty label and no note, removes) the label of one record. */
export function saveLabel(
  db: WritableDB,
  profile: string,
  entry: { readonly type: StoredLabelType; readonly ref: string; readonly label: string; readonly note: string | null },
  by: string,
  now: number,
): void {
  if (entry.label === '' && entry.note === null) statements(db).remove.run(profile, entry.type, entry.ref);
  else statements(db).upsert.run({ profile, ...entry, by, now });
}

export function getLabel(db: ReadableDB, profile: string, type: StoredLabelType, ref: string): LabelRecord | undefined {
  const row = statements(db).one.get(profile, type, ref) as LabelRow | undefined;
  return row === undefined ? undefined : toRecord(row);
}

/** Every label of the profile (for export), by type then ref. */
export function listLabels(db: ReadableDB, profile: string): LabelRecord[] {
  return (statements(db).all.all(profile) as LabelRow[]).map(toRecord);
}

/** Labels whose text or note contains `text` (case-insensitive), newest first, at most LABEL_SEARCH_LIMIT. */
export function searchLabels(db: ReadableDB, profile: string, text: string, type?: StoredLabelType): LabelRecord[] {
  return (statements(db).search.all({ profile, text, type: type ?? null }) as LabelRow[]).map(toRecord);
}

/**
 * What a list's label filter keeps: every ref of one type whose label or note contains `text` (case-insensitive);
 * undefined when there is no filter (`text` missing or blank).
 */
export function labelledRefs(db: ReadableDB, profile: string, type: StoredLabelType, text: string | undefined): string[] | undefined {
  const wanted = text?.trim() ?? '';
  if (wanted === '') return undefined;
  return statements(db).refs.all({ profile, type, text: wanted }) as string[];
}
