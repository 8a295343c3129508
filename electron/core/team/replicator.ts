// The team replicator: keeps this workstation's SQLite in step with the team database. It pulls chain rows by seq,
// verifies each against the local chain head (ChainVerifier: signature against the roster as it stood, linkage,
// workstation keys an admin enrolled) and only then applies it locally; it publishes this workstation's decisions
// (signed at the shared head, appended on the condition that the head did not move, else caught up and signed again)
// and its desk-signed events; it remembers the last verified shared head and reports a rewritten or truncated chain;
// it checks projection rows against the verified statements and refuses a mismatching one, naming it; and it holds
// submission claims. Everything that touches the chain runs one at a time (an async queue).
import { randomInt } from 'node:crypto';
import type { ContractEvent } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import {
  appendStatement,
  auditHead,
  type AuditRecorder,
  type AuditRow,
  type ChainVerifier,
  getAuditRow,
  iterateAudit,
  namedDeskKey,
  type OrderEvidenceKeys,
  sharedEvidenceKeys,
  type StatementDraft,
  type StatementSigner,
  type TeamSeam,
  type TeamSystemEvent,
} from '../audit';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import type { KeychainAccess } from '../secrets';
import { DeskError } from '../kernel/errors';
import { appLog } from '../log';
import { ORDER_ACCEPTED, ORDER_STATUS, parseStatement, type Roster } from '../ledger';
import {
  addTeamOutboxEvent,
  clearTeamRefusals,
  countTeamOutbox,
  getTeamSettings,
  listTeamRefusals,
  nextTeamOutboxEvent,
  recordTeamConnection,
  recordTeamRefusal,
  recordVerifiedHead,
  removeTeamOutboxEvent,
  type TeamRefusal,
} from './team-table';
import { getWithdrawalRequestByUserOrder } from '../withdrawals';
import { applyTeamRow, projectionsFor, type OrderKeysFor } from './apply';
import { workstationEnrolled } from '../operators';
import { DESK_STATE_TABLES, expectedDeskStateRow } from './desk-projections';
import { REANCHOR_HINT, walkSharedChainAgainstLocal } from './shared-chain-walk';
import { SharedStoreError, type ChainHead, type ConnectionState, type SharedDeskStore } from './shared-store';
import { TeamWitness } from './witness';

/** The parts of the desk this file's functions use (each its module's interface, built by that module; the engine passes them together: engine.ts deskParts). */
type DeskParts = Kernel & AuditRecorder & ProfileSelection & MerchantConnection & KeychainAccess;

/** The sources of projection refusals (team verify's check of IT's tables), cleared when a check no longer finds them. */
const PROJECTION_SOURCES = ['withdrawal_requests', 'approvals', ...DESK_STATE_TABLES];

/** How soon a database a failed call marked unreachable is asked again. */
const PROBE_MS = 1_000;
/** How long a submission claim lasts without renewal. */
export const SUBMISSION_LEASE_MS = 30_000;
/**
 * How long a decision keeps being signed again after another workstation moved the head first. A busy desk (twenty
 * workstations deciding at once) loses several races in a row; a window with a random pause between attempts lets
 * each workstation get its turn, where a fixed count of immediate retries refused decisions under load. 20 s was not
 * enough for twenty workstations on one 2-core machine beside a whole test run: one approval lost 9 races in a row
 * (each attempt catches up and signs again, about 2 s there). Nothing is recorded until an attempt wins, so waiting
 * longer costs the operator time, never a double decision.
 */
const PUBLISH_WINDOW_MS = 60_000;
/** The longest random pause between two attempts to append at the head. */
const PUBLISH_PAUSE_MS = 250;
const PULL_PAGE = 500;

class Rollback extends Error {}

/** A statement the registry refuses at the shared head (ledger/registry.ts): never published. */
class RowRefused extends DeskError {
  constructor(reason: string) {
    super('forbidden', `the desk refuses this statement: ${reason}`);
  }
}

export interface TeamStatus {
  readonly connected: boolean;
  readonly since: number;
  readonly reason: string | null;
  readonly verifiedSeq: number;
  readonly verifiedAt: number | null;
  /** Why this workstation stopped trusting the team database (a refused row, a rewritten chain), or null. */
  readonly halted: string | null;
  readonly refused: readonly TeamRefusal[];
  readonly pendingEvents: number;
}

/** Walks the whole shared chain, `visit` each page; stops early when `visit` answers false. */
async function walkSharedChain(store: SharedDeskStore, visit: (rows: readonly AuditRow[]) => boolean): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await store.rowsAfter(after, PULL_PAGE);
    if (!visit(rows) || rows.length < PULL_PAGE) return;
    after = (rows[rows.length - 1] as AuditRow).seq;
  }
}

/** A fresh workstation reads the chain's desk-key enrolments ahead (see ChainVerifier.trustEnrolledKey). */
async function readEnrolmentsAhead(store: SharedDeskStore, verifier: ChainVerifier): Promise<void> {
  await walkSharedChain(store, (rows) => {
    for (const row of rows) {
      const named = namedDeskKey(parseStatement(row.statement));
      if (named !== null) verifier.trustEnrolledKey(named.publicKey, named.workstation);
    }
    return true;
  });
}

/**
 * Verifies the whole shared chain before a workstation joins (nothing is applied): the first row that does not hold,
 * or null. A join that would stop half-way through a tampered chain is refused instead.
 */
export async function sharedChainProblem(
  context: DeskParts,
  store: SharedDeskStore,
  verified?: (row: AuditRow, verifier: ChainVerifier) => void,
): Promise<{ seq: number; reason: string } | null> {
  const verifier = context.trail.verifier();
  await readEnrolmentsAhead(store, verifier);
  let problem: { seq: number; reason: string } | null = null;
  await walkSharedChain(store, (rows) => {
    for (const row of rows) {
      problem = verifier.check(row);
      if (problem) return false;
      verified?.(row, verifier);
    }
    return true;
  });
  return problem;
}

export class TeamReplicator implements TeamSeam {
  readonly #context: DeskParts;
  readonly #store: SharedDeskStore;
  readonly #workstation: string;
  readonly #verifier: ChainVerifier;
  #queue: Promise<unknown> = Promise.resolve();
  #connection: ConnectionState;
  /** Why this workstation does not trust the team database now (its own log, or the shared chain), or null. */
  #halted: string | null = null;
  /** Why this workstation's own audit log or pinned genesis does not hold (found at start; only a repaired one clears it), or null. */
  #ownProblem: string | null = null;
  /** Whether this workstation's desk key is enrolled in the verified chain (its desk events may be published). */
  #enrolled = false;
  #unsubscribe: (() => Promise<void>) | null = null;
  #draining = false;
  /** The merchant keys order evidence was checked with, by profile (read once; a workstation without them retries). */
  readonly #heldOrderKeys = new Map<string, OrderEvidenceKeys>();
  /** A scheduled check of a database a failed call marked unreachable (#probeLater). */
  #probe: NodeJS.Timeout | null = null;
  /** The kinds of rows already reported as not applied (#noteNotApplied). */
  readonly #notApplied = new Set<string>();
  /** Witnessed sends: asks the other workstations before a send, answers their requests (team/witness.ts). */
  readonly #witness: TeamWitness;

  constructor(context: DeskParts, store: SharedDeskStore, workstation: string) {
    this.#context = context;
    this.#store = store;
    this.#workstation = workstation;
    this.#verifier = this.#context.trail.verifier();
    this.#witness = new TeamWitness({
      context,
      store,
      workstation,
      pull: () => this.pull(),
      halted: () => this.#halted,
      requireUsable: () => this.#requireUsable(),
      call: (what) => this.#call(what),
    });
    // This workstation's own copy must verify before anything is added to it; otherwise nothing is (decisions refused).
    for (const row of iterateAudit(context.db)) {
      const problem = this.#verifier.check(row);
      if (problem) {
        this.#halted = this.#ownProblem = `this workstation's own audit log does not verify at row ${problem.seq}: ${problem.reason}`;
        break;
      }
    }
    // A shared-chain halt holds across restarts until a check no longer finds it (the next pull walks the whole chain).
    this.#halted ??= listTeamRefusals(context.db, 100).find((refusal) => refusal.source === 'chain')?.reason ?? null;
    const settings = getTeamSettings(context.db);
    this.#connection = { connected: settings?.connected ?? false, reason: settings?.connectionReason ?? 'not connected yet', since: settings?.connectionSince ?? context.now() };
  }

  /** Listens for appends (pulling within a second of each), then catches up. */
  async start(): Promise<void> {
    if (auditHead(this.#context.db) === null) await this.#call(() => readEnrolmentsAhead(this.#store, this.#verifier)).catch(() => undefined);
    const catchUp = (): void => void this.pull().then(() => this.#drainOutbox(), () => undefined);
    let reported = false;
    this.#unsubscribe = await this.#store.subscribe(
      catchUp,
      (state) => {
        reported = true;
        this.#setConnection(state);
        if (state.connected) catchUp();
      },
      (signal) => this.#witness.onSignal(signal),
    );
    // Listening without a report: the store is connected (a store that could not connect says so while subscribing).
    if (!reported) this.#setConnection({ connected: true, reason: null, since: this.#context.now() });
    await this.pull().catch(() => undefined);
    void this.#drainOutbox();
    // Witness requests posted while this workstation was not running are answered now.
    this.#witness.answerPending();
  }

  async stop(): Promise<void> {
    if (this.#probe !== null) clearTimeout(this.#probe);
    await this.#unsubscribe?.().catch(() => undefined);
    this.#unsubscribe = null;
    await this.#witness.settled();
    await this.#queue.catch(() => undefined);
    await this.#store.close().catch(() => undefined);
  }

  #setConnection(state: ConnectionState): void {
    if (state.connected === this.#connection.connected && state.reason === this.#connection.reason) return;
    this.#connection = state;
    if (this.#context.db.open) recordTeamConnection(this.#context.db, state);
    this.#emit({ type: 'team/changed' });
  }

  #emit(event: ContractEvent): void {
    this.#context.emit(event);
  }

  /** Runs `task` after every earlier chain task. */
  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Calls the team database, turning an outage into the offline state (and a clear refusal). */
  async #call<T>(what: () => Promise<T>): Promise<T> {
    try {
      const value = await what();
      if (!this.#connection.connected) this.#setConnection({ connected: true, reason: null, since: this.#context.now() });
      return value;
    } catch (error) {
      if (error instanceof SharedStoreError && error.kind === 'unreachable') {
        if (this.#connection.connected) this.#setConnection({ connected: false, reason: error.message, since: this.#context.now() });
        this.#probeLater();
        throw this.#offlineError();
      }
      throw error;
    }
  }

  /**
   * A call that failed (a timeout under load) marked the database unreachable while the listening connection may stay
   * up and never report a reconnection: ask the database again in a second, and again while it does not answer, so
   * decisions are not refused for good (20-workstation test).
   */
  #probeLater(): void {
    if (this.#probe !== null || this.#unsubscribe === null) return;
    this.#probe = setTimeout(() => {
      this.#probe = null;
      if (this.#connection.connected || this.#unsubscribe === null) return;
      void this.#call(() => this.#store.head()).then(() => this.pull().then(() => this.#drainOutbox()), () => undefined);
    }, PROBE_MS);
    this.#probe.unref();
  }

  #offlineError(): DeskError {
    const since = new Date(this.#connection.since).toISOString().replace('T', ' ').slice(0, 19);
    return new DeskError('offline', `the team database is unreachable since ${since} UTC (${this.#connection.reason ?? 'no answer'}): decisions wait until it is back; reviewing keeps working`);
  }

  #requireUsable(): void {
    if (this.#halted !== null) throw new DeskError('unverified', `this workstation stopped trusting the team database: ${this.#halted}`);
    if (!this.#connection.connected) throw this.#offlineError();
  }

  #refuse(source: string, rowName: string, reason: string): void {
    recordTeamRefusal(this.#context.db, { at: this.#context.now(), source, rowName, reason });
  }

  // ---- pulling ----------------------------------------------------------------------------------------------
  /** Catches up with the team database: verifies and applies every row after the local head. */
  pull(): Promise<number> {
    return this.#serial(() => this.#pullNow());
  }

  async #pullNow(options: { readonly whole?: boolean } = {}): Promise<number> {
    if (this.#ownProblem !== null) return 0;
    if (this.#halted !== null || options.whole === true) {
      // The state now: walk the whole shared chain; a problem that is gone (a row restored, a re-anchor) is cleared.
      const problem = await this.#call(() => walkSharedChainAgainstLocal(this.#context, this.#store));
      if (problem) {
        this.#halt(problem.reason, 'chain', `audit row ${problem.seq}`);
        return 0;
      }
      this.#clearChainRefusals();
    } else {
      await this.#checkRememberedHead();
      if (this.#halted !== null) return 0;
    }
    let applied = 0;
    for (;;) {
      const local = auditHead(this.#context.db);
      const rows = await this.#call(() => this.#store.rowsAfter(local?.seq ?? 0, PULL_PAGE));
      if (rows.length === 0) break;
      const orderKeys = await this.#orderKeys(rows);
      for (const row of rows) {
        const problem = this.#verifier.check(row);
        if (problem) {
          this.#halt(`team database: audit row ${problem.seq}: ${problem.reason}; the row is ignored`, 'chain', `audit row ${problem.seq}`);
          return applied;
        }
        const effect = this.#context.trail.transaction(() => {
          this.#context.trail.adopt(row);
          const outcome = applyTeamRow(this.#context, row, orderKeys);
          if (outcome.notApplied !== null) this.#noteNotApplied(row, outcome.notApplied);
          recordVerifiedHead(this.#context.db, row, this.#context.now());
          return outcome;
        });
        applied += 1;
        for (const event of effect.events) this.#emit(event);
      }
      if (rows.length < PULL_PAGE) break;
    }
    if (applied > 0) this.#emit({ type: 'operators/changed' });
    return applied;
  }

  /**
   * The keys order-status rows of `rows` are checked with (audit/order-evidence.ts): this workstation's merchant keys
   * where it holds the credentials, else the platform public key the profile's `team/profile` event carries.
   */
  async #orderKeys(rows: readonly AuditRow[]): Promise<OrderKeysFor> {
    const held = this.#heldOrderKeys;
    const profiles = new Set(rows.filter((row) => row.kind === 'system' && (row.action === ORDER_STATUS || row.action === ORDER_ACCEPTED) && row.profile !== null).map((row) => row.profile as string));
    for (const profile of profiles) {
      if (held.has(profile)) continue;
      // The active profile's keys are the context's (read once); another profile's come from the keychain. A fresh joiner has
      // no active profile yet while it pulls: its profiles come with the rows.
      const keys = await (profile === this.#context.activeProfileName() ? this.#context.keys() : this.#context.vault.load(profile)).catch(() => null);
      if (keys !== null) held.set(profile, { platformPublicKey: keys.platformPublicKey, merchantPrivateKey: keys.merchantPrivateKey });
    }
    const shared = new Map<string, OrderEvidenceKeys | null>();
    return (profile) => {
      const own = held.get(profile);
      if (own !== undefined) return own;
      // Read once per page (a team/profile event of this page is applied before the statuses after it).
      if (!shared.has(profile) || shared.get(profile) === null) shared.set(profile, sharedEvidenceKeys(this.#context.db, profile));
      return shared.get(profile) ?? null;
    };
  }

  /**
   * A verified row this version applied nothing for (it is kept in the audit log, and replication goes on): said once
   * per kind of row in team/status and the log, since a newer workstation may write many such rows.
   */
  #noteNotApplied(row: AuditRow, reason: string): void {
    const what = row.kind === row.action ? row.kind : `${row.kind} ${row.action}`;
    if (this.#notApplied.has(what)) return;
    this.#notApplied.add(what);
    const message = `team database: audit row ${row.seq} (${what}) is verified but this workstation applied nothing for it: ${reason}; replication goes on (update this workstation if a newer one wrote it)`;
    this.#refuse('apply', `audit row ${row.seq}`, message);
    appLog.warn(message);
  }

  /** Stops trusting the team database from the start (the pinned genesis does not hold: ledger/trust-roots.ts). */
  stopTrusting(reason: string): void {
    // Like a local log that does not verify: no pull or whole walk clears it, only a start with the genesis holding.
    this.#ownProblem = reason;
    this.#halt(reason, 'genesis', 'pinned genesis');
  }

  #halt(reason: string, source: string, rowName: string): void {
    const changed = this.#halted !== reason;
    this.#halted = reason;
    this.#refuse(source, rowName, reason);
    if (!changed) return;
    appLog.warn(reason);
    this.#emit({ type: 'team/changed' });
  }

  /** The shared chain holds again: its refusals stop holding (they stay in the table as history) and decisions resume. */
  #clearChainRefusals(): void {
    const wasHalted = this.#halted !== null;
    this.#halted = null;
    const cleared = clearTeamRefusals(this.#context.db, ['chain'], [], this.#context.now());
    for (const refusal of cleared) appLog.info(`team database: ${refusal.rowName} holds again; cleared: ${refusal.reason}`);
    if (wasHalted || cleared.length > 0) this.#emit({ type: 'team/changed' });
  }

  /** The shared chain must still hold the last row this workstation verified there, unchanged. */
  async #checkRememberedHead(): Promise<void> {
    const settings = getTeamSettings(this.#context.db);
    if (!settings || settings.verifiedSeq === 0 || settings.verifiedHash === null) return;
    const shared = await this.#call(() => this.#store.head());
    if (shared === null || shared.seq < settings.verifiedSeq) {
      this.#halt(
        `team database: the shared audit chain ends at row ${shared?.seq ?? 0}, but this workstation verified row ${settings.verifiedSeq}: rows were removed (truncated, or the database was restored from an older backup); ${REANCHOR_HINT}`,
        'chain',
        `audit row ${(shared?.seq ?? 0) + 1}`,
      );
      return;
    }
    const [row] = await this.#call(() => this.#store.rowsAfter(settings.verifiedSeq - 1, 1));
    if (!row || row.seq !== settings.verifiedSeq || row.hash !== settings.verifiedHash) {
      this.#halt(`team database: audit row ${settings.verifiedSeq} is not the row this workstation verified: the shared chain was rewritten`, 'chain', `audit row ${settings.verifiedSeq}`);
    }
  }

  // ---- publishing -------------------------------------------------------------------------------------------
  publishDecision(draft: StatementDraft, sign: StatementSigner, within?: (row: AuditRow) => void): Promise<AuditRow> {
    this.#requireUsable();
    return this.#serial(async () => {
      const row = await this.#publish(draft, sign, within);
      void this.#drainOutbox();
      return row;
    });
  }

  /** Signs at the shared head, appends there with the implied projections, then applies locally with `within`. */
  async #publish(draft: StatementDraft, sign: StatementSigner, within?: (row: AuditRow) => void): Promise<AuditRow> {
    const deadline = performance.now() + PUBLISH_WINDOW_MS;
    for (let attempt = 1; ; attempt += 1) {
      if (attempt > 1) {
        if (performance.now() > deadline) {
          throw new DeskError('conflict', `the team database kept changing while this decision was signed (${attempt - 1} attempts in ${PUBLISH_WINDOW_MS / 1000} s): nothing was recorded; try again`);
        }
        await new Promise((resolve) => setTimeout(resolve, randomInt(Math.min(PUBLISH_PAUSE_MS, 25 * 2 ** attempt))));
      }
      this.#requireUsable();
      await this.#pullNow();
      this.#requireUsable();
      const { row, projections } = this.#prepare(draft, sign, within);
      const expected: ChainHead | null = row.seq === 1 ? null : { seq: row.seq - 1, hash: row.prevHash };
      const outcome = await this.#call(() => this.#store.append([row], projections, expected));
      if (!outcome.appended) continue; // another workstation appended first: catch up and sign again
      const problem = this.#verifier.check(row);
      if (problem) throw new DeskError('unverified', `this workstation's own statement did not verify: ${problem.reason}`);
      this.#context.trail.transaction(() => {
        this.#context.trail.adopt(row);
        within?.(row);
        recordVerifiedHead(this.#context.db, row, this.#context.now());
      });
      return row;
    }
  }

  /**
   * Signs the statement at the local head (the shared head after a catch-up) and runs `within` to check it and to
   * compute the projection rows, then rolls all of it back: the row becomes local only once the team database took it.
   */
  #prepare(draft: StatementDraft, sign: StatementSigner, within?: (row: AuditRow) => void): { row: AuditRow; projections: ReturnType<typeof projectionsFor> } {
    let prepared: { row: AuditRow; projections: ReturnType<typeof projectionsFor> } | undefined;
    try {
      this.#context.trail.transaction(() => {
        const row = appendStatement(this.#context.db, draft, sign, this.#context.now());
        // The registry's rule, as every workstation will apply it on replay: a refused statement is never published.
        const refusal = this.#context.trail.refusal(row);
        if (refusal !== null) throw new RowRefused(refusal);
        within?.(row);
        prepared = { row, projections: projectionsFor(this.#context, row) };
        throw new Rollback();
      });
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    }
    if (!prepared) throw new DeskError('internal', 'the decision was not prepared');
    return prepared;
  }

  queueSystemEvent(event: TeamSystemEvent): void {
    addTeamOutboxEvent(this.#context.db, JSON.stringify(event), this.#context.now());
    setImmediate(() => void this.#drainOutbox());
  }

  /** Publishes the queued desk-signed events in order; an outage leaves them queued for the next try. */
  async #drainOutbox(): Promise<void> {
    if (this.#draining) return;
    this.#draining = true;
    try {
      // Desk events wait until an admin's enrolment of this workstation's desk key is in the chain (devices.ts);
      // rows are never removed from a verified chain, so once enrolled it stays so.
      this.#enrolled ||= workstationEnrolled(this.#context, this.#context.trail.deskPublicKey);
      if (!this.#enrolled) return;
      for (;;) {
        if (!this.#context.db.open || this.#halted !== null || !this.#connection.connected) return;
        const next = nextTeamOutboxEvent(this.#context.db);
        if (next === null) return;
        const event = JSON.parse(next.eventJson) as TeamSystemEvent;
        const { draft, sign } = this.#context.trail.systemDraft(event);
        try {
          await this.#serial(() => this.#publish(draft, sign, () => removeTeamOutboxEvent(this.#context.db, next.id)));
        } catch (error) {
          if (!(error instanceof RowRefused)) throw error;
          // An event no workstation would accept (not one of the desk's named events) must not hold up the ones after it.
          removeTeamOutboxEvent(this.#context.db, next.id);
          this.#refuse('outbox', `desk event ${event.action} (queued as ${next.id})`, `${error.message}; the event was not published`);
          appLog.warn(`team outbox: ${error.message}; the event was not published`);
          continue;
        }
        const request = event.subject ? getWithdrawalRequestByUserOrder(this.#context.db, event.subject) : undefined;
        if (request) this.#emit({ type: 'withdrawals/changed', id: String(request.id) });
      }
    } catch {
      // offline or refused: the events stay queued; the next decision, pull or reconnect tries again
    } finally {
      this.#draining = false;
    }
  }

  /** Publishes what is queued (tests and engine close wait for it). */
  async flush(): Promise<void> {
    await this.#drainOutbox();
    await this.#queue.catch(() => undefined);
  }

  // ---- witnessed sends --------------------------------------------------------------------------------------
  witness(): Promise<void> {
    return this.#witness.witness();
  }

  // ---- submission claims ------------------------------------------------------------------------------------
  async holdSubmission(userOrder: string): Promise<void> {
    this.#requireUsable();
    const outcome = await this.#call(() => this.#store.claimSubmission(userOrder, this.#workstation, SUBMISSION_LEASE_MS));
    if (!outcome.claimed) {
      const holder = outcome.heldBy;
      if (holder.state === 'done') throw new DeskError('conflict', `withdrawal ${userOrder} was already submitted by workstation ${holder.workstation} (${holder.result ?? 'done'})`);
      const until = new Date(holder.leaseUntil).toISOString().replace('T', ' ').slice(0, 19);
      throw new DeskError('conflict', `workstation ${holder.workstation} is submitting withdrawal ${userOrder} (its claim runs until ${until} UTC): wait for it`);
    }
    // Catching up shows a submit another workstation signed (an expired claim it may have sent under) as in flight,
    // so the caller resolves it with checkWithdrawOrder under the same userOrder and never sends it anew.
    await this.pull();
  }

  async claimOnce(key: string, leaseMs: number): Promise<string | null> {
    this.#requireUsable();
    const outcome = await this.#call(() => this.#store.claimSubmission(key, this.#workstation, leaseMs));
    return outcome.claimed ? null : outcome.heldBy.workstation;
  }

  submissionSettled(userOrder: string, result: string): void {
    void this.#call(() => this.#store.updateClaim(userOrder, this.#workstation, { state: 'done', result })).catch(() => undefined);
  }

  // ---- team verify: the state now --------------------------------------------------------------------------------
  /**
   * `team verify`: walks the whole shared chain against the verified copy and the remembered head, catches up, then
   * checks the projection rows. Refusals that no longer hold are cleared (they stay as history), so the answer is the
   * state now: a restored row clears its refusal.
   */
  async verifyNow(): Promise<void> {
    await this.#serial(() => this.#pullNow({ whole: true }));
    if (this.#halted !== null) return;
    const found = await this.checkProjections();
    const cleared = clearTeamRefusals(this.#context.db, PROJECTION_SOURCES, found, this.#context.now());
    for (const refusal of cleared) appLog.info(`team database: ${refusal.rowName} agrees with its statements again; cleared: ${refusal.reason}`);
  }

  /**
   * Runs `task` on the team database in the chain queue (nothing pulls or publishes meanwhile), then walks the whole
   * chain again: the re-anchor step (team/reanchor.ts) plans and republishes verified rows a restored database lacks.
   */
  async withChain<T>(task: (store: SharedDeskStore) => Promise<T>): Promise<T> {
    const value = await this.#serial(async () => {
      const answer = await this.#call(() => task(this.#store));
      await this.#pullNow({ whole: true });
      return answer;
    });
    void this.#drainOutbox();
    return value;
  }

  // ---- projections and status -------------------------------------------------------------------------------
  /**
   * Reads the team database's withdrawal, approval, batch, label and address-book rows and compares each with what the
   * verified statements say (the local tables): a mismatching row is refused, naming it, and never used. Returns the
   * refusals found.
   */
  async checkProjections(): Promise<TeamRefusal[]> {
    const found: TeamRefusal[] = [];
    const refuse = (source: string, rowName: string, reason: string): void => {
      const refusal = { at: this.#context.now(), source, rowName, reason };
      found.push(refusal);
      recordTeamRefusal(this.#context.db, refusal);
    };
    let after: string | null = null;
    do {
      const page = await this.#call(() => this.#store.projection('withdrawal_requests', { after, limit: 500 }));
      for (const projected of page.rows) {
        const userOrder = String(projected.row['userOrder'] ?? projected.key);
        const name = `withdrawal_requests row ${projected.rowId} (userOrder ${userOrder})`;
        const local = getWithdrawalRequestByUserOrder(this.#context.db, userOrder);
        if (!local) {
          refuse('withdrawal_requests', name, `team database: ${name} has no signed request statement; the row is ignored`);
          continue;
        }
        for (const [field, expected] of [['state', local.state], ['amount', local.amount], ['toAddress', local.toAddress], ['currency', local.currency]] as const) {
          if (projected.row[field] !== expected) {
            refuse('withdrawal_requests', name, `team database: ${name} says ${field} '${String(projected.row[field])}' but its signed statements say '${expected}'; the row is ignored`);
          }
        }
      }
      after = page.nextCursor;
    } while (after !== null);
    after = null;
    do {
      const page = await this.#call(() => this.#store.projection('approvals', { after, limit: 500 }));
      for (const projected of page.rows) {
        const userOrder = String(projected.row['userOrder'] ?? '');
        const operator = String(projected.row['operator'] ?? '');
        const name = `approvals row ${projected.rowId} (userOrder ${userOrder}, operator ${operator})`;
        const seq = Number(projected.row['seq']);
        const row = Number.isSafeInteger(seq) ? getAuditRow(this.#context.db, seq) : undefined;
        const signed = row !== undefined && row.seq === seq && row.operator === operator && row.kind === projected.row['decision'];
        const local = getWithdrawalRequestByUserOrder(this.#context.db, userOrder);
        if (!signed || !local || row.subject !== local.intentHash) {
          refuse('approvals', name, `team database: ${name} has no signed ${String(projected.row['decision'] ?? 'approval')} statement behind it; the row is ignored`);
        }
      }
      after = page.nextCursor;
    } while (after !== null);
    const rosters = new Map<string, Roster>();
    const rosterOf = (profile: string): Roster => {
      const known = rosters.get(profile) ?? this.#context.trail.roster(profile);
      rosters.set(profile, known);
      return known;
    };
    for (const table of DESK_STATE_TABLES) {
      after = null;
      do {
        const page = await this.#call(() => this.#store.projection(table, { after, limit: 500 }));
        for (const projected of page.rows) {
          const name = `${table} row ${projected.rowId} (${projected.key})`;
          const expected = expectedDeskStateRow(this.#context, rosterOf, table, projected.row);
          if (expected === null || expected.key !== projected.key) {
            refuse(table, name, `team database: ${name} has no signed statement behind it; the row is ignored`);
            continue;
          }
          for (const [field, value] of Object.entries(expected.row)) {
            if (projected.row[field] !== value) {
              refuse(table, name, `team database: ${name} says ${field} '${String(projected.row[field])}' but its signed statements say '${String(value)}'; the row is ignored`);
            }
          }
        }
        after = page.nextCursor;
      } while (after !== null);
    }
    return found;
  }

  status(): TeamStatus {
    const settings = getTeamSettings(this.#context.db);
    return {
      connected: this.#connection.connected,
      since: this.#connection.since,
      reason: this.#connection.reason,
      verifiedSeq: settings?.verifiedSeq ?? 0,
      verifiedAt: settings?.verifiedAt ?? null,
      halted: this.#halted,
      refused: listTeamRefusals(this.#context.db, 20),
      pendingEvents: countTeamOutbox(this.#context.db),
    };
  }
}
