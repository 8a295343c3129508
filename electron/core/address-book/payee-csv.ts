// Reads a payee import CSV (docs/approvals.md "Payees"): columns name, note, chain, address, one address per line, the
// lines of one payee grouped by its name (any letter case); the file rules are batch payouts' (files/csv-table.ts).
// Pure: the payees the file lists, or every bad line named by number. Invariant: a file with any bad line yields no payee.
import { randomUUID } from 'node:crypto';
import { isChain, normalizeAddress, validateAddress } from '../../chains';
import { unsafeTextProblem } from '../../contract';
import { readCsvTable, CSV_CELL_MAX_CHARS } from '../files/csv-table';
import { MAX_ADDRESSES_PER_PAYEE, MAX_PAYEES_PER_BATCH, payeeNameKey, payeeNameProblem, type PayeeDraft } from '../ledger';

/** A payee file is refused larger than this, before it is read; its lines are bounded like a payout batch's. */
export const PAYEE_FILE_MAX_BYTES = 2 * 1024 * 1024;
export const PAYEE_MAX_LINES = 5000;
export const PAYEE_NAME_MAX = 120;
export const PAYEE_NOTE_MAX = 500;

const COLUMNS = ['name', 'note', 'chain', 'address'] as const;
type Column = (typeof COLUMNS)[number];

export interface PayeeLineProblem {
  readonly line: number;
  readonly message: string;
}

export type PayeeFileReading = { readonly ok: true; readonly payees: PayeeDraft[] } | { readonly ok: false; readonly reason: string } | { readonly ok: false; readonly problems: readonly PayeeLineProblem[] };

/** What the desk already holds that an import must not repeat: the payee names in force and the book's addresses. */
export interface PayeeImportContext {
  readonly names: readonly string[];
  readonly booked: (chain: string, address: string) => boolean;
}

/** Why a payee's name or note cannot be used (empty, too long, control or direction characters), or null. */
export function payeeTextProblem(name: string, note: string): string | null {
  if (name.trim() === '') return 'the payee name is empty: give each payee a name';
  if (name.length > PAYEE_NAME_MAX) return `a payee name is at most ${PAYEE_NAME_MAX} characters`;
  if (note.length > PAYEE_NOTE_MAX) return `a payee note is at most ${PAYEE_NOTE_MAX} characters`;
  return unsafeTextProblem(name, 'the payee name') ?? unsafeTextProblem(note, 'the note');
}

/** Reads the file's text into payees (ids made here), or the file's refusal, or every bad line. */
export function readPayeeCsv(text: string, desk: PayeeImportContext): PayeeFileReading {
  const table = readCsvTable<Column>(text, {
    required: COLUMNS,
    optional: [],
    maxLines: PAYEE_MAX_LINES,
    lineName: 'address line',
    headerHelp: 'the first line must name the columns name, note, chain, address, e.g. "name,note,chain,address"',
    emptyHelp: 'the file has a header but no payees: add one line per address, name,note,chain,address',
    tooManyHelp: `an import holds at most ${PAYEE_MAX_LINES}: split it into several files`,
  });
  if (!table.ok) return table;
  const problems: PayeeLineProblem[] = [];
  const byName = new Map<string, PayeeDraft & { addresses: { chain: string; address: string }[] }>();
  const seen = new Map<string, number>();
  for (const { line, cell, tooLong } of table.lines) {
    const report = (message: string): void => {
      problems.push({ line, message });
    };
    if (tooLong) {
      report(`the ${tooLong} is longer than ${CSV_CELL_MAX_CHARS} characters`);
      continue;
    }
    const name = cell('name').trim().normalize('NFC');
    const note = cell('note').trim().normalize('NFC');
    const chain = cell('chain').trim().toLowerCase();
    const address = cell('address').trim();
    const textProblem = payeeTextProblem(name, note);
    if (textProblem) {
      report(textProblem);
      continue;
    }
    let payee = byName.get(payeeNameKey(name));
    if (payee === undefined) {
      const nameProblem = payeeNameProblem(name, [...desk.names, ...[...byName.values()].map((other) => other.name)]);
      if (nameProblem) {
        report(nameProblem);
        continue;
      }
      payee = { id: randomUUID(), name, note, addresses: [] };
      byName.set(payeeNameKey(name), payee);
    } else if (note !== '' && payee.note !== '' && note !== payee.note) {
      report(`the note differs from the note of ${JSON.stringify(payee.name)} on an earlier line: give one note per payee, or leave it empty on the other lines`);
      continue;
    } else if (payee.note === '' && note !== '') payee.note = note;
    if (!isChain(chain)) {
      report(`${JSON.stringify(chain.slice(0, 20))} is not a chain: use one of trx, eth, bnb, solana, ton`);
      continue;
    }
    const check = validateAddress(chain, address);
    if (!check.valid) {
      report(`${address.slice(0, 100)} is not a ${chain} address: ${check.reason}`);
      continue;
    }
    const key = `${chain}:${normalizeAddress(address, chain)}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      report(`${chain}:${address} is already on line ${earlier}: list each address once`);
      continue;
    }
    seen.set(key, line);
    if (desk.booked(chain, address)) {
      report(`${chain}:${address} is already in the address book (or waits for its delay): remove the line, or remove the address from the book first`);
      continue;
    }
    if (payee.addresses.length >= MAX_ADDRESSES_PER_PAYEE) {
      report(`${JSON.stringify(payee.name)} has more than ${MAX_ADDRESSES_PER_PAYEE} addresses: a payee holds at most ${MAX_ADDRESSES_PER_PAYEE}`);
      continue;
    }
    payee.addresses.push({ chain, address });
  }
  if (problems.length > 0) return { ok: false, problems };
  const payees = [...byName.values()].filter((payee) => payee.addresses.length > 0);
  if (payees.length > MAX_PAYEES_PER_BATCH) return { ok: false, reason: `the file lists ${payees.length} payees; an import holds at most ${MAX_PAYEES_PER_BATCH}: split it into several files` };
  return { ok: true, payees };
}
