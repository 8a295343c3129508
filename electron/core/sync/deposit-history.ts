// The deposit history of a profile, walked so that it is complete and provably so (issue 11, item 1). getDeposits
// lists newest first and only ever grows at its head (PROTOCOL §8), so a record keeps its place or moves later,
// never earlier: a walk that resumes at the page it reached may read a record twice (deduplicated by apiOrder) but
// never skips one. Each walk keeps, in the sync state, where it resumes and the newest record it found on page 1 (its
// anchor); it stops at the end of the list, or, unless it is a full walk, at the page holding the mark of the last
// complete walk. When it stops there, everything from its anchor down is held, and its anchor becomes the new mark.
// Invariants: a page's deposits (staged, see records.ts) and the walk's new position commit together (a crash re-reads
// at most one page, and a page verified is kept); the mark moves only when a walk reached it or the end; an unfinished
// walk is resumed by the next sync, whoever runs it (app, background sync or CLI), before that sync stops early.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { DepositHistoryView, DepositRef, DepositVerification, DepositWalkView } from '../../contract';
import { DEPOSITS_LIMIT_MAX, traceIntake, type DepositRecord } from '../../protocol';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { MerchantConnection } from '../connection';
import { DeskError } from '../kernel/errors';
import { writeTransaction, type ReadableDB, type StoreDatabase } from '../store/database';
import { compareWithHeldDeposit, countDeposits, listHeldDepositRefs } from '../deposits';
import { getSyncState, setSyncProgress } from './sync-state-table';
import { finishDepositIntake, stageDepositPage, takeInStagedDeposits } from './records';

/** The sync-state resource whose progress column holds the walk state. */
const RESOURCE = 'deposits';

const walkSchema = z.object({
  /** Tells walks apart when two processes sync the same desk. */
  id: z.string(),
  full: z.boolean(),
  startedAt: z.number(),
  nextPage: z.number().int().min(1),
  pages: z.number().int().min(0),
  records: z.number().int().min(0),
  /** The apiOrder first on page 1 when the walk read it (null: the list was empty); undefined until page 1 is read. */
  anchor: z.string().nullable().optional(),
  /** A non-full walk may stop at the page holding this apiOrder (the last complete walk's anchor); null: the end. */
  stopAt: z.string().nullable(),
});

const historySchema = z.object({
  version: z.literal(1),
  /** Every deposit the service listed from `through` down (the anchor of the walk that completed it) is held. */
  complete: z.object({ through: z.string().nullable(), at: z.number() }).nullable(),
  walk: walkSchema.nullable(),
});

type DepositWalk = z.infer<typeof walkSchema>;
export type DepositHistoryState = z.infer<typeof historySchema>;

/** A profile that never walked, or whose state was written by an earlier version: the next walk goes to the end. */
const NOTHING_KNOWN: DepositHistoryState = { version: 1, complete: null, walk: null };

export function readDepositHistory(db: ReadableDB, profile: string): DepositHistoryState {
  const parsed = historySchema.safeParse(getSyncState(db, profile, RESOURCE)?.progress);
  return parsed.success ? parsed.data : NOTHING_KNOWN;
}

function saveDepositHistory(db: StoreDatabase, profile: string, state: DepositHistoryState): void {
  setSyncProgress(db, profile, RESOURCE, state);
}

export function depositHistoryView(db: ReadableDB, profile: string): DepositHistoryView {
  const state = readDepositHistory(db, profile);
  const walk = state.walk;
  return {
    complete: state.complete !== null && walk === null,
    completeAt: state.complete?.at ?? null,
    walk:
      walk === null
        ? null
        : { full: walk.full, startedAt: walk.startedAt, pagesWalked: walk.pages, recordsWalked: walk.records, nextPage: walk.nextPage },
    depositsHeld: countDeposits(db, profile),
  };
}

export interface WalkedPage {
  readonly page: number;
  readonly seen: number;
  readonly inserted: number;
  readonly walk: DepositWalkView;
}

function newWalk(full: boolean, stopAt: string | null, now: number): DepositWalk {
  return { id: randomBytes(8).toString('hex'), full, startedAt: now, nextPage: 1, pages: 0, records: 0, stopAt };
}

/**
 * The deposits part of a sync: resumes an unfinished walk to its end and then walks the head that grew meanwhile;
 * otherwise walks the head down to the mark (to the end when there is none). `full` walks every page once more.
 * Throws when the service fails part way; what was read stays stored and the walk resumes there next time.
 */
export async function walkDepositHistory(
  context: Kernel & AuditRecorder & MerchantConnection,
  profile: string,
  options: { readonly full: boolean; readonly onPage: (page: WalkedPage) => void },
): Promise<void> {
  let state = readDepositHistory(context.db, profile);
  if (options.full && state.walk?.full !== true) state = { ...state, walk: newWalk(true, null, context.now()) };
  // A walk another run left unfinished is finished first; the deposits that arrived meanwhile are above its anchor.
  let resumed = state.walk !== null && state.walk.pages > 0;
  let walk = state.walk ?? newWalk(false, state.complete?.through ?? null, context.now());
  try {
    for (;;) {
      const mark = await runWalk(context, profile, walk, options.onPage);
      if (!resumed) return;
      resumed = false;
      walk = newWalk(false, mark, context.now());
    }
  } finally {
    // A walk cut off part way leaves its last pages staged: they are verified, so they join the history now.
    finishDepositIntake(context);
  }
}

/** Reads pages from the walk's position until it is done; returns the new mark. */
async function runWalk(context: Kernel & AuditRecorder & MerchantConnection, profile: string, start: DepositWalk, onPage: (page: WalkedPage) => void): Promise<string | null> {
  const client = await context.merchantClient();
  // A long walk overlaps each page's decryption with the next request; a walk down to a recent mark usually reads
  // one page, and would waste the page asked for ahead.
  const prefetch = start.full || start.stopAt === null || start.pages > 0;
  let walk = start;
  for await (const batch of client.depositPages({ limit: DEPOSITS_LIMIT_MAX, firstPage: walk.nextPage, prefetch })) {
    const anchor = walk.anchor === undefined ? (batch.records[0]?.apiOrder ?? null) : walk.anchor;
    const reachedMark = !walk.full && walk.stopAt !== null && batch.records.some((record) => record.apiOrder === walk.stopAt);
    const done = batch.last || reachedMark;
    const read: DepositWalk = { ...walk, anchor, nextPage: batch.page + 1, pages: walk.pages + 1, records: walk.records + batch.records.length };
    // The page (staged) and the walk's new position (or the new mark) commit together. The page can be fetched
    // again, and would be, with the position it commits with: the commit waits only until a crash of this process
    // cannot undo it (writeTransaction), and the next fully synced commit takes it to disk.
    traceIntake('store', () =>
      writeTransaction(
        context.db,
        () => {
          stageDepositPage(context, profile, batch.records, 'query');
          const current = readDepositHistory(context.db, profile);
          saveDepositHistory(
            context.db,
            profile,
            done ? { ...current, complete: { through: anchor, at: context.now() }, walk: null } : { ...current, walk: read },
          );
        },
        'processCrash',
      ),
    );
    const inserted = takeInStagedDeposits(context, { morePagesComing: !done });
    walk = read;
    onPage({
      page: batch.page,
      seen: batch.records.length,
      inserted,
      walk: { full: walk.full, startedAt: walk.startedAt, pagesWalked: walk.pages, recordsWalked: walk.records, nextPage: walk.nextPage },
    });
    if (done) return anchor;
  }
  // The scan gave up without reaching the end: the service answered the same page again and again.
  throw new DeskError(
    'service',
    `the service kept answering the same deposits page; the history walk stays unfinished and resumes at page ${walk.nextPage} on the next sync. Report this to the platform if it persists.`,
  );
}

function refOf(record: DepositRecord, source: DepositRef['source']): DepositRef {
  return { apiOrder: record.apiOrder, txid: record.txid, currency: record.currency, amount: record.amount, source };
}

/**
 * `sync --verify`: walks the service's whole list and compares it with the deposits the desk holds, exactly. A
 * deposit listed while the walk ran is caught by reading the head again; a deposit the desk first saw after the check
 * began is not judged. Stores no deposit; when some are missing the "complete" mark is withdrawn so that the next sync
 * walks the whole list and fetches them. The result is audited. Cancelled (`cancelled`) between pages, it concludes
 * nothing, changes nothing and audits nothing.
 */
export async function verifyDepositHistory(
  context: Kernel & AuditRecorder & MerchantConnection,
  profile: string,
  onPage: (pagesWalked: number) => void,
  cancelled: AbortSignal,
): Promise<DepositVerification> {
  finishDepositIntake(context); // pages a killed walk staged are held
  const startedAt = context.now();
  const client = await context.merchantClient();
  const listed = new Set<string>();
  const notHeld = new Map<string, DepositRecord>();
  const differing: Array<DepositRef & { readonly fields: readonly string[] }> = [];
  let pagesWalked = 0;
  const judge = (record: DepositRecord): void => {
    listed.add(record.apiOrder);
    const held = compareWithHeldDeposit(context.db, profile, record);
    if (!held.held) notHeld.set(record.apiOrder, record);
    else if (held.differingFields.length > 0) differing.push({ ...refOf(record, 'query'), fields: held.differingFields });
  };
  let reachedEnd = false;
  for await (const batch of client.depositPages({ limit: DEPOSITS_LIMIT_MAX, prefetch: true })) {
    for (const record of batch.records) judge(record);
    pagesWalked += 1;
    onPage(pagesWalked);
    reachedEnd ||= batch.last;
    if (cancelled.aborted && !batch.last) {
      throw new DeskError('conflict', `the comparison with the service was cancelled after page ${pagesWalked}: nothing was concluded and nothing changed`);
    }
  }
  if (!reachedEnd) throw new DeskError('service', 'the service kept answering the same deposits page, so its list could not be read to the end; nothing was concluded.');
  // Deposits credited while the walk ran are at the head: read it again down to a deposit already seen.
  for await (const batch of client.depositPages({ limit: DEPOSITS_LIMIT_MAX })) {
    const known = batch.records.filter((record) => listed.has(record.apiOrder)).length;
    for (const record of batch.records) if (!listed.has(record.apiOrder)) judge(record);
    pagesWalked += 1;
    if (known > 0 || batch.last) break;
  }
  // A deposit stored meanwhile (a sync or a callback) is held now.
  const missingLocally = [...notHeld.values()].filter((record) => !compareWithHeldDeposit(context.db, profile, record).held).map((record) => refOf(record, null));
  const held = listHeldDepositRefs(context.db, profile, startedAt);
  const notListed = held
    .filter((deposit) => !listed.has(deposit.apiOrder))
    .map((deposit): DepositRef => ({ apiOrder: deposit.apiOrder, txid: deposit.txid, currency: deposit.currency, amount: deposit.amount, source: deposit.source }));

  let completeMarkWithdrawn = false;
  context.trail.transaction(() => {
    // A hole means the mark (and any walk heading for it) cannot be trusted: the next sync walks the whole list.
    const state = readDepositHistory(context.db, profile);
    if (missingLocally.length > 0 && (state.complete !== null || state.walk !== null)) {
      saveDepositHistory(context.db, profile, NOTHING_KNOWN);
      completeMarkWithdrawn = state.complete !== null;
    }
    context.audit({
      profile,
      action: 'deposits/verified',
      subject: profile,
      details: {
        listedByService: listed.size,
        heldLocally: held.length,
        missingLocally: missingLocally.map((deposit) => deposit.apiOrder),
        notListed: notListed.map((deposit) => deposit.apiOrder),
        differing: differing.map((deposit) => ({ apiOrder: deposit.apiOrder, fields: deposit.fields })),
        completeMarkWithdrawn,
      },
    });
  });
  return {
    ok: missingLocally.length === 0 && notListed.length === 0 && differing.length === 0,
    startedAt,
    finishedAt: context.now(),
    pagesWalked,
    listedByService: listed.size,
    heldLocally: held.length,
    missingLocally,
    notListed,
    differing,
    completeMarkWithdrawn,
  };
}
