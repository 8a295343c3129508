// The desk's audit trail over the signed log (audit/audit-table.ts): appends rows signed by an operator or by the desk key,
// anchors the head in this workstation's keychain after each commit, verifies the whole chain against the roster as
// it stood at every row, and writes and checks signed checkpoints (APPROVALS.md "Audit"). Verification never trusts
// a column: each row's statement is parsed, its seq and prev checked, its signature checked against the key the
// roster held at that row, and the columns compared with the statement.
import {
  auditRowHash,
  CHAIN_GENESIS,
  type ChainRow,
  type ChainStanding,
  type DeskKeyInForce,
  encodeCanonical,
  foundingAfterPin,
  type HeadAck,
  headAckMessage,
  importPublicKey,
  isRosterKind,
  keyIdOf,
  LEGACY_SEALED,
  parseStatement,
  pinnedDeskKeys,
  type PinnedGenesis,
  PROFILE_REMOVED,
  profileRemovalEndsRoster,
  readableFingerprint,
  refuseRow,
  Roster,
  ROSTER_BODIES,
  ROSTER_KINDS,
  type Statement,
  STATEMENT_DOMAIN,
  type StatementBody,
  systemBodySchema,
  verifyBytes,
  verifyStatementText,
  WORKSTATION_ENROLMENT,
  workstationEnrolment,
} from '../ledger';
import {
  actionOf,
  appendStatement,
  auditHead,
  auditRosterRows,
  auditRowsBySubject,
  auditRowsNamingDeskKeys,
  checkLegacyAudit,
  countAuditRows,
  getAuditRow,
  insertAuditRow,
  iterateAudit,
  type AuditRow,
  type StatementDraft,
  type StatementSigner,
} from './audit-table';
import { type StoreDatabase, writeTransaction } from '../store/database';
import { getSetting } from '../profiles';
import { DeskError } from '../kernel/errors';
import type { TeamSeam, TeamSystemEvent } from './team-seam';
import type { DeskSecretStore } from '../secrets';
import type { DeskIdentity } from './desk-identity';

export const CHECKPOINT_DOMAIN = 'treasury-desk/checkpoint/v1\n';
const DESK_ID_SETTING = 'desk.id';

export interface Checkpoint {
  readonly v: 1;
  readonly deskId: string;
  readonly seq: number;
  readonly headHash: string;
  readonly at: number;
  readonly publicKey: string;
}

export interface SignedCheckpoint {
  readonly checkpoint: Checkpoint;
  readonly signature: string;
}

export interface ChainHead {
  readonly seq: number;
  readonly hash: string;
  /** The head hash as a readable code (4 groups of 4). */
  readonly fingerprint: string;
}

export type ChainVerification =
  | { readonly ok: true; readonly rows: number; readonly head: ChainHead | null; readonly legacyRows: number; readonly anchored: boolean; readonly checkpoint: 'matched' | null }
  | { readonly ok: false; readonly rows: number; readonly firstBadSeq: number; readonly reason: string; readonly head: ChainHead | null };

export function headOf(row: { seq: number; hash: string } | null): ChainHead | null {
  return row === null ? null : { seq: row.seq, hash: row.hash, fingerprint: readableFingerprint(Buffer.from(row.hash, 'hex')) };
}

/** Parses a checkpoint file's text; a clear error when it is not one. */
export function parseCheckpoint(text: string): SignedCheckpoint {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('the checkpoint file is not JSON');
  }
  const file = value as Partial<SignedCheckpoint> | null;
  const c = file?.checkpoint;
  if (
    !file ||
    typeof file.signature !== 'string' ||
    !c ||
    c.v !== 1 ||
    typeof c.deskId !== 'string' ||
    !Number.isSafeInteger(c.seq) ||
    c.seq < 1 ||
    typeof c.headHash !== 'string' ||
    !/^[0-9a-f]{64}$/.test(c.headHash) ||
    !Number.isSafeInteger(c.at) ||
    typeof c.publicKey !== 'string'
  ) {
    throw new Error('the file is not a Treasury Desk audit checkpoint');
  }
  return { checkpoint: { v: 1, deskId: c.deskId, seq: c.seq, headHash: c.headHash, at: c.at, publicKey: c.publicKey }, signature: file.signature };
}

interface Anchor {
  readonly seq: number;
  readonly hash: string;
}

export class AuditTrail {
  readonly #db: StoreDatabase;
  readonly #identity: DeskIdentity;
  readonly #secrets: DeskSecretStore;
  readonly #now: () => number;
  #anchorWrite: Promise<void> = Promise.resolve();
  #anchorDirty = false;
  #anchorRunning = false;

  constructor(db: StoreDatabase, identity: DeskIdentity, secrets: DeskSecretStore, now: () => number) {
    this.#db = db;
    this.#identity = identity;
    this.#secrets = secrets;
    this.#now = now;
  }

  get deskKeyId(): string {
    return this.#identity.keyId;
  }

  get deskPublicKey(): string {
    return this.#identity.publicKey;
  }

  get deskId(): string {
    const id = getSetting(this.#db, DESK_ID_SETTING);
    if (typeof id !== 'string' || !/^[0-9a-f]{32}$/.test(id)) throw new Error('this database has no desk id (migration 0050 sets one)');
    return id;
  }

  // ---- writing ------------------------------------------------------------------------------------------------
  #team: TeamSeam | null = null;

  /** The team database's seam while this desk is a team desk (team/mode.ts), else null. */
  get team(): TeamSeam | null {
    return this.#team;
  }

  setTeamSeam(seam: TeamSeam | null): void {
    this.#team = seam;
  }

  #pinned: PinnedGenesis | null = null;

  /** The genesis this workstation pinned (ledger/trust-roots.ts), once team mode read it from the keychain; else null. */
  get pinnedGenesis(): PinnedGenesis | null {
    return this.#pinned;
  }

  setPinnedGenesis(genesis: PinnedGenesis | null): void {
    this.#pinned = genesis;
    this.#rosterCache = undefined;
  }

  /**
   * Appends a statement signed by `sign` (an unsealed operator key); see appendStatement for transactions. A team
   * desk's decisions go through the team seam (ActingOperator.sign); a direct append would fork the shared chain.
   */
  append(draft: StatementDraft, sign: StatementSigner): AuditRow {
    if (this.#team !== null) {
      throw new DeskError('conflict', 'this is a team desk: founding a profile is not carried to the team database; found it before team init (docs/team.md)');
    }
    const row = this.transaction(() => {
      const appended = appendStatement(this.#db, draft, sign, this.#now());
      // The registry's rule for the kind, as replay will apply it: a statement it refuses is never stored.
      const refusal = this.refusal(appended);
      if (refusal !== null) throw new DeskError('forbidden', `the desk refuses this statement: ${refusal}`);
      return appended;
    });
    this.#scheduleAnchor();
    return row;
  }

  /**
   * Why a row signed at the local head may not stand there (ledger/registry.ts refuseRow, the rule replay applies), or
   * null: the local append path and the team's publishDecision ask it before a statement is stored or published.
   */
  refusal(row: AuditRow): string | null {
    const statement = parseStatement(row.statement);
    if (!statement) return `row ${row.seq} does not hold a well-formed signed statement`;
    return refuseRow({ seq: row.seq, hash: row.hash, text: row.statement, signature: row.signature, statement }, this.#standingBefore(row.seq, statement.profile ?? ''));
  }

  /**
   * The roster of `profile` just before row `seq`: the last replay when it was made at row seq - 1 (a decision's
   * actingAs replays afresh just before signing), else a replay of the rows before `seq`. A fresh one either way when
   * the roster rule will apply the row to it.
   */
  #rosterBefore(seq: number, profile: string): Roster {
    const previous = seq > 1 ? getAuditRow(this.#db, seq - 1) : undefined;
    const cached = this.#rosterCache;
    const current = getAuditRow(this.#db, seq);
    const rosterKind = current !== undefined && (ROSTER_KINDS as readonly string[]).includes(current.kind);
    if (!rosterKind && previous !== undefined && cached?.key === `${profile}\n${previous.seq}\n${previous.hash}`) return cached.roster;
    return Roster.replay(this.rosterRows(profile).filter((row) => row.seq < seq), (row) => this.#deskSigned(row));
  }

  /**
   * The desk key with this id in force just before row `seq` (this workstation's own, one a founding named, or one an
   * admin enrolled for a named workstation), or undefined: the same lookup the registry's desk-signer rule applies, for
   * readers that judge a desk-signed row themselves (withdrawals/control-proof.ts).
   */
  deskKeyBefore(seq: number, keyId: string): DeskKeyInForce | undefined {
    return this.#standingBefore(seq, '').deskKey(keyId);
  }

  /** The local chain's standing just before row `seq` of `profile` (each part read only when a rule asks for it). */
  #standingBefore(seq: number, profile: string): ChainStanding {
    const db = this.#db;
    const identity = this.#identity;
    let roster: Roster | undefined;
    let deskKeys: Map<string, DeskKeyInForce> | undefined;
    const namedKeys = (): Map<string, DeskKeyInForce> => {
      if (deskKeys) return deskKeys;
      deskKeys = new Map([[identity.keyId, { publicKey: identity.publicKey, workstation: null, own: true }]]);
      for (const row of auditRowsNamingDeskKeys(db, WORKSTATION_ENROLMENT)) {
        const named = row.seq < seq ? namedDeskKey(parseStatement(row.statement)) : null;
        const keyId = named === null ? null : keyIdOf(named.publicKey);
        if (named !== null && keyId !== null && (!deskKeys.has(keyId) || named.workstation !== null)) deskKeys.set(keyId, { ...named, own: keyId === identity.keyId });
      }
      return deskKeys;
    };
    return {
      roster: () => (roster ??= this.#rosterBefore(seq, profile)),
      // This workstation's own key (every desk event it signs) without reading the chain's enrolments.
      deskKey: (keyId) => (keyId === identity.keyId && deskKeys === undefined ? { publicKey: identity.publicKey, workstation: null, own: true } : namedKeys().get(keyId)),
      initiator: (subject) =>
        auditRowsBySubject(db, profile, subject).find((row) => row.kind === 'request' && row.seq < seq && row.profile === profile)?.operator ?? undefined,
      legacy: () => checkLegacyAudit(db),
      foundingRefusal: (statement) => {
        const pinned = this.#pinned;
        if (statement.kind !== 'found' || pinned === null || seq <= pinned.seq) return null;
        // Rare (a profile founded on a team desk): the same rule as replay, over the local rows before this one.
        const verifier = this.verifier();
        for (const row of iterateAudit(db)) {
          if (row.seq >= seq) break;
          const problem = verifier.check(row);
          if (problem) return `the audit log does not verify at row ${problem.seq}: ${problem.reason}`;
        }
        return verifier.foundingRefusalAt(statement, seq);
      },
      afterPin: this.#pinned !== null && seq > this.#pinned.seq,
      teamDesk: () => auditRowsNamingDeskKeys(db, WORKSTATION_ENROLMENT).some((enrolling) => enrolling.kind === 'action' && enrolling.seq < seq),
    };
  }

  /**
   * Appends a signed statement and whatever `within` writes, committed together: the one way decisions and roster
   * statements are written. On a team desk it goes through the team database first (TeamSeam.publishDecision).
   */
  async appendSigned(draft: StatementDraft, sign: StatementSigner, within?: (row: AuditRow) => void): Promise<AuditRow> {
    if (this.#team !== null) return this.#team.publishDecision(draft, sign, within);
    return this.transaction(() => {
      const row = this.append(draft, sign);
      within?.(row);
      return row;
    });
  }

  /** Stores a row verified elsewhere (a team row pulled, or this workstation's decision once the team database took it). */
  adopt(row: AuditRow): void {
    insertAuditRow(this.#db, row);
    this.#scheduleAnchor();
  }

  /** The desk key's draft of a system event. */
  systemDraft(event: TeamSystemEvent): { draft: StatementDraft; sign: StatementSigner } {
    const body: StatementBody = { action: event.action, details: JSON.parse(encodeCanonical(toSignable(event.details ?? {}))) as StatementBody[string] };
    return {
      draft: { kind: 'system', profile: event.profile ?? null, subject: event.subject ?? '', body, operator: null, keyId: this.#identity.keyId },
      sign: (text) => this.#identity.sign(STATEMENT_DOMAIN + text),
    };
  }

  /**
   * A system event signed by the desk key. Never put a secret in `details`. On a team desk it is queued (in the
   * caller's transaction) and published at the shared head, so the answer is null.
   */
  system(event: TeamSystemEvent): AuditRow | null {
    if (this.#team !== null) {
      this.#team.queueSystemEvent(event);
      return null;
    }
    const { draft, sign } = this.systemDraft(event);
    return this.append(draft, sign);
  }

  /** Seals the unsigned log of before migration 0050 into the signed one, once (its first row records the old head). */
  sealLegacyLog(): void {
    if (auditHead(this.#db) !== null) return;
    const legacy = checkLegacyAudit(this.#db);
    if (legacy.rows === 0 && legacy.firstBadSeq === null) return;
    this.system({ action: 'audit/legacySealed', details: { rows: legacy.rows, headHash: legacy.headHash, firstBadSeq: legacy.firstBadSeq } });
  }

  // ---- the keychain anchor --------------------------------------------------------------------------------------
  /**
   * The keychain entry anchoring this chain's head, named after the chain's own first row (its hash), not after any
   * setting: an editor of the database cannot move the chain to an unanchored name without rewriting row 1, which
   * every later row's signed `prev` rules out. Null while the log is empty.
   */
  #anchorName(): string | null {
    const first = getAuditRow(this.#db, 1);
    return first === undefined ? null : `audit-head/${first.hash.slice(0, 32)}`;
  }

  /** The anchor's entry name (audit/anchor-store.ts moves it between the keychain and the file). */
  anchorName(): string | null {
    return this.#anchorName();
  }

  /**
   * Writes the committed head to the keychain after the current transaction; writes coalesce to the latest head. The
   * anchor only moves forward over a log that still holds the anchored row unchanged: when rows this workstation saw
   * were removed or rewritten, the anchor stays put, so every later check keeps finding it (a row appended after the
   * tampering, such as the refusal that reports it, must not make the log look whole again).
   */
  #scheduleAnchor(): void {
    this.#anchorDirty = true;
    if (this.#anchorRunning) return;
    this.#anchorRunning = true;
    this.#anchorWrite = (async () => {
      await Promise.resolve();
      while (this.#anchorDirty) {
        this.#anchorDirty = false;
        const head = this.#db.open ? auditHead(this.#db) : null;
        if (head === null) continue;
        try {
          const current = await this.readAnchor();
          const name = this.#anchorName();
          const stillHeld = current === null || (this.#db.open && getAuditRow(this.#db, current.seq)?.hash === current.hash);
          if (name !== null && stillHeld && (current === null || current.seq < head.seq)) await this.#secrets.write(name, JSON.stringify({ seq: head.seq, hash: head.hash }));
        } catch {
          // the keychain did not answer: the next append tries again; verification says the anchor is behind
        }
      }
      this.#anchorRunning = false;
    })();
  }

  /** Waits for pending anchor writes (engine close, tests). */
  async flush(): Promise<void> {
    while (this.#anchorRunning) await this.#anchorWrite;
  }

  async readAnchor(): Promise<Anchor | null> {
    const name = this.#anchorName();
    if (name === null) return null;
    const text = await this.#secrets.read(name);
    if (text === null) return null;
    const value = JSON.parse(text) as Partial<Anchor>;
    if (!Number.isSafeInteger(value.seq) || typeof value.hash !== 'string') return null;
    return { seq: value.seq as number, hash: value.hash };
  }

  /** Why the stored chain no longer holds the anchored head, or null when it does (or nothing is anchored yet). */
  async anchorProblem(): Promise<{ seq: number; reason: string } | null> {
    const anchor = await this.readAnchor();
    if (anchor === null) return null;
    const row = getAuditRow(this.#db, anchor.seq);
    if (!row) {
      const head = auditHead(this.#db);
      return {
        seq: (head?.seq ?? 0) + 1,
        reason: `the audit log ends at row ${head?.seq ?? 0}, but this workstation already saw row ${anchor.seq}: rows were removed from its end`,
      };
    }
    if (row.hash !== anchor.hash) return { seq: anchor.seq, reason: `row ${anchor.seq} is not the row this workstation saw: the log was rewritten at or before it` };
    return null;
  }

  // ---- reading and verifying ----------------------------------------------------------------------------------
  head(): ChainHead | null {
    return headOf(auditHead(this.#db));
  }

  /** A profile's roster rows, parsed (unparseable rows are returned as-is for the roster to refuse). */
  rosterRows(profile: string): ChainRow[] {
    return auditRosterRows(this.#db, profile, ROSTER_KINDS, PROFILE_REMOVED).flatMap((row) => {
      const statement = parseStatement(row.statement);
      return statement ? [{ seq: row.seq, hash: row.hash, text: row.statement, signature: row.signature, statement }] : [];
    });
  }

  /**
   * The profile's roster replayed from its signed rows. Views may reuse the last replay while the chain's head is
   * unchanged (`cached: true`); decisions and submission always replay afresh, so an edit in place is never missed.
   */
  roster(profile: string, options: { readonly cached?: boolean } = {}): Roster {
    const head = auditHead(this.#db);
    const key = `${profile}\n${head?.seq ?? 0}\n${head?.hash ?? ''}`;
    if (options.cached === true && this.#rosterCache?.key === key) return this.#rosterCache.roster;
    const roster = Roster.replay(this.rosterRows(profile), (row) => this.#deskSigned(row));
    this.#rosterCache = { key, roster };
    return roster;
  }

  #rosterCache: { key: string; roster: Roster } | undefined;

  /** Whether a desk-signed profile removal ends the roster here: this workstation's own, on a desk with no team workstation enrolled. */
  #deskSigned(row: ChainRow): boolean {
    if (row.statement.operator !== null || row.statement.keyId !== this.#identity.keyId) return false;
    const teamDesk = auditRowsNamingDeskKeys(this.#db, WORKSTATION_ENROLMENT).some((enrolling) => enrolling.kind === 'action' && enrolling.seq < row.seq);
    if (!profileRemovalEndsRoster(true, teamDesk)) return false;
    const key = importPublicKey(this.#identity.publicKey);
    return key !== null && verifyStatementText(key, row.text, row.signature);
  }

  /** Runs `fn` in one write transaction (a decision, its state change and its audit rows commit together). */
  transaction<T>(fn: () => T): T {
    return writeTransaction(this.#db, fn);
  }

  /**
   * Checks that rows 1..head all exist and link: each row's hash matches its statement and signature, each
   * statement's seq and prev are its own, and its columns agree with it. Cheap (no signatures); returns the first
   * problem, and the rows (parsed) whose statement subject is `collectSubject` in `collectProfile`.
   *
   * Incremental: rows up to the last walk that held are walked again only when another connection (another process,
   * a person with the file) has committed to the database since (`PRAGMA data_version`); this engine's own connection
   * only ever appends audit rows (and the triggers refuse updates and deletes). So a batch's lines each pay for the rows
   * added since the previous line, not for the whole chain, and a row deleted or edited from outside is still found.
   */
  linkage(collect?: { profile: string; subject: string }): { problem: { seq: number; reason: string } | null; collected: ChainRow[] } {
    const held = this.#heldPrefix();
    const collected: ChainRow[] = [];
    const gather = (row: AuditRow): void => {
      if (!collect || row.profile !== collect.profile || row.subject !== collect.subject) return;
      const statement = parseStatement(row.statement);
      if (statement && statement.profile === collect.profile && statement.subject === collect.subject) {
        collected.push({ seq: row.seq, hash: row.hash, text: row.statement, signature: row.signature, statement });
      }
    };
    // The held prefix's columns were checked against its statements and have not changed since: its subject index is the walk's.
    if (held && collect) for (const row of auditRowsBySubject(this.#db, collect.profile, collect.subject)) if (row.seq <= held.seq) gather(row);
    let previous = held?.hash ?? CHAIN_GENESIS;
    let expected = (held?.seq ?? 0) + 1;
    for (const row of iterateAudit(this.#db, expected)) {
      const problem = rowShape(row, expected, previous, false);
      if (problem) {
        this.#held = undefined;
        return { problem: { seq: Math.min(row.seq, expected), reason: problem.reason }, collected };
      }
      gather(row);
      previous = row.hash;
      expected += 1;
    }
    if (countAuditRows(this.#db) !== expected - 1) {
      this.#held = undefined;
      return { problem: { seq: expected, reason: 'the audit log has rows beyond a gap' }, collected };
    }
    // Only committed rows are remembered: a transaction of this connection could still roll back its own appends.
    if (expected > 1 && !this.#db.inTransaction) this.#held = { seq: expected - 1, hash: previous, dataVersion: this.#dataVersion() };
    return { problem: null, collected };
  }

  /** The last walk that held, while nothing but this connection has committed since and its last row is unchanged. */
  #heldPrefix(): { seq: number; hash: string } | null {
    const held = this.#held;
    if (held === undefined || this.#db.inTransaction || held.dataVersion !== this.#dataVersion() || getAuditRow(this.#db, held.seq)?.hash !== held.hash) return null;
    return held;
  }

  #held: { seq: number; hash: string; dataVersion: number } | undefined;

  /** Changes whenever another connection commits to the database file (SQLite's `PRAGMA data_version`). */
  #dataVersion(): number {
    return this.#db.pragma('data_version', { simple: true }) as number;
  }

  /**
   * The full check (`audit verify`): linkage, every signature against the roster as it stood at that row (operators)
   * or against a desk key (this workstation's, or one the founders named), the legacy seal, the keychain anchor, and
   * optionally a checkpoint: its signature, and that its row is still there with the same hash.
   */
  async verify(options: { readonly against?: SignedCheckpoint } = {}): Promise<ChainVerification> {
    const verifier = this.verifier();
    for (const row of iterateAudit(this.#db)) {
      const problem = verifier.check(row);
      if (problem) return { ok: false, rows: verifier.rows, firstBadSeq: problem.seq, reason: problem.reason, head: this.head() };
    }
    const fail = (seq: number, reason: string): ChainVerification => ({ ok: false, rows: verifier.rows, firstBadSeq: seq, reason, head: this.head() });
    const anchor = await this.anchorProblem();
    if (anchor) return fail(anchor.seq, anchor.reason);
    let checkpoint: 'matched' | null = null;
    if (options.against) {
      const problem = this.#checkpointProblem(options.against, verifier.deskKeys, verifier.rows);
      if (problem) return fail(problem.seq, problem.reason);
      checkpoint = 'matched';
    }
    return { ok: true, rows: verifier.rows, head: this.head(), legacyRows: verifier.legacyRows, anchored: (await this.readAnchor()) !== null, checkpoint };
  }

  /**
   * A verifier at the start of the chain (feed it rows in seq order) that trusts this workstation's desk key and the
   * desk keys the chain's foundings and workstation enrolments name (read ahead: see ChainVerifier.trustEnrolledKey).
   */
  verifier(): ChainVerifier {
    const verifier = new ChainVerifier(this.#identity, () => checkLegacyAudit(this.#db), this.#pinned);
    for (const row of auditRowsNamingDeskKeys(this.#db, WORKSTATION_ENROLMENT)) {
      const named = namedDeskKey(parseStatement(row.statement));
      if (named !== null) verifier.trustEnrolledKey(named.publicKey, named.workstation);
    }
    return verifier;
  }

  #checkpointProblem(file: SignedCheckpoint, deskKeys: ReadonlyMap<string, string>, lastSeq: number): { seq: number; reason: string } | null {
    const c = file.checkpoint;
    const keyId = keyIdOf(c.publicKey);
    const key = importPublicKey(c.publicKey);
    if (!key || !verifyBytes(key, CHECKPOINT_DOMAIN + encodeCanonical(c), file.signature)) {
      return { seq: c.seq, reason: 'the checkpoint file was altered: its signature does not verify' };
    }
    if (deskKeys.get(keyId) !== c.publicKey) return { seq: c.seq, reason: `the checkpoint was signed by key ${keyId}, which is not this desk's` };
    if (c.deskId !== this.deskId) return { seq: c.seq, reason: 'the checkpoint belongs to another desk database' };
    if (c.seq > lastSeq) {
      return { seq: lastSeq + 1, reason: `the log ends at row ${lastSeq}, but the checkpoint covers row ${c.seq}: rows ${lastSeq + 1} to ${c.seq} were removed` };
    }
    const row = getAuditRow(this.#db, c.seq);
    if (!row || row.hash !== c.headHash) return { seq: c.seq, reason: `row ${c.seq} is not the row the checkpoint recorded: the log was rewritten at or before it` };
    return null;
  }

  /** Signs a team head acknowledgement (statements/head-ack.ts: its own domain) with this workstation's desk key. */
  signHeadAck(ack: HeadAck): string {
    return this.#identity.sign(headAckMessage(ack));
  }

  /** The desk keys rows of the chain name (foundings, workstation enrolments), each with the first row naming it. */
  namedDeskKeys(): { readonly keyId: string; readonly publicKey: string; readonly namedBy: number }[] {
    const named = new Map<string, { keyId: string; publicKey: string; namedBy: number }>();
    for (const row of auditRowsNamingDeskKeys(this.#db, WORKSTATION_ENROLMENT)) {
      const key = namedDeskKey(parseStatement(row.statement));
      if (key === null || importPublicKey(key.publicKey) === null) continue;
      const keyId = keyIdOf(key.publicKey);
      if (!named.has(keyId)) named.set(keyId, { keyId, publicKey: key.publicKey, namedBy: row.seq });
    }
    return [...named.values()];
  }

  /** A signed checkpoint of the current head (null when the log is empty). */
  checkpoint(): SignedCheckpoint | null {
    const head = auditHead(this.#db);
    if (head === null) return null;
    const checkpoint: Checkpoint = { v: 1, deskId: this.deskId, seq: head.seq, headHash: head.hash, at: this.#now(), publicKey: this.#identity.publicKey };
    return { checkpoint, signature: this.#identity.sign(CHECKPOINT_DOMAIN + encodeCanonical(checkpoint)) };
  }
}

/** Whether a row sits at `expected` after `previous` and says in its columns what its statement says (no signature check). */
function rowShape(row: AuditRow, expected: number, previous: string, requireCanonical = true): { reason: string } | null {
  if (row.seq !== expected) {
    return row.seq > expected
      ? { reason: `row ${expected} is missing: the log jumps from ${expected - 1} to ${row.seq}` }
      : { reason: `row ${row.seq} is out of order (expected ${expected})` };
  }
  const statement = parseStatement(row.statement, { requireCanonical });
  if (!statement) return { reason: `row ${row.seq} does not hold a well-formed signed statement` };
  if (statement.seq !== row.seq) return { reason: `row ${row.seq} holds the statement signed for row ${statement.seq}` };
  if (statement.prev !== previous || row.prevHash !== previous) {
    return { reason: row.seq === 1 ? 'row 1 does not start the chain' : `row ${row.seq} does not link to row ${row.seq - 1}` };
  }
  if (auditRowHash(row.statement, row.signature) !== row.hash) return { reason: `row ${row.seq} does not match its hash: it was altered` };
  const columnsAgree =
    row.at === statement.at &&
    row.profile === statement.profile &&
    row.kind === statement.kind &&
    row.operator === statement.operator &&
    row.subject === statement.subject &&
    row.keyId === statement.keyId &&
    row.action === actionOf(statement.kind, statement.body);
  if (!columnsAgree) return { reason: `row ${row.seq}'s columns no longer say what its signed statement says` };
  return null;
}

export { WORKSTATION_ENROLMENT };

/** The desk key a founding or a workstation enrolment names, or null (any other statement, or a malformed one). */
export function namedDeskKey(statement: Statement | null): { publicKey: string; workstation: string | null } | null {
  if (statement === null) return null;
  if (statement.kind === 'found') {
    const found = ROSTER_BODIES.found.safeParse(statement.body);
    const publicKey = found.success ? found.data.deskKey?.publicKey : undefined;
    return publicKey === undefined ? null : { publicKey, workstation: null };
  }
  const enrolment = statement.kind === 'action' ? workstationEnrolment(statement.body) : null;
  return enrolment === null ? null : { publicKey: enrolment.publicKey, workstation: enrolment.workstation };
}

/**
 * Checks a chain row by row, in seq order, remembering what the rows before established: linkage, then each row
 * against its kind's rule in the registry (ledger/registry.ts refuseRow: who may sign it given the roster as it stood
 * at that row and the desk keys in force), then the row's effect on that standing. `audit verify` feeds it the local
 * chain; a team workstation keeps one at its local head and feeds it each row it pulls, so an incoming row is verified
 * against the local chain rather than copied.
 */
export class ChainVerifier {
  readonly #rosters = new Map<string, Roster>();
  readonly #deskKeys: Map<string, DeskKeyInForce>;
  /** Who signed each request, by profile and subject (the cancel, approve and reject rules). */
  readonly #initiators = new Map<string, string>();
  readonly #ownKeyId: string;
  readonly #legacy: () => { rows: number; headHash: string };
  #previous = CHAIN_GENESIS;
  #expected = 1;
  #legacyRows = 0;
  /** Whether an admin enrolled a team workstation yet (a team desk: a desk-signed profile removal ends no roster). */
  #teamDesk = false;
  /** The pinned genesis (ledger/trust-roots.ts): rows after it follow pinned-rules.ts. */
  readonly #pinned: PinnedGenesis | null;
  /** Desk keys trusted after the pin: the genesis's, this workstation's, and those enrolled by verified rows since. */
  readonly #pinnedKeys: Map<string, DeskKeyInForce> | null;
  /** Profile additions a founding already used. */
  readonly #usedAdditions = new Set<string>();
  /** Workstation name → desk public key, from verified `team/workstation` enrolments. */
  readonly #workstations = new Map<string, string>();

  constructor(identity: { keyId: string; publicKey: string }, legacy: () => { rows: number; headHash: string }, pinned: PinnedGenesis | null = null) {
    this.#ownKeyId = identity.keyId;
    this.#deskKeys = new Map([[identity.keyId, { publicKey: identity.publicKey, workstation: null, own: true }]]);
    this.#legacy = legacy;
    this.#pinned = pinned;
    this.#pinnedKeys = pinned === null ? null : pinnedDeskKeys(pinned, identity);
  }

  /** Each profile's roster as the rows verified so far made it (what a genesis is taken from). */
  get rosters(): ReadonlyMap<string, Roster> {
    return this.#rosters;
  }

  /** The profile additions foundings already used (pinned-rules.ts). */
  get usedAdditions(): ReadonlySet<string> {
    return this.#usedAdditions;
  }

  /** The workstations verified enrolments named so far (name → desk public key). */
  get workstations(): ReadonlyMap<string, string> {
    return this.#workstations;
  }

  #afterPin(seq: number): boolean {
    return this.#pinned !== null && seq > this.#pinned.seq;
  }

  /**
   * Why a `found` row at `seq` may not stand under the pinned roots (pinned-rules.ts: after the pin, only with a profile
   * addition in force naming its merchant ID and founders), or null; the rows before `seq` must have been checked.
   */
  foundingRefusalAt(statement: Statement, seq: number): string | null {
    if (statement.kind !== 'found' || this.#pinned === null || !this.#afterPin(seq)) return null;
    const founding = foundingAfterPin(statement, this.#rosters, this.#usedAdditions, this.#pinned);
    return 'refusal' in founding ? founding.refusal : null;
  }

  /** How many rows verified so far. */
  get rows(): number {
    return this.#expected - 1;
  }

  /** The hash of the last verified row (the genesis hash before any). */
  get headHash(): string {
    return this.#previous;
  }

  get legacyRows(): number {
    return this.#legacyRows;
  }

  /** The desk keys in force (keyId → public key). */
  get deskKeys(): ReadonlyMap<string, string> {
    return new Map([...this.#deskKeys].map(([keyId, key]) => [keyId, key.publicKey]));
  }

  /**
   * Trusts a desk key that a later row of the chain enrols (a joining workstation reads the founders' and the admins'
   * enrolments ahead, since a workstation's own earlier events precede them); the enrolling row is still verified
   * when its turn comes, and a chain whose enrolment does not verify is refused there.
   */
  trustEnrolledKey(publicKey: string, workstation: string | null = null): void {
    if (importPublicKey(publicKey) === null) return;
    const keyId = keyIdOf(publicKey);
    if (!this.#deskKeys.has(keyId) || workstation !== null) this.#deskKeys.set(keyId, { publicKey, workstation, own: keyId === this.#ownKeyId });
  }

  /** The chain's standing just before the next row of `profile` (what the registry's rules judge it by). */
  #standing(profile: string, seq: number): ChainStanding {
    // After the pin only the genesis's desk keys, this workstation's and those admins enrolled since are in force.
    const deskKeys = this.#afterPin(seq) ? (this.#pinnedKeys as Map<string, DeskKeyInForce>) : this.#deskKeys;
    return {
      roster: () => {
        let roster = this.#rosters.get(profile);
        if (!roster) {
          roster = new Roster();
          this.#rosters.set(profile, roster);
        }
        return roster;
      },
      deskKey: (keyId) => deskKeys.get(keyId),
      foundingRefusal: (statement) => this.foundingRefusalAt(statement, seq),
      afterPin: this.#afterPin(seq),
      teamDesk: () => this.#teamDesk,
      initiator: (subject) => this.#initiators.get(`${profile}\n${subject}`),
      legacy: this.#legacy,
    };
  }

  /** Verifies the next row; on success the verifier moves past it, on a problem it stays where it was. */
  check(row: AuditRow): { seq: number; reason: string } | null {
    const shape = rowShape(row, this.#expected, this.#previous);
    if (shape) return { seq: Math.min(row.seq, this.#expected), reason: shape.reason };
    if (this.#pinned !== null && row.seq === this.#pinned.seq && row.hash !== this.#pinned.hash) {
      return { seq: row.seq, reason: `row ${row.seq} is not the row this workstation pinned the desk's genesis at: the chain was rewritten at or before it` };
    }
    const statement = parseStatement(row.statement) as Statement;
    const chainRow: ChainRow = { seq: row.seq, hash: row.hash, text: row.statement, signature: row.signature, statement };
    const profile = statement.profile ?? '';
    const wasFounded = this.#rosters.get(profile)?.founded ?? false;
    const problem = refuseRow(chainRow, this.#standing(profile, row.seq));
    if (problem) return { seq: row.seq, reason: problem };
    this.#takeEffect(chainRow, profile, wasFounded);
    this.#previous = row.hash;
    this.#expected += 1;
    return null;
  }

  /** What a row that holds changes in the standing: desk keys named or enrolled, requests' initiators, a roster ended. */
  #takeEffect(row: ChainRow, profile: string, wasFounded: boolean): void {
    const s = row.statement;
    const afterPin = this.#afterPin(row.seq);
    if (s.kind === 'request' && s.operator !== null) this.#initiators.set(`${profile}\n${s.subject}`, s.operator);
    if (isRosterKind(s.kind)) {
      const roster = this.#rosters.get(profile);
      if (s.kind === 'found' && afterPin && !wasFounded && roster?.founded === true) {
        const founding = this.#pinned === null ? null : foundingAfterPin(s, this.#rosters, this.#usedAdditions, this.#pinned);
        if (founding !== null && 'addition' in founding) this.#usedAdditions.add(founding.addition);
      }
      // After the pin a founding names no trusted desk key (pinned-rules.ts): only genesis and enrolled workstations.
      if (!afterPin) for (const [keyId, publicKey] of roster?.deskKeys ?? []) if (!this.#deskKeys.has(keyId)) this.trustEnrolledKey(publicKey);
      if (roster?.ended === true) this.#rosters.delete(profile);
    }
    const enrolment = s.kind === 'action' ? workstationEnrolment(s.body) : null;
    if (enrolment !== null) {
      this.#teamDesk = true;
      this.trustEnrolledKey(enrolment.publicKey, enrolment.workstation);
      if (importPublicKey(enrolment.publicKey) !== null) {
        this.#pinnedKeys?.set(keyIdOf(enrolment.publicKey), { publicKey: enrolment.publicKey, workstation: enrolment.workstation, own: keyIdOf(enrolment.publicKey) === this.#ownKeyId });
      }
      this.#workstations.set(enrolment.workstation, enrolment.publicKey);
    }
    if (s.kind !== 'system') return;
    const action = systemBodySchema.parse(s.body).action;
    // After the pin a desk-signed removal ends no roster: removing a founded profile is a four-eyes `profile-remove`.
    if (action === PROFILE_REMOVED && s.profile !== null && !afterPin && profileRemovalEndsRoster(s.keyId === this.#ownKeyId, this.#teamDesk)) this.#rosters.delete(s.profile);
    if (action === LEGACY_SEALED) this.#legacyRows = this.#legacy().rows;
  }
}

/** Converts audit details to canonical-safe JSON: numbers that are not safe integers become strings. */
function toSignable(value: unknown): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : String(value);
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(toSignable);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value as Record<string, unknown>)) if (member !== undefined) out[key] = toSignable(member);
    return out;
  }
  return value;
}

export { toSignable };
