// The desk's audit trail over the signed log (store/audit.ts): appends rows signed by an operator or by the desk key,
// anchors the head in this workstation's keychain after each commit, verifies the whole chain against the roster as
// it stood at every row, and writes and checks signed checkpoints (APPROVALS.md "Audit"). Verification never trusts
// a column: each row's statement is parsed, its seq and prev checked, its signature checked against the key the
// roster held at that row, and the columns compared with the statement.
import { encodeCanonical } from '../statements/canonical';
import { importPublicKey, keyIdOf, readableFingerprint, verifyBytes } from '../statements/keys';
import {
  auditRowHash,
  CHAIN_GENESIS,
  isRosterKind,
  parseStatement,
  ROSTER_KINDS,
  STATEMENT_DOMAIN,
  verifyStatementText,
  type Statement,
  type StatementBody,
} from '../statements/statement';
import { PROFILE_REMOVED, Roster, snapshotKey, type ChainRow } from '../operators/roster';
import { legacyInvitationProblem } from '../operators/invitation-code';
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
  getSetting,
  insertAuditRow,
  iterateAudit,
  type AuditRow,
  type StatementDraft,
  type StatementSigner,
  type StoreDatabase,
  writeTransaction,
} from '../store';
import { DeskError } from '../errors';
import type { TeamSeam, TeamSystemEvent } from '../team/seam';
import type { DeskIdentity, DeskSecretStore } from './desk-identity';

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

  /**
   * Appends a statement signed by `sign` (an unsealed operator key); see appendStatement for transactions. A team
   * desk's decisions go through the team seam (ActingOperator.sign); a direct append would fork the shared chain.
   */
  append(draft: StatementDraft, sign: StatementSigner): AuditRow {
    if (this.#team !== null) {
      throw new DeskError('conflict', 'this is a team desk: founding a profile is not carried to the team database; found it before team init (docs/team.md)');
    }
    const row = appendStatement(this.#db, draft, sign, this.#now());
    this.#scheduleAnchor();
    return row;
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

  /** Whether this workstation's desk key signed a row (system rows that end a profile's roster). */
  #deskSigned(row: ChainRow): boolean {
    if (row.statement.operator !== null || row.statement.keyId !== this.#identity.keyId) return false;
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
    const verifier = new ChainVerifier(this.#identity, () => checkLegacyAudit(this.#db));
    for (const row of auditRowsNamingDeskKeys(this.#db, WORKSTATION_ENROLMENT)) {
      const publicKey = namedDeskKey(parseStatement(row.statement));
      if (publicKey !== null) verifier.trustEnrolledKey(publicKey);
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

/** The audited action by which an admin enrols a team workstation's desk key (team init / team join). */
export const WORKSTATION_ENROLMENT = 'team/workstation';

/** The desk key a founding or a workstation enrolment names, or null (any other statement, or a malformed one). */
export function namedDeskKey(statement: Statement | null): string | null {
  if (statement === null) return null;
  const named =
    statement.kind === 'found'
      ? (statement.body['deskKey'] as Record<string, unknown> | null | undefined)
      : statement.kind === 'action' && statement.body['action'] === WORKSTATION_ENROLMENT
        ? (statement.body['details'] as Record<string, unknown> | null | undefined)
        : null;
  const publicKey = named?.['publicKey'];
  return typeof publicKey === 'string' ? publicKey : null;
}

/**
 * Checks a chain row by row, in seq order, remembering what the rows before established: linkage, each operator's
 * signature against the roster as it stood at that row, each desk-signed row against a desk key this workstation
 * trusts (its own, one the founders named, or one an admin enrolled with a `team/workstation` action). `audit verify`
 * feeds it the local chain; a team workstation keeps one at its local head and feeds it each row it pulls, so an
 * incoming row is verified against the local chain rather than copied.
 */
export class ChainVerifier {
  readonly #rosters = new Map<string, Roster>();
  readonly #deskKeys: Map<string, string>;
  readonly #legacy: () => { rows: number; headHash: string };
  #previous = CHAIN_GENESIS;
  #expected = 1;
  #legacyRows = 0;
  /** Whether a workstation enrolment passed: from there on the chain is a team desk's (legacy invitations closed). */
  #teamChain = false;

  constructor(identity: { keyId: string; publicKey: string }, legacy: () => { rows: number; headHash: string }) {
    this.#deskKeys = new Map([[identity.keyId, identity.publicKey]]);
    this.#legacy = legacy;
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

  get deskKeys(): ReadonlyMap<string, string> {
    return this.#deskKeys;
  }

  /**
   * Trusts a desk key that a later row of the chain enrols (a joining workstation reads the founders' and the admins'
   * enrolments ahead, since a workstation's own earlier events precede them); the enrolling row is still verified
   * when its turn comes, and a chain whose enrolment does not verify is refused there.
   */
  trustEnrolledKey(publicKey: string): void {
    if (importPublicKey(publicKey) !== null) this.#deskKeys.set(keyIdOf(publicKey), publicKey);
  }

  /** Verifies the next row; on success the verifier moves past it, on a problem it stays where it was. */
  check(row: AuditRow): { seq: number; reason: string } | null {
    const shape = rowShape(row, this.#expected, this.#previous);
    if (shape) return { seq: Math.min(row.seq, this.#expected), reason: shape.reason };
    const statement = parseStatement(row.statement) as Statement;
    const chainRow: ChainRow = { seq: row.seq, hash: row.hash, text: row.statement, signature: row.signature, statement };
    const problem = statement.operator === null ? this.#checkDeskSigned(row, statement) : this.#checkOperatorSigned(row, chainRow, statement);
    if (problem) return { seq: row.seq, reason: problem };
    this.#previous = row.hash;
    this.#expected += 1;
    return null;
  }

  #checkDeskSigned(row: AuditRow, statement: Statement): string | null {
    const publicKey = this.#deskKeys.get(statement.keyId);
    const key = publicKey === undefined ? null : importPublicKey(publicKey);
    if (!key) return `row ${row.seq} is signed by key ${statement.keyId}, which is neither this desk's key nor one its founders named (nor a team workstation an admin enrolled)`;
    if (!verifyStatementText(key, row.statement, row.signature)) return `row ${row.seq}'s signature does not verify: it was altered`;
    if (statement.body['action'] === PROFILE_REMOVED && statement.profile !== null) this.#rosters.delete(statement.profile);
    if (statement.body['action'] === 'audit/legacySealed') {
      const legacy = this.#legacy();
      const details = statement.body['details'] as Record<string, unknown>;
      if (details['headHash'] !== legacy.headHash || details['rows'] !== legacy.rows) {
        return `the legacy audit log (before signed approvals) no longer matches what row ${row.seq} sealed`;
      }
      this.#legacyRows = legacy.rows;
    }
    return null;
  }

  #checkOperatorSigned(row: AuditRow, chainRow: ChainRow, statement: Statement): string | null {
    const operator = statement.operator as string;
    const profile = statement.profile ?? '';
    let roster = this.#rosters.get(profile);
    if (!roster) {
      roster = new Roster();
      this.#rosters.set(profile, roster);
    }
    if (isRosterKind(statement.kind)) {
      const legacy = this.#teamChain && statement.kind === 'accept' ? legacyInvitationProblem(roster.proposal(String(statement.body['proposal']))) : null;
      if (legacy) return `row ${row.seq} (${row.action} by ${operator}) does not hold: ${legacy}`;
      const problems = roster.problems.length;
      roster.apply(chainRow);
      const problem = roster.problems[problems];
      if (problem) return `row ${row.seq} (${row.action} by ${operator}) does not hold: ${problem.reason}`;
      for (const [keyId, publicKey] of roster.deskKeys) this.#deskKeys.set(keyId, publicKey);
      return null;
    }
    const snapshot = roster.at(operator, row.seq);
    if (!snapshot) return `row ${row.seq} is signed as ${operator}, who was not enrolled then: signed by no enrolled key`;
    const signingKey = snapshotKey(snapshot, statement.keyId);
    if (signingKey === null) return `row ${row.seq} is signed with key ${statement.keyId}, not ${operator}'s key ${snapshot.keyId}`;
    const key = importPublicKey(signingKey);
    if (!key || !verifyStatementText(key, row.statement, row.signature)) return `row ${row.seq}'s signature does not verify with ${operator}'s key: it was altered`;
    if (snapshot.status !== 'active' && statement.kind !== 'passphrase') return `row ${row.seq} is signed by ${operator} after they were disabled`;
    if (statement.kind === 'action' && statement.body['action'] === WORKSTATION_ENROLMENT) {
      if (snapshot.role !== 'admin') return `row ${row.seq} enrols a workstation, but ${operator} is not an admin`;
      const publicKey = (statement.body['details'] as Record<string, unknown> | null)?.['publicKey'];
      if (typeof publicKey !== 'string' || importPublicKey(publicKey) === null) return `row ${row.seq} enrols a workstation without a usable public key`;
      this.#deskKeys.set(keyIdOf(publicKey), publicKey);
      this.#teamChain = true;
    }
    return null;
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
