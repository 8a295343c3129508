// The labels file (docs/labels.md): JSON lines in the style of BIP-329, `{"type", "ref", "label", "note"?}` per line,
// adapted to this desk's records. Pure: writes one line per label, and reads a file by checking every line first
// (line numbers in every problem), so an import applies all lines or none.
import { isChain, validateAddress, type Chain } from '../../chains';
import { LABEL_MAX_LENGTH, LABEL_TYPES, NOTE_MAX_LENGTH, unsafeTextProblem, type LabelType } from '../../contract';

export interface LabelLine {
  readonly type: LabelType;
  readonly ref: string;
  readonly label: string;
  readonly note: string | null;
}

/** The largest labels file read (a desk's labels are small; a larger file is a mistake). */
export const LABELS_FILE_MAX_BYTES = 8 * 1024 * 1024;
/**
 * The most an import's signed statement carries (its lines, canonically encoded): the statement is the import, so a
 * team's other workstations apply it from the statement alone; a larger file is split into several imports.
 */
export const LABELS_IMPORT_STATEMENT_MAX_BYTES = 1024 * 1024;
/** How many problems an import reports before it stops listing them. */
const PROBLEMS_SHOWN = 10;
const USER_ORDER = /^[A-Za-z0-9_-]{1,64}$/;

/** `chain:address` of a book label, or why it is not one. */
export function parseBookRef(ref: string): { chain: Chain; address: string } | string {
  const colon = ref.indexOf(':');
  const chain = ref.slice(0, Math.max(colon, 0));
  if (colon < 1 || !isChain(chain)) return 'a book ref is chain:address, e.g. trx:TXYZ… (chains: trx, eth, bnb, solana, ton)';
  const address = ref.slice(colon + 1);
  const check = validateAddress(chain, address);
  return check.valid ? { chain, address } : `${address.slice(0, 80)} is not a ${chain} address: ${check.reason}`;
}

/** Why a label line's fields are not acceptable, or null. Shared by `labels set` and the import. */
export function labelProblem(line: LabelLine): string | null {
  if (!(LABEL_TYPES as readonly string[]).includes(line.type)) return `type must be one of ${LABEL_TYPES.join(', ')}`;
  const refProblem = unsafeTextProblem(line.ref, 'the ref');
  if (refProblem) return refProblem;
  if (line.ref === '' || line.ref.length > 200) return 'ref must be 1 to 200 characters';
  if (line.type === 'withdrawal' && !USER_ORDER.test(line.ref)) return 'a withdrawal ref is its userOrder: 1 to 64 letters, digits, "_" or "-"';
  if (line.type === 'book') {
    const book = parseBookRef(line.ref);
    if (typeof book === 'string') return book;
  }
  const labelProblemText = unsafeTextProblem(line.label, 'the label');
  if (labelProblemText) return labelProblemText;
  if (line.label.length > LABEL_MAX_LENGTH) return `a label is at most ${LABEL_MAX_LENGTH} characters`;
  if (line.note !== null) {
    const noteProblem = unsafeTextProblem(line.note, 'the note');
    if (noteProblem) return noteProblem;
    if (line.note.length > NOTE_MAX_LENGTH) return `a note is at most ${NOTE_MAX_LENGTH} characters`;
  }
  return null;
}

/** One line of the file (without its newline). */
export function labelLineText(line: LabelLine): string {
  return JSON.stringify(line.note === null ? { type: line.type, ref: line.ref, label: line.label } : { type: line.type, ref: line.ref, label: line.label, note: line.note });
}

function readLine(text: string): LabelLine | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not a JSON object';
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !['type', 'ref', 'label', 'note', 'origin'].includes(key));
  if (unknown.length > 0) return `unknown field${unknown.length === 1 ? '' : 's'} ${unknown.slice(0, 3).join(', ')} (a line has type, ref, label and optionally note)`;
  const { type, ref, label, note } = fields;
  if (typeof type !== 'string') return 'type is missing';
  if (typeof ref !== 'string') return 'ref is missing or not text';
  if (typeof label !== 'string') return 'label is missing or not text';
  if (note !== undefined && note !== null && typeof note !== 'string') return 'note is not text';
  const line: LabelLine = { type: type as LabelType, ref, label: label.normalize('NFC'), note: typeof note === 'string' && note !== '' ? note.normalize('NFC') : null };
  return labelProblem(line) ?? line;
}

/**
 * Reads a whole file: the lines, or every problem found ("line 3: …"), never some of each. Blank lines are skipped; a
 * UTF-8 byte order mark at the start (what many editors on Windows write) is skipped, as the payouts reader does.
 */
export function parseLabelsFile(text: string): { readonly lines: readonly LabelLine[] } | { readonly problems: readonly string[] } {
  const lines: LabelLine[] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  text.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '') return;
    const number = index + 1;
    const read = readLine(raw);
    if (typeof read === 'string') {
      problems.push(`line ${number}: ${read}`);
      return;
    }
    const key = `${read.type}\n${read.type === 'book' ? read.ref.toLowerCase() : read.ref}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) problems.push(`line ${number}: ${read.type} ${read.ref.slice(0, 80)} is labelled again (first on line ${earlier})`);
    else seen.set(key, number);
    lines.push(read);
  });
  if (problems.length > 0) {
    const more = problems.length > PROBLEMS_SHOWN ? [`and ${problems.length - PROBLEMS_SHOWN} more`] : [];
    return { problems: [...problems.slice(0, PROBLEMS_SHOWN), ...more] };
  }
  return { lines };
}

/** The lines an import's signed statement carries: `[type, ref, label, note]` each (note null when none). */
export function importedLinesOf(lines: readonly LabelLine[]): (string | null)[][] {
  return lines.map((line) => [line.type, line.ref, line.label, line.note]);
}

/** The label a `labels/set` statement signs (subject `type:ref`, details label and note), or why it is not one. */
export function signedLabelSet(subject: string, details: unknown): LabelLine | string {
  const colon = subject.indexOf(':');
  const fields = (details ?? {}) as Record<string, unknown>;
  if (colon < 1 || typeof fields['label'] !== 'string' || (fields['note'] !== null && typeof fields['note'] !== 'string')) return 'not a label statement (subject type:ref, label and note)';
  const line: LabelLine = { type: subject.slice(0, colon) as LabelType, ref: subject.slice(colon + 1), label: fields['label'], note: fields['note'] };
  return labelProblem(line) ?? line;
}

/** The lines a `labels/import` statement carries (importedLinesOf), or why they cannot be read (every line is checked first). */
export function signedImportLines(details: unknown): LabelLine[] | string {
  const carried = ((details ?? {}) as Record<string, unknown>)['lines'];
  if (!Array.isArray(carried)) return 'the import statement carries no lines (it was signed by a version that kept them at the importing workstation)';
  const lines: LabelLine[] = [];
  for (const [index, entry] of carried.entries()) {
    const [type, ref, label, note] = Array.isArray(entry) ? (entry as unknown[]) : [];
    const read = typeof type === 'string' && typeof ref === 'string' && typeof label === 'string' && (note === null || typeof note === 'string') ? { type: type as LabelType, ref, label, note } : null;
    const problem = read === null ? 'not [type, ref, label, note]' : labelProblem(read);
    if (problem !== null || read === null) return `line ${index + 1} of the import: ${problem ?? ''}`;
    lines.push(read);
  }
  return lines;
}
