// The one path by which verified deposit records enter the cache, shared by sync (query) and the callback listener
// (callback): staged as verified, moved into the history deduplicated by apiOrder and indexed for search in batches.
// Withdrawal order records go to their lifecycle's owner instead (withdrawals/facts.ts storeOrderStatus).
import { traceIntake, type DepositRecord } from '../../protocol';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import {
  countStagedDeposits,
  depositSearchBacklog,
  indexDepositSearchBacklog,
  lastDepositId,
  lookAlikeWords,
  moveStagedDeposits,
  newPoisoningAlerts,
  bookEntryName,
  POISONING_SUSPECTED_ACTION,
  stageDeposits,
  type DepositSource,
} from '../deposits';
import { recordControlProofs } from '../withdrawals';

export interface DepositIntake {
  readonly seen: number;
  /** Deposits new to the desk moved into the history by this call (records staged earlier included). */
  readonly inserted: number;
}

/**
 * Verified deposits are taken in by batches of at least this many (issue 11, item 10): pages are staged as they are
 * verified, then moved into the history and indexed for search together. About 250 ms of one core per batch, and most
 * of the saving of bulk writes: a commit per 100-row page rewrote the same index pages of the history over and over,
 * and the search index costs a third less in bulk. Searches test the rows not yet indexed one by one.
 */
export const DEPOSIT_INTAKE_BATCH = 5_000;

/**
 * While more pages are coming, the search index takes at most this many rows of its backlog after each page, so it keeps
 * in step with the walk in short steps: indexing a whole 5,000-row batch at once held the main thread 0.66 s (FTS5
 * merging its segments), and every window request and pool hand-off waited behind it. Per row, steps cost somewhat
 * more than one bulk insert (on disk, 60,000 rows: 64 µs a row in steps of 250, 52 µs in steps of 5,000, whose worst
 * transaction took 367 ms against 55 ms); responsiveness during a sync is worth it. 250 a page of 100 catch up with
 * each batch within 20 pages. When no more pages are coming the whole backlog is indexed.
 */
export const DEPOSIT_INDEX_STEP = 250;

/**
 * Stages a verified page of deposit records, in the caller's transaction: the deposits walk commits it with its
 * position, so once verified the page is kept. Then call takeInStagedDeposits after the commit.
 */
export function stageDepositPage(context: Kernel & AuditRecorder, profile: string, records: readonly DepositRecord[], source: DepositSource): void {
  stageDeposits(context.db, profile, records, source, context.now());
}

/**
 * Moves the staged records into the history, when no more pages are coming, DEPOSIT_INTAKE_BATCH records wait or the
 * history is empty (one fully synced transaction), and indexes them for search (DEPOSIT_INDEX_STEP at a time while
 * pages are coming). A re-observed record that differs is kept as
 * first seen and audited. Returns the number of deposits new to the desk.
 */
export function takeInStagedDeposits(context: Kernel & AuditRecorder, options: { readonly morePagesComing: boolean }): number {
  const staged = countStagedDeposits(context.db);
  // A desk that holds no deposit yet takes its first page in at once, so the deposits screen has rows after one page
  // of a first sync rather than after a whole batch (50 pages, 4 to 7 s in `npm run bench -- sync-scale`).
  const due = staged > 0 && (!options.morePagesComing || staged >= DEPOSIT_INTAKE_BATCH || lastDepositId(context.db) === 0);
  const inserted = due ? traceIntake('store', () => context.trail.transaction(() => moveDeposits(context))) : 0;
  indexStoredDeposits(context, options);
  return inserted;
}

/**
 * Stores verified deposit records at once (a callback's: the platform is told "success" only after this commit), in
 * one fully synced transaction, and indexes them for search. A re-observed record that differs is kept as first seen
 * and audited.
 */
export function storeDeposits(context: Kernel & AuditRecorder, profile: string, records: readonly DepositRecord[], source: DepositSource): DepositIntake {
  const inserted = traceIntake('store', () =>
    context.trail.transaction(() => {
      stageDeposits(context.db, profile, records, source, context.now());
      return moveDeposits(context);
    }),
  );
  indexStoredDeposits(context, { morePagesComing: false });
  return { seen: records.length, inserted };
}

/**
 * Finishes an intake that stopped part way (a walk cut off, the process killed): moves what is staged into the history
 * and indexes it. Cheap when nothing waits; the engine runs it at start and every deposits walk when it ends.
 */
export function finishDepositIntake(context: Kernel & AuditRecorder): number {
  return takeInStagedDeposits(context, { morePagesComing: false });
}

function moveDeposits(context: Kernel & AuditRecorder): number {
  let inserted = 0;
  const before = lastDepositId(context.db);
  for (const moved of moveStagedDeposits(context.db)) {
    for (const conflict of moved.conflicts) {
      context.audit({ profile: moved.profile, action: 'deposits/conflict', subject: conflict.apiOrder, details: { fields: conflict.fields, source: moved.source } });
    }
    if (moved.inserted > 0) recordPoisoningAlerts(context, moved.profile, before);
    if (moved.inserted > 0) recordControlProofs(context, moved.profile, before);
    inserted += moved.inserted;
  }
  if (inserted > 0) context.emit({ type: 'deposits/changed', newDeposits: inserted });
  return inserted;
}

/**
 * The poisoning radar at intake: each sender these new deposits first flag (a look-alike of a signed book address) is
 * recorded once by the desk key (`deposits/poisoningSuspected`), in the intake's transaction: the audit trail's record of
 * when it was seen, and what still refuses the sender (deposits/radar.ts) if the cached deposit row is later deleted.
 */
function recordPoisoningAlerts(context: Kernel & AuditRecorder, profile: string, afterId: number): void {
  const roster = context.trail.roster(profile, { cached: true });
  for (const alert of newPoisoningAlerts(context.db, profile, roster, context.now(), afterId)) {
    context.audit({
      profile,
      action: POISONING_SUSPECTED_ACTION,
      subject: alert.sender,
      details: { looksLike: bookEntryName(alert.lookAlike.entry), similarity: lookAlikeWords(alert.lookAlike), apiOrder: alert.firstDeposit.apiOrder, txid: alert.firstDeposit.txid },
    });
  }
}

/** Brings the deposit search index up to date: when more pages are coming, only once DEPOSIT_INTAKE_BATCH rows wait. */
function indexStoredDeposits(context: Kernel & AuditRecorder, options: { readonly morePagesComing: boolean }): void {
  if (depositSearchBacklog(context.db) === 0) return;
  traceIntake('index', () => indexDepositSearchBacklog(context.db, options.morePagesComing ? DEPOSIT_INDEX_STEP : undefined));
}
