// Sync with the service: currencies, balances (merchantInfo), deposits (the resumable history walk of
// deposit-history.ts: an unfinished walk first, then the new head down to the part already complete; `full` walks
// every page) and every unsettled withdrawal (checkWithdrawOrder). One run at a time; progress is pushed as events;
// when the service cannot be reached the run says why and every read still works from SQLite. `verifyDeposits` compares
// the service's whole deposit list with the desk's. merchantInfo is kept whole (its unknown fields too, PROTOCOL §8)
// with the balances of every currency it lists, those the service added after this desk was built included.
import {
  CONTRACT_ERROR_CODES,
  syncProgressSentence,
  type ConnectionState,
  type ContractErrorCode,
  type DepositVerification,
  type OfflineReason,
  type SyncProgress,
  type SyncProgressPhase,
  type SyncReport,
  type SyncResource,
  type SyncStatus,
} from '../../contract';
import { ProtocolError } from '../../protocol';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import { diagnoseFailure, OFFLINE_REASON_ERROR_CODES, type MerchantConnection } from '../connection';
import { DeskError, toContractError } from '../kernel/errors';
import { appLog } from '../log';
import { recordBalances, replaceCurrencies, saveMerchantInfo } from '../merchant';
import { writeTransaction } from '../store/database';
import { countDeposits } from '../deposits';
import { listSyncState, recordSyncAttempt, recordSyncFailure, recordSyncSuccess } from './sync-state-table';
import { listUnsettledWithdrawalRequests, reconcile } from '../withdrawals';
import { depositHistoryView, verifyDepositHistory, walkDepositHistory } from './deposit-history';

const RESOURCES: readonly SyncResource[] = ['currencies', 'balances', 'deposits', 'withdrawals'];

/** A resource's progress at `phase`, with its English line (the CLI's) built by the contract. */
function progressAt(resource: SyncResource, done: number, total: number | null, phase: SyncProgressPhase): SyncProgress {
  return { resource, done, total, phase, message: syncProgressSentence(resource, phase) };
}

/**
 * The contract code of a stored failure kind: failures are stored with their contract code; a desk synced by an earlier
 * version stored the offline reason ('network'...) or 'error' (not known).
 */
function storedErrorCode(kind: string | null): ContractErrorCode | null {
  if (kind === null) return null;
  if ((CONTRACT_ERROR_CODES as readonly string[]).includes(kind)) return kind as ContractErrorCode;
  return Object.hasOwn(OFFLINE_REASON_ERROR_CODES, kind) ? OFFLINE_REASON_ERROR_CODES[kind as OfflineReason] : null;
}

/** A sync stopped by sync/cancel: not a failure of the resource (its sync state is left as it was). */
class SyncCancelled extends DeskError {
  constructor(where: string) {
    super('conflict', `the sync was cancelled ${where}: what was read is stored, and the next sync resumes from there`);
  }
}

export class SyncService {
  #running: Promise<SyncReport> | undefined;
  #cancel: AbortController | undefined;
  /** The comparison under way (verifyDeposits), which sync/cancel stops too. */
  #verifyCancel: AbortController | undefined;
  #progress: SyncProgress | null = null;

  constructor(private readonly context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection) {}

  /** Runs a sync, or joins the one already running (a `full` request waits for it, then runs its own). */
  async run(options: { readonly full?: boolean } = {}): Promise<SyncReport> {
    if (this.#running) {
      const current = this.#running;
      if (!options.full) return current;
      await current.catch(() => undefined);
      return this.run(options);
    }
    const cancel = new AbortController();
    this.#cancel = cancel;
    const run = this.#run(options.full === true, cancel.signal).finally(() => {
      this.#running = undefined;
      this.#cancel = undefined;
      this.#setProgress(null);
    });
    this.#running = run;
    return run;
  }

  /** Asks the sync or the comparison under way to stop after the page or request in hand; false when none runs. */
  cancel(): boolean {
    let stopped = false;
    for (const controller of [this.#cancel, this.#verifyCancel]) {
      if (controller === undefined || controller.signal.aborted) continue;
      controller.abort();
      stopped = true;
    }
    return stopped;
  }

  status(): SyncStatus {
    const profile = this.context.activeProfileName();
    const states = profile === undefined ? [] : listSyncState(this.context.db, profile);
    return {
      connection: this.context.connection.current,
      running: this.#running !== undefined,
      progress: this.#progress,
      depositHistory:
        profile === undefined ? { complete: false, completeAt: null, walk: null, depositsHeld: 0 } : depositHistoryView(this.context.db, profile),
      resources: RESOURCES.map((resource) => {
        const state = states.find((entry) => entry.resource === resource);
        return {
          resource,
          lastAttemptAt: state?.lastAttemptAt ?? null,
          lastSuccessAt: state?.lastSuccessAt ?? null,
          lastError: state?.lastErrorMessage ?? null,
          lastErrorCode: storedErrorCode(state?.lastErrorKind ?? null),
        };
      }),
    };
  }

  /**
   * Compares the service's whole deposit list with the desk's (deposit-history.ts), after any sync under way has
   * finished. Progress is pushed like a sync's; a failure to reach the service marks the connection like a sync.
   */
  async verifyDeposits(): Promise<DepositVerification> {
    const profile = this.context.activeProfile().name;
    await this.#running?.catch(() => undefined);
    const held = countDeposits(this.context.db, profile);
    if (this.#verifyCancel !== undefined) throw new DeskError('conflict', 'a comparison with the service is already under way: wait for its result');
    const cancel = new AbortController();
    this.#verifyCancel = cancel;
    try {
      const verification = await verifyDepositHistory(
        this.context,
        profile,
        (pagesWalked) => this.#setProgress(progressAt('deposits', pagesWalked, null, { kind: 'verifyingDeposits', page: pagesWalked, held })),
        cancel.signal,
      );
      this.#markOnline();
      return verification;
    } catch (error) {
      const diagnosis = diagnoseFailure(error, this.context.clockDriftSeconds);
      if (diagnosis && diagnosis.reason !== 'service' && this.context.connection.markOffline(diagnosis)) {
        appLog.warn(`sync: offline (${diagnosis.reason})`, { profile, resource: 'deposits', reason: diagnosis.reason, message: diagnosis.message });
        this.#emitConnection(this.context.connection.current);
      }
      throw error;
    } finally {
      this.#verifyCancel = undefined;
      this.#setProgress(null);
    }
  }

  #setProgress(progress: SyncProgress | null): void {
    this.#progress = progress;
    this.context.emit({ type: 'sync/progress', progress });
  }

  async #run(full: boolean, cancelled: AbortSignal): Promise<SyncReport> {
    const profile = this.context.activeProfile().name;
    const report = { currencies: 0, balances: 0, depositsSeen: 0, depositsNew: 0, withdrawalsChecked: 0, withdrawalsAdvanced: 0 };
    const stopIfCancelled = (where: string): void => {
      if (cancelled.aborted) throw new SyncCancelled(where);
    };
    await this.#step(profile, 'currencies', async () => {
      const records = await this.context.publicClient().getCurrencies();
      replaceCurrencies(this.context.db, profile, records, this.context.now());
      report.currencies = records.length;
    });
    stopIfCancelled('after the currencies');
    await this.#step(profile, 'balances', async () => {
      const info = await (await this.context.merchantClient()).merchantInfo();
      // Kept whole (§8), and every currency's balance, those the service added after this desk was built included.
      const changed = writeTransaction(this.context.db, () => {
        saveMerchantInfo(this.context.db, profile, info, this.context.now());
        return recordBalances(this.context.db, profile, info.balances, this.context.now());
      });
      report.balances = info.balances.length;
      if (changed.length > 0) this.context.emit({ type: 'balances/changed' });
    });
    stopIfCancelled('after the balances');
    await this.#step(profile, 'deposits', async () => {
      await walkDepositHistory(this.context, profile, {
        full,
        onPage: (page) => {
          report.depositsSeen += page.seen;
          report.depositsNew += page.inserted;
          // New deposits are stored in batches while a long walk runs: the count says "so far", not "of what was read".
          this.#setProgress(
            progressAt('deposits', report.depositsSeen, null, {
              kind: 'depositsPage',
              page: page.page,
              read: report.depositsSeen,
              stored: report.depositsNew,
              fullWalk: page.walk.full,
            }),
          );
          // The page and the walk's position are committed before this runs: a cancel here loses nothing.
          stopIfCancelled(`after deposits page ${page.page}`);
        },
      });
    });
    stopIfCancelled('after the deposits');
    await this.#step(profile, 'withdrawals', async () => {
      const unsettled = listUnsettledWithdrawalRequests(this.context.db, profile);
      for (const [index, request] of unsettled.entries()) {
        stopIfCancelled(`after ${index} of ${unsettled.length} withdrawals were checked`);
        this.#setProgress(progressAt('withdrawals', index, unsettled.length, { kind: 'checkingWithdrawal', userOrder: request.userOrder }));
        try {
          if (await reconcile(this.context, request)) report.withdrawalsAdvanced += 1;
        } catch (error) {
          // A request whose statements do not verify is refused and audited by the desk, and one another team
          // workstation is submitting is left to it; the others still get checked.
          if (!(error instanceof DeskError && (error.code === 'unverified' || error.code === 'conflict'))) throw error;
        }
        report.withdrawalsChecked += 1;
      }
    });
    this.#markOnline();
    return { ...report, connection: this.context.connection.current };
  }

  /** Runs one resource's step, recording attempt, success or failure; an offline failure stops the run. */
  async #step(profile: string, resource: SyncResource, work: () => Promise<void>): Promise<void> {
    const { db } = this.context;
    recordSyncAttempt(db, profile, resource, this.context.now());
    this.#setProgress(progressAt(resource, 0, null, { kind: 'asking' }));
    try {
      await work();
      recordSyncSuccess(db, profile, resource, undefined, this.context.now());
      this.#markOnline();
    } catch (error) {
      if (error instanceof SyncCancelled) throw error;
      const diagnosis = diagnoseFailure(error, this.context.clockDriftSeconds);
      const message = diagnosis?.message ?? (error instanceof Error ? error.message : String(error));
      // Stored with its contract code, so a window can say what kind of problem it is in its own language.
      const code = diagnosis === undefined ? toContractError(error).code : OFFLINE_REASON_ERROR_CODES[diagnosis.reason];
      recordSyncFailure(db, profile, resource, { kind: code, message }, this.context.now());
      if (diagnosis === undefined) {
        // A refusal the service or the desk explains is a warning; anything else is a fault.
        const explained = error instanceof ProtocolError || error instanceof DeskError;
        appLog[explained ? 'warn' : 'error'](`sync: ${resource} failed${explained ? '' : ' unexpectedly'}`, { profile, resource, error });
      } else if (diagnosis.reason === 'service') appLog.warn(`sync: the service refused ${resource}`, { profile, resource, reason: diagnosis.reason, message });
      else if (this.context.connection.markOffline(diagnosis)) {
        appLog.warn(`sync: offline (${diagnosis.reason})`, { profile, resource, reason: diagnosis.reason, message });
        this.#emitConnection(this.context.connection.current);
      }
      throw error instanceof Error ? error : new DeskError('internal', message);
    }
  }

  #markOnline(): void {
    if (this.context.connection.markOnline()) {
      appLog.info('sync: online');
      this.#emitConnection(this.context.connection.current);
    }
  }

  #emitConnection(connection: ConnectionState): void {
    this.context.emit({ type: 'connection/changed', connection });
  }
}
