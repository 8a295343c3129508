// The labels feature (labels/*): labels and notes people put on deposits, withdrawals, deposit addresses and
// address-book entries, search over them, and their export and import as BIP-329-style JSON lines (docs/labels.md).
// Setting or importing labels is an operator's action signed into the audit log in the same transaction as the write.
// Labels are hints for people: nothing that decides about money reads them.
import { createHash } from 'node:crypto';
import type { LabelView, TreasuryHandlers } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import { DeskError } from '../kernel/errors';
import {
  importedLinesOf,
  labelLineText,
  labelProblem,
  LABELS_FILE_MAX_BYTES,
  LABELS_IMPORT_STATEMENT_MAX_BYTES,
  parseBookRef,
  parseLabelsFile,
  type LabelLine,
} from './jsonl';
import { encodeCanonical } from '../ledger';
import { actingAs, sessionActing, type SessionSigner, signAction } from '../operators';
import { listAddressBook, writeBookLabel } from '../address-book';
import { listLabels, saveLabel, searchLabels, type LabelRecord, type StoredLabelType } from './labels-table';
import { type Handle } from '../kernel/handle';
import { readTextFile, writeFileAtomically } from '../files/named-files';

export interface LabelsFeatureDeps {
  readonly context: Kernel & AuditRecorder & ProfileSelection;
  /** The unlocked session's operator signs a label without `as` (issue 22, item 3). */
  readonly session: SessionSigner;
}

function recordView(record: LabelRecord): LabelView {
  return { ...record };
}

/** The address book's labelled entries as label views (`book`, ref `chain:address`). */
function bookLabels(context: Kernel & AuditRecorder & ProfileSelection, profile: string): LabelView[] {
  return listAddressBook(context.db, profile)
    .filter((entry) => entry.label !== null || entry.note !== null)
    .map((entry) => ({ type: 'book', ref: `${entry.chain}:${entry.address}`, label: entry.label ?? '', note: entry.note, updatedAt: null, updatedBy: null }));
}

/**
 * Writes one label where it lives: the labels table, or the address book for `book`. Inside the caller's transaction
 * (a label set or imported here, or a team workstation applying the statement pulled from another).
 */
export function writeLabel(context: Kernel & AuditRecorder & ProfileSelection, profile: string, line: LabelLine, by: string): void {
  if (line.type !== 'book') {
    saveLabel(context.db, profile, { type: line.type as StoredLabelType, ref: line.ref, label: line.label, note: line.note }, by, context.now());
    return;
  }
  const book = parseBookRef(line.ref);
  if (typeof book === 'string') throw new DeskError('invalidInput', book, { ref: book });
  writeBookLabel(context, profile, book.chain, book.address, line.label === '' ? null : line.label, line.note);
}

function matches(view: LabelView, text: string): boolean {
  const wanted = text.toLowerCase();
  return view.label.toLowerCase().includes(wanted) || (view.note ?? '').toLowerCase().includes(wanted);
}

export function labelsHandlers({ context, session }: LabelsFeatureDeps, handle: Handle): Pick<TreasuryHandlers, 'labels/set' | 'labels/search' | 'labels/export' | 'labels/import'> {
  const profileName = (): string => context.activeProfile().name;
  const allLabels = (profile: string): LabelView[] => [...listLabels(context.db, profile).map(recordView), ...bookLabels(context, profile)];

  return {
    'labels/set': handle('labels/set', async (request) => {
      const line: LabelLine = { type: request.type, ref: request.ref, label: request.label.normalize('NFC'), note: request.note ? request.note.normalize('NFC') : null };
      const problem = labelProblem(line);
      if (problem) throw new DeskError('invalidInput', problem, { ref: problem });
      // Named with a passphrase, or (without `as`) the operator who unlocked this desk's session.
      const acting = request.as === undefined ? sessionActing(context, session, 'editLabels') : await actingAs(context, request.as, 'editLabels');
      await signAction(acting, 'labels/set', `${line.type}:${line.ref}`, { label: line.label, note: line.note }, () => writeLabel(context, acting.profile, line, acting.name));
      context.emit({ type: 'labels/changed' });
      return { label: allLabels(acting.profile).find((view) => view.type === line.type && view.ref.toLowerCase() === line.ref.toLowerCase()) ?? null };
    }),

    'labels/search': handle('labels/search', (request) => {
      const profile = profileName();
      const text = request.text.trim();
      if (text === '') return allLabels(profile).filter((view) => request.type === undefined || view.type === request.type);
      const stored = request.type === 'book' ? [] : searchLabels(context.db, profile, text, request.type).map(recordView);
      const book = request.type === undefined || request.type === 'book' ? bookLabels(context, profile).filter((view) => matches(view, text)) : [];
      return [...stored, ...book];
    }),

    'labels/export': handle('labels/export', (request) => {
      const labels = allLabels(profileName());
      writeFileAtomically(request.path, (append) => {
        for (const view of labels) append(`${labelLineText({ type: view.type, ref: view.ref, label: view.label, note: view.note })}\n`);
      });
      return { rows: labels.length, path: request.path };
    }),

    'labels/import': handle('labels/import', async (request) => {
      // A labels file is a few lines per record: anything larger than the bound is not one, and is not read.
      const text = readTextFile(request.path, 'labels file', LABELS_FILE_MAX_BYTES);
      const parsed = parseLabelsFile(text);
      if ('problems' in parsed) throw new DeskError('invalidInput', `nothing was imported from ${request.path}: ${parsed.problems.join('; ')}`);
      const acting = await actingAs(context, request.as, 'editLabels');
      const digest = createHash('sha256').update(text, 'utf8').digest('hex');
      const carried = importedLinesOf(parsed.lines);
      if (Buffer.byteLength(encodeCanonical(carried), 'utf8') > LABELS_IMPORT_STATEMENT_MAX_BYTES) {
        throw new DeskError(
          'invalidInput',
          `nothing was imported from ${request.path}: its ${parsed.lines.length} labels are more than one signed import carries (${LABELS_IMPORT_STATEMENT_MAX_BYTES / 1024} KB of labels): split the file into smaller files and import each`,
        );
      }
      await signAction(acting, 'labels/import', digest, { rows: parsed.lines.length, lines: carried }, () => {
        for (const line of parsed.lines) writeLabel(context, acting.profile, line, acting.name);
      });
      context.emit({ type: 'labels/changed' });
      return { rows: parsed.lines.length, path: request.path };
    }),
  };
}
