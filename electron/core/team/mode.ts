// A desk's team mode: `team init` (this desk's chain and projections into an empty team database), `team join`
// (another workstation pulls and verifies the whole chain), `team status` and `team leave`, and resuming team mode
// when the engine starts. Each workstation's desk key is trusted only through a `team/workstation` action an admin
// signs. The database URL is kept without its password; the password lives in the keychain (desk secrets).
import { publicKeyPem } from '../../protocol';
import type { Kernel } from '../kernel/kernel';
import {
  auditHead,
  type AuditRecorder,
  type AuditRow,
  auditRowsOfAction,
  type ChainVerifier,
  exportAudit,
  getAuditRow,
  iterateAudit,
  WORKSTATION_ENROLMENT,
} from '../audit';
import { listProfiles, type ProfileSelection, setSetting } from '../profiles';
import type { MerchantConnection } from '../connection';
import type { DeskSecretStore, KeychainAccess } from '../secrets';
import {
  forgetGenesisCopy,
  GENESIS_ACTION,
  genesisFingerprint,
  genesisOf,
  isReadableFingerprint,
  parseStatement,
  pinGenesis,
  type PinnedGenesis,
  pinnedGenesisEntry,
  readPinnedGenesis,
  TEAM_PROFILE_ACTION,
} from '../ledger';
import type { ReadableDB } from '../store/database';
import { DeskError } from '../kernel/errors';
import { appLog } from '../log';
import {
  actingAs,
  type ActingOperator,
  addDevice,
  holdsKeyHere,
  type OperatorCredentials,
  signAction,
  workstationEnrolled,
} from '../operators';
import { getTeamSettings, recordVerifiedHead, removeTeamSettings, saveTeamSettings } from './team-table';
import { listWithdrawalRequests } from '../withdrawals';
import { projectionsFor, requestProjection } from './apply';
import { deskStateProjectionsFor } from './desk-projections';
import { withHostList } from './pg-hosts';
import { ReopeningStore } from './reopening-store';
import { confirmReanchor, proposeReanchor } from './reanchor';
import type { TeamReanchorView } from '../../contract';
import { sharedChainProblem, TeamReplicator, type TeamStatus } from './replicator';
import { WORKSTATION_RETIREMENT } from './witness';
import {
  redactDatabaseUrl,
  SharedStoreError,
  urlWithoutPassword,
  type ProjectionWrite,
  type SharedDeskStore,
} from './shared-store';

/** How a store is opened: `ownerUrl` names the owner role that `initialise` (migrations, the desk's identity) runs as. */
export interface SharedStoreOpenOptions {
  readonly ownerUrl?: string;
}

/** Opens the shared store a URL names (PostgreSQL for a team; the engine's option, so tests may pass another). */
export type SharedStoreOpener = (url: string, options?: SharedStoreOpenOptions) => Promise<SharedDeskStore>;

const PUSH_PAGE = 500;
/** Roster kinds whose rows name an operator's public key (the operators projection rows, for IT). */
const PUBLIC_KEY_KINDS: ReadonlySet<string> = new Set(['found', 'accept', 'device']);

function passwordEntry(deskId: string): string {
  return `team-password/${deskId}`;
}

/**
 * The entries team mode keeps in the desk's secret store: the team database password and the pinned genesis (a move
 * between the keychain and the file carries them with the desk key, audit/anchor-store.ts; a genesis left behind would
 * read as "the keychain lost it" and stop the desk trusting its team).
 */
export function teamDeskSecretNames(db: ReadableDB): string[] {
  const settings = getTeamSettings(db);
  const first = getAuditRow(db, 1);
  return [...(settings ? [passwordEntry(settings.deskId)] : []), ...(first ? [pinnedGenesisEntry(first.hash)] : [])];
}

/** The URL with the password from the keychain put back (the settings keep it without). */
function withPassword(url: string, password: string | null): string {
  if (password === null || password === '') return url;
  return withHostList(url, (parsed, restore) => {
    parsed.password = password;
    return restore(parsed.toString());
  });
}

function checkUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = withHostList(url, (read) => read);
  } catch {
    throw new DeskError('invalidInput', 'the team database URL is not a URL: give postgres://ROLE:PASSWORD@HOST:PORT/DATABASE', { database: 'not a URL' });
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new DeskError('invalidInput', `the team database URL must start with postgres:// (got ${parsed.protocol})`, { database: 'not postgres://' });
  }
  return parsed;
}

/**
 * A shared store's refusal as the desk's error (its message never holds the password). A SharedStoreError already
 * names the (redacted) database and what to do (postgres-store.ts pgFailure), so it is not prefixed a second time.
 */
function storeRefusal(error: unknown, url: string): DeskError {
  if (error instanceof DeskError) return error;
  if (error instanceof SharedStoreError) {
    const code = error.kind === 'unreachable' ? 'offline' : error.kind === 'badUrl' || error.kind === 'invalidArgument' ? 'invalidInput' : error.kind === 'authentication' ? 'credentials' : 'conflict';
    return new DeskError(code, error.message);
  }
  return new DeskError('internal', `team database ${redactDatabaseUrl(url)}: ${error instanceof Error ? error.message : String(error)}`);
}

export interface TeamModeView extends TeamStatus {
  readonly enabled: boolean;
  readonly database: string | null;
  readonly workstation: string | null;
  /** The desk's pinned genesis (ledger/trust-roots.ts): what people compare out of band, or null before a pin. */
  readonly genesis: GenesisView | null;
  readonly enrolment: string | null;
}

export interface GenesisView {
  readonly fingerprint: string;
  readonly seq: number;
  readonly profiles: readonly string[];
  readonly workstations: readonly string[];
}

function genesisView(genesis: PinnedGenesis): GenesisView {
  return { fingerprint: genesisFingerprint(genesis), seq: genesis.seq, profiles: genesis.profiles.map((entry) => entry.name), workstations: genesis.workstations.map((entry) => entry.name) };
}

/** What a joining workstation sees before it joins: the desk's genesis as the verified shared chain gives it. */
export interface TeamPreview {
  readonly deskId: string;
  readonly genesis: GenesisView;
}

/** The genesis marker a row carries (`team/genesis`, desk-signed), or null. */
function genesisMarker(row: AuditRow): { seq: number; hash: string; fingerprint: string } | null {
  if (row.kind !== 'system' || row.action !== GENESIS_ACTION || row.operator !== null) return null;
  const details = parseStatement(row.statement)?.body['details'];
  if (details === null || typeof details !== 'object' || Array.isArray(details)) return null;
  const { seq, hash, fingerprint } = details as Record<string, unknown>;
  return typeof seq === 'number' && typeof hash === 'string' && typeof fingerprint === 'string' ? { seq, hash, fingerprint } : null;
}

export class TeamMode {
  readonly #context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection & KeychainAccess;
  readonly #secrets: DeskSecretStore;
  readonly #open: SharedStoreOpener;
  #replicator: TeamReplicator | null = null;

  constructor(context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection & KeychainAccess, secrets: DeskSecretStore, open: SharedStoreOpener) {
    this.#context = context;
    this.#secrets = secrets;
    this.#open = open;
  }

  get replicator(): TeamReplicator | null {
    return this.#replicator;
  }

  /**
   * Resumes team mode at engine start. The team database opens when it can: while it cannot, the desk is still a team
   * desk, offline (reads work, decisions are refused with the reason), never one acting alone.
   */
  async resume(): Promise<void> {
    const settings = getTeamSettings(this.#context.db);
    if (!settings) return;
    const password = await this.#secrets.read(passwordEntry(settings.deskId));
    const url = withPassword(settings.databaseUrl, password);
    // The pinned genesis is checked on every start: from the keychain, against the settings copy.
    const first = getAuditRow(this.#context.db, 1);
    const pinned = first ? await readPinnedGenesis(this.#context.db, this.#secrets, first.hash) : ({ state: 'none' } as const);
    let untrusted: string | null = null;
    let upgraded = false;
    if (pinned.state === 'pinned') this.#context.trail.setPinnedGenesis(pinned.genesis);
    else if (pinned.state === 'problem') untrusted = `the pinned genesis does not hold: ${pinned.reason}`;
    else if (first) {
      // A team desk from before pinning: this workstation pins its verified local chain now, once, and tells joiners.
      const head = auditHead(this.#context.db);
      if (head) {
        const genesis = this.#localGenesis(settings.deskId, head.seq);
        if (genesis !== null) {
          await pinGenesis(this.#context.db, this.#secrets, first.hash, genesis, this.#context.now());
          this.#context.trail.setPinnedGenesis(genesis);
          upgraded = true;
        }
      }
    }
    await this.#install(new ReopeningStore(url, () => this.#open(url), this.#context.now), settings.workstation, untrusted);
    const genesis = this.#context.trail.pinnedGenesis;
    if (upgraded && genesis !== null) this.#context.trail.system({ action: GENESIS_ACTION, subject: 'genesis', details: { seq: genesis.seq, hash: genesis.hash, fingerprint: genesisFingerprint(genesis) } });
  }

  /**
   * The genesis of this workstation's own chain at row `seq` (every row up to it verified), or null when the chain
   * does not verify there.
   */
  #localGenesis(deskId: string, seq: number): PinnedGenesis | null {
    const verifier = this.#unpinnedVerifier();
    let hash: string | null = null;
    for (const row of iterateAudit(this.#context.db)) {
      if (row.seq > seq) break;
      if (verifier.check(row) !== null) return null;
      hash = row.hash;
    }
    return hash === null ? null : genesisOf(deskId, verifier, seq, hash);
  }

  /** A verifier of the chain as it was before any pin (the genesis is what it establishes). */
  #unpinnedVerifier(): ChainVerifier {
    const pinned = this.#context.trail.pinnedGenesis;
    this.#context.trail.setPinnedGenesis(null);
    try {
      return this.#context.trail.verifier();
    } finally {
      this.#context.trail.setPinnedGenesis(pinned);
    }
  }

  async #install(store: SharedDeskStore, workstation: string, untrusted: string | null = null): Promise<void> {
    const replicator = new TeamReplicator(this.#context, store, workstation);
    if (untrusted !== null) replicator.stopTrusting(untrusted);
    this.#replicator = replicator;
    this.#context.trail.setTeamSeam(replicator);
    try {
      await replicator.start();
    } catch (error) {
      appLog.warn('team: the team database did not answer at start', { error });
    }
  }

  async #connect(url: string, options: SharedStoreOpenOptions = {}): Promise<SharedDeskStore> {
    checkUrl(url);
    if (options.ownerUrl !== undefined) checkUrl(options.ownerUrl);
    try {
      const store = await this.#open(url, options);
      return store;
    } catch (error) {
      throw storeRefusal(error, url);
    }
  }

  #requireSolo(): void {
    const settings = getTeamSettings(this.#context.db);
    if (settings) throw new DeskError('conflict', `this desk is already a team desk on ${settings.databaseUrl}: run team leave first`);
  }

  /**
   * Moves this desk's chain and projections into an EMPTY team database and enrols this workstation. `ownerUrl` (the
   * owner role's URL) runs the migrations and records the desk; it is used once and kept nowhere. The workstation
   * connects, appends and is remembered with `url` (its own role) only.
   */
  async init(url: string, workstation: string, as: OperatorCredentials, ownerUrl?: string): Promise<TeamModeView> {
    this.#requireSolo();
    const acting = await actingAs(this.#context, as, 'manageOperators');
    const store = await this.#connect(url, ownerUrl === undefined ? {} : { ownerUrl });
    try {
      const identity = await store.identity();
      const deskId = this.#context.trail.deskId;
      if (identity !== null && identity.deskId !== deskId) {
        throw new DeskError('conflict', `team database ${redactDatabaseUrl(url)} already holds a desk (${identity.deskId}): use team join, or give an empty database`);
      }
      // The same desk's identity: an earlier init of this desk was interrupted (the database went away mid-move). The
      // move continues after the rows it already holds, provided they are this desk's own first rows.
      const resumeAfter = identity === null ? null : await this.#interruptedMove(store, url);
      if (identity === null) await store.initialise(deskId, this.#context.now());
      // Signed locally first (this desk is still solo): the profiles' public description and this workstation's key;
      // once each, so a resumed move does not sign them again.
      if (!this.#signedLocally(WORKSTATION_ENROLMENT, workstation)) {
        await signAction(acting, WORKSTATION_ENROLMENT, workstation, { workstation, publicKey: this.#context.trail.deskPublicKey });
      }
      for (const profile of listProfiles(this.#context.db)) {
        if (this.#signedLocally(TEAM_PROFILE_ACTION, profile.name)) continue;
        // The platform's public key (public) lets workstations without credentials check the service's signed order outcomes.
        const platformPublicKey = await this.#platformKeyToShare(profile.name);
        this.#context.trail.system({
          profile: profile.name,
          action: TEAM_PROFILE_ACTION,
          subject: profile.name,
          details: { name: profile.name, baseUrl: profile.baseUrl, merchantId: profile.merchantId, ...(platformPublicKey === null ? {} : { platformPublicKey }) },
        });
      }
      const genesis = this.#initGenesis(deskId);
      await this.#pushLocalChain(store, resumeAfter);
      await this.#finish(store, url, workstation, deskId, genesis);
      return this.view();
    } catch (error) {
      if (this.#replicator === null) await store.close().catch(() => undefined);
      throw storeRefusal(error, url);
    }
  }

  /**
   * Where an interrupted move of this desk stopped: the team database's head, which must be a row of this desk's own
   * chain (same seq, same hash); anything else is another history and is refused.
   */
  async #interruptedMove(store: SharedDeskStore, url: string): Promise<{ seq: number; hash: string } | null> {
    const head = await store.head();
    if (head === null) return null;
    const local = getAuditRow(this.#context.db, head.seq);
    if (local?.hash !== head.hash) {
      throw new DeskError(
        'conflict',
        `team database ${redactDatabaseUrl(url)} holds this desk with audit rows this workstation does not have (row ${head.seq} differs): join it with team join from a new data folder`,
      );
    }
    return head;
  }

  /** The profile's platform public key (PEM) from this workstation's credentials, or null when it holds none. */
  async #platformKeyToShare(profile: string): Promise<string | null> {
    const keys = await this.#context.vault.load(profile).catch(() => (profile === this.#context.activeProfile().name ? this.#context.keys() : null)).catch(() => null);
    return keys === null ? null : publicKeyPem(keys.platformPublicKey);
  }

  /**
   * The genesis `team init` pins: this desk's chain up to the rows init signed, followed by the desk-signed marker that
   * tells joiners where it is taken (signed once: a resumed init reads its marker back).
   */
  #initGenesis(deskId: string): PinnedGenesis {
    const marker = auditRowsOfAction(this.#context.db, GENESIS_ACTION).map(genesisMarker).find((entry) => entry !== null);
    const head = auditHead(this.#context.db);
    const seq = marker?.seq ?? head?.seq ?? 0;
    const genesis = this.#localGenesis(deskId, seq);
    if (genesis === null) throw new DeskError('unverified', "this desk's own audit log does not verify: run audit verify; nothing was moved");
    if (!marker) this.#context.trail.system({ action: GENESIS_ACTION, subject: 'genesis', details: { seq: genesis.seq, hash: genesis.hash, fingerprint: genesisFingerprint(genesis) } });
    return genesis;
  }

  /** Whether this desk's own chain already holds the action row (an earlier, interrupted init signed it). */
  #signedLocally(action: string, subject: string): boolean {
    return auditRowsOfAction(this.#context.db, action).some((row) => row.subject === subject);
  }

  /**
   * Every local row after `resumeAfter` (all of them for a fresh move), in pages, with the workstations, the operators'
   * sealed keys and the requests as projections.
   */
  async #pushLocalChain(store: SharedDeskStore, resumeAfter: { seq: number; hash: string } | null): Promise<void> {
    const requests: ProjectionWrite[] = [];
    for (const profile of listProfiles(this.#context.db)) {
      let after: string | null = null;
      do {
        const page = listWithdrawalRequests(this.#context.db, { profile: profile.name, limit: 200, after });
        for (const request of page.rows) requests.push(requestProjection(request));
        after = page.nextCursor;
      } while (after !== null);
    }
    // Batches, labels and book entries made before the move: their rows as their statements left them (the last
    // statement about a row says what it is now, so later writes replace earlier ones).
    const deskState = new Map<string, ProjectionWrite>();
    for (const row of iterateAudit(this.#context.db)) {
      const statement = parseStatement(row.statement);
      if (statement) for (const write of deskStateProjectionsFor(this.#context, statement)) deskState.set(`${write.table}/${write.key}`, write);
    }
    const head = auditHead(this.#context.db)?.seq ?? 0;
    let expected = resumeAfter;
    for (let from = (resumeAfter?.seq ?? 0) + 1; from <= head; from += PUSH_PAGE) {
      const rows: AuditRow[] = exportAudit(this.#context.db, { fromSeq: from, toSeq: Math.min(head, from + PUSH_PAGE - 1) });
      const last = from + PUSH_PAGE > head;
      // Workstation enrolments and operators' public keys (never a private key, sealed or not) go with their rows.
      const keys = rows.filter((row) => row.action === WORKSTATION_ENROLMENT || PUBLIC_KEY_KINDS.has(row.kind)).flatMap((row) => projectionsFor(this.#context, row));
      const outcome = await store.append(rows, last ? [...keys, ...requests, ...deskState.values()] : keys, expected);
      if (!outcome.appended) throw new DeskError('conflict', 'another workstation wrote to the team database while this desk was moved into it: start again with an empty database');
      const tail = rows[rows.length - 1] as AuditRow;
      expected = { seq: tail.seq, hash: tail.hash };
    }
  }

  async #finish(store: SharedDeskStore, url: string, workstation: string, deskId: string, genesis: PinnedGenesis): Promise<void> {
    await this.#pin(genesis);
    const password = withHostList(url, (parsed) => parsed.password);
    if (password !== '') await this.#secrets.write(passwordEntry(deskId), decodeURIComponent(password));
    saveTeamSettings(this.#context.db, { databaseUrl: urlWithoutPassword(url), workstation, deskId, joinedAt: this.#context.now() });
    const head = auditHead(this.#context.db);
    if (head) recordVerifiedHead(this.#context.db, head, this.#context.now());
    await this.#install(store, workstation);
  }

  /**
   * Joins a team desk: pulls and verifies the whole shared chain into this workstation's SQLite (which must hold no
   * chain, or the same one), pins its genesis once the fingerprint was confirmed, and has an admin enrol this workstation's
   * desk key: at once when the admin's key is held here, else through a device key an admin confirms at another workstation.
   */
  async join(url: string, workstation: string, as: OperatorCredentials, confirmed: string): Promise<TeamModeView> {
    this.#requireSolo();
    const expected = confirmed.trim().toUpperCase();
    if (!isReadableFingerprint(expected)) {
      throw new DeskError('invalidInput', 'the genesis fingerprint reads like ABCD-EFGH-IJKL-MNOP: ask an admin at a workstation on the desk for it (team status)', { genesis: 'not a fingerprint' });
    }
    const store = await this.#connect(url);
    try {
      const identity = await store.identity();
      if (identity === null) throw new DeskError('conflict', `team database ${redactDatabaseUrl(url)} is empty: run team init on the workstation that holds the desk first`);
      const local = auditHead(this.#context.db);
      if (local !== null) {
        const [shared] = await store.rowsAfter(local.seq - 1, 1);
        if (!shared || shared.hash !== local.hash || identity.deskId !== this.#context.trail.deskId) {
          throw new DeskError('conflict', `this workstation already holds another desk's audit chain (${local.seq} rows): join from a new data folder (--db), or leave this one as it is`);
        }
      }
      const genesis = await this.#sharedGenesis(store, identity.deskId);
      const found = genesisFingerprint(genesis);
      if (found !== expected) {
        throw new DeskError(
          'unverified',
          `the team desk's genesis fingerprint is ${found}, not ${expected}: compare it with an admin at a workstation already on the desk (team status) before joining; nothing was joined`,
          { genesis: `the desk says ${found}` },
        );
      }
      if (local === null) setSetting(this.#context.db, 'desk.id', identity.deskId, this.#context.now());
      saveTeamSettings(this.#context.db, { databaseUrl: urlWithoutPassword(url), workstation, deskId: identity.deskId, joinedAt: this.#context.now() });
      const password = withHostList(url, (parsed) => parsed.password);
      if (password !== '') await this.#secrets.write(passwordEntry(identity.deskId), decodeURIComponent(password));
      await this.#pin(genesis, (await store.rowsAfter(0, 1))[0]?.hash);
      await this.#install(store, workstation);
      const replicator = this.#replicator as TeamReplicator;
      const halted = replicator.status().halted;
      if (halted !== null) throw new DeskError('unverified', halted);
      this.#chooseProfile();
      await this.#enrolHere(workstation, as);
      return this.view();
    } catch (error) {
      // Not joined: team mode is off again. Rows already pulled stay (verified, a prefix of the shared chain), so
      // joining again later continues from them.
      if (this.#replicator !== null) await this.stop();
      else await store.close().catch(() => undefined);
      removeTeamSettings(this.#context.db);
      forgetGenesisCopy(this.#context.db);
      this.#context.trail.setPinnedGenesis(null);
      throw storeRefusal(error, url);
    }
  }

  /** Pins the genesis in the keychain (named after the chain's first row) with its settings copy, and trusts it from now. */
  async #pin(genesis: PinnedGenesis, firstRowHash = getAuditRow(this.#context.db, 1)?.hash): Promise<void> {
    if (firstRowHash === undefined) throw new DeskError('internal', 'a genesis is pinned on a chain with rows');
    await pinGenesis(this.#context.db, this.#secrets, firstRowHash, genesis, this.#context.now());
    this.#context.trail.setPinnedGenesis(genesis);
  }

  /**
   * Verifies the whole shared chain (nothing applied) and takes its genesis where the desk-signed `team/genesis` row
   * says `team init` took it; the row's own fingerprint must agree. A tampered chain is refused, naming the row.
   */
  async #sharedGenesis(store: SharedDeskStore, deskId: string): Promise<PinnedGenesis> {
    let marker: { seq: number; hash: string; fingerprint: string } | null = null;
    for (let after = 0; marker === null; ) {
      const rows = await store.rowsAfter(after, 500);
      marker = rows.map(genesisMarker).find((entry) => entry !== null) ?? null;
      if (rows.length < 500) break;
      after = (rows[rows.length - 1] as AuditRow).seq;
    }
    if (marker === null) throw new DeskError('conflict', 'the team desk has no genesis row yet: start a workstation already on the desk with this version (it pins the genesis and publishes it), then join');
    const wanted = marker;
    let genesis: PinnedGenesis | null = null;
    const problem = await sharedChainProblem(this.#context, store, (row, verifier) => {
      if (row.seq === wanted.seq && row.hash === wanted.hash) genesis = genesisOf(deskId, verifier, row.seq, row.hash);
    });
    if (problem) throw new DeskError('unverified', `team database: audit row ${problem.seq}: ${problem.reason}; nothing was joined`);
    const taken = genesis as PinnedGenesis | null;
    if (taken === null) throw new DeskError('unverified', `team database: the genesis row names row ${wanted.seq}, which the shared chain does not hold as named; nothing was joined`);
    if (genesisFingerprint(taken) !== wanted.fingerprint) {
      throw new DeskError('unverified', `team database: the genesis row says ${wanted.fingerprint} but the chain up to row ${wanted.seq} gives ${genesisFingerprint(taken)}; nothing was joined`);
    }
    return taken;
  }

  /** The desk's genesis as a workstation about to join sees it (nothing is joined or kept): what the join form shows. */
  async preview(url: string): Promise<TeamPreview> {
    this.#requireSolo();
    const store = await this.#connect(url);
    try {
      const identity = await store.identity();
      if (identity === null) throw new DeskError('conflict', `team database ${redactDatabaseUrl(url)} is empty: run team init on the workstation that holds the desk first`);
      return { deskId: identity.deskId, genesis: genesisView(await this.#sharedGenesis(store, identity.deskId)) };
    } catch (error) {
      throw storeRefusal(error, url);
    } finally {
      await store.close().catch(() => undefined);
    }
  }

  /**
   * The joining admin's key here: one this workstation already holds signs the enrolment at once; otherwise a device
   * key is proposed here, and an admin confirming it at another workstation also enrols this one (devices.ts). No
   * private key comes from the team database.
   */
  async #enrolHere(workstation: string, as: OperatorCredentials): Promise<void> {
    const profile = this.#context.activeProfile().name;
    if (holdsKeyHere(this.#context, profile, as.operator)) {
      const acting = await actingAs(this.#context, as, 'manageOperators');
      await signAction(acting, WORKSTATION_ENROLMENT, workstation, { workstation, publicKey: this.#context.trail.deskPublicKey });
      return;
    }
    const snapshot = this.#context.trail.roster(profile).at(as.operator);
    if (snapshot?.status !== 'active' || snapshot.role !== 'admin') throw new DeskError('forbidden', `${as.operator} is not an active admin of profile ${profile}: an admin joins a workstation`);
    await addDevice(this.#context, as, this);
  }

  /** Why this workstation's desk events are not trusted yet and what to do, or null once an admin enrolled it. */
  #enrolment(workstation: string | null): string | null {
    if (workstation === null || workstationEnrolled(this.#context, this.#context.trail.deskPublicKey)) return null;
    const profile = this.#context.activeProfileName();
    const waiting = profile === undefined ? [] : this.#context.trail.roster(profile, { cached: true }).pendingDevices().filter((device) => device.workstation === workstation);
    const how = waiting.map((device) => `"treasury-desk operator device confirm ${device.id.slice(0, 12)} --as ADMIN" (${device.operator}'s key ${device.keyId})`).join(' or ');
    return `workstation ${workstation} is not enrolled yet: at another workstation an admin confirms its device key${how === '' ? '' : `, ${how}`}; until then it reads and verifies, and its desk events wait`;
  }

  #chooseProfile(): void {
    if (this.#context.activeProfileName() !== undefined) return;
    const first = listProfiles(this.#context.db)[0];
    if (first) setSetting(this.#context.db, 'profiles.active', first.name, this.#context.now());
  }

  /** Walks the whole shared chain, catches up and checks the projection rows; the answer names every row refused now. */
  async verify(): Promise<TeamModeView> {
    const replicator = this.#replicator;
    if (!replicator) throw new DeskError('conflict', 'this desk is not a team desk: run team init or team join first');
    await replicator.verifyNow();
    return this.view();
  }

  /**
   * The four-eyes re-anchor after a restore from an older backup (team/reanchor.ts): an admin proposes, a second admin
   * confirms (`confirm`), and this workstation's verified rows the team database lacks are appended again.
   */
  async reanchor(as: OperatorCredentials, confirm: boolean): Promise<TeamReanchorView> {
    const replicator = this.#replicator;
    if (!replicator) throw new DeskError('conflict', 'this desk is not a team desk: run team init or team join first');
    const outcome = confirm ? await confirmReanchor(this.#context, replicator, as) : await proposeReanchor(this.#context, replicator, as);
    return { ...outcome, team: this.view() };
  }

  /**
   * Stops team mode on this workstation (its local copy stays, read-only history). The admin's signed retirement goes
   * to the team database first, so the other workstations stop asking this one to witness their sends.
   */
  async leave(acting: ActingOperator): Promise<TeamModeView> {
    const settings = getTeamSettings(this.#context.db);
    if (!settings) throw new DeskError('conflict', 'this desk is not a team desk');
    try {
      await signAction(acting, WORKSTATION_RETIREMENT, settings.workstation, { workstation: settings.workstation });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new DeskError('conflict', `this workstation did not leave: the other workstations must learn that it no longer witnesses their sends, and that could not be recorded (${why}); try again when the team database answers`);
    }
    await this.stop();
    removeTeamSettings(this.#context.db);
    forgetGenesisCopy(this.#context.db);
    this.#context.trail.setPinnedGenesis(null);
    return this.view();
  }

  async stop(): Promise<void> {
    const replicator = this.#replicator;
    this.#replicator = null;
    this.#context.trail.setTeamSeam(null);
    if (replicator) {
      await replicator.flush();
      await replicator.stop();
    }
  }

  /** This workstation's name on the team desk, or null when the desk is not a team desk (operators/devices.ts asks). */
  workstationName(): string | null {
    return getTeamSettings(this.#context.db)?.workstation ?? null;
  }

  view(): TeamModeView {
    const settings = getTeamSettings(this.#context.db);
    const status = this.#replicator?.status();
    const genesis = settings === null ? null : this.#context.trail.pinnedGenesis;
    const connected = status?.connected ?? false;
    return {
      genesis: genesis === null ? null : genesisView(genesis),
      enabled: settings !== null,
      database: settings?.databaseUrl ?? null,
      workstation: settings?.workstation ?? null,
      connected,
      since: status?.since ?? settings?.connectionSince ?? 0,
      // Why it is not connected: null while connected (a connected status never carries "not connected").
      reason: connected ? null : (status?.reason ?? (settings ? 'not connected' : null)),
      verifiedSeq: settings?.verifiedSeq ?? 0,
      verifiedAt: settings?.verifiedAt ?? null,
      halted: status?.halted ?? null,
      refused: status?.refused ?? [],
      enrolment: this.#enrolment(settings?.workstation ?? null),
      pendingEvents: status?.pendingEvents ?? 0,
    };
  }
}

