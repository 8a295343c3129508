// Where this desk keeps its desk key and audit anchor (the OS keychain or the headless file), decided once and recorded,
// never switched by itself (issue 18, item 8, finding 6); the explicit, audited move between the two (`audit anchor
// --move-to keychain|file --as ADMIN`); and the standing a workstation needs before it sends: an anchor for its non-empty
// chain and a desk key the chain enrolled. Invariant: a keychain that stops (or starts) answering, or another keychain
// service name, never gives the desk a fresh key and an empty anchor that a rolled-back database would pass.
import { existsSync } from 'node:fs';
import { DeskError } from '../kernel/errors';
import { type DeskSecretStore, KeychainUnavailableError, type KeychainVault } from '../secrets';
import { parseStatement } from '../ledger';
import { auditHead, auditRowsNamingDeskKeys } from './audit-table';
import { type ReadableDB, type StoreDatabase } from '../store/database';
import { getSetting, setSetting } from '../profiles';
import { chooseDeskSecrets, fileDeskSecrets, keychainDeskSecrets } from './desk-identity';
import { namedDeskKey, WORKSTATION_ENROLMENT, type AuditTrail } from './trail';

/** The local setting naming the store this desk's secrets live in. */
export const DESK_SECRETS_SETTING = 'desk.secretStore';
export type DeskSecretsKind = DeskSecretStore['kind'];
/** The audited action of a move (signed by an admin). */
export { ANCHOR_MOVED_ACTION } from '../ledger';

const MOVE_HINT = (to: DeskSecretsKind): string => `treasury-desk audit anchor --move-to ${to} --as ADMIN`;

/** The headless file beside a database (null for an in-memory one). */
export function deskSecretsFile(dbPath: string): string | null {
  return dbPath === ':memory:' ? null : `${dbPath}.desk-secrets`;
}

/** A store whose target a move switches while the engine runs; the trail and team mode hold this one. */
export class MovableDeskSecrets implements DeskSecretStore {
  #target: DeskSecretStore;
  constructor(target: DeskSecretStore) {
    this.#target = target;
  }
  get kind(): DeskSecretsKind {
    return this.#target.kind;
  }
  read(name: string): Promise<string | null> {
    return this.#target.read(name);
  }
  write(name: string, value: string): Promise<void> {
    return this.#target.write(name, value);
  }
  remove(name: string): Promise<void> {
    return this.#target.remove(name);
  }
  switchTo(target: DeskSecretStore): void {
    this.#target = target;
  }
}

async function keychainAnswers(vault: KeychainVault): Promise<boolean> {
  try {
    await vault.readDeskEntry('key');
    return true;
  } catch (error) {
    if (error instanceof KeychainUnavailableError) return false;
    throw error;
  }
}

/**
 * The store this desk recorded. A desk that keeps them in the keychain refuses to start when it does not answer (it
 * never falls back to a fresh file); one that keeps them in the file keeps using it when a keychain appears. A desk that
 * recorded nothing yet (new, or from before) takes the keychain when it answers, else the file when `allowFile`
 * (headless runs with a credentials file), and one whose file already holds a desk key keeps the file; then records it.
 */
export async function openDeskSecrets(db: StoreDatabase, vault: KeychainVault, dbPath: string, allowFile: boolean, now: number): Promise<MovableDeskSecrets> {
  const file = deskSecretsFile(dbPath);
  const recorded = getSetting(db, DESK_SECRETS_SETTING);
  if (recorded === 'file') {
    if (file === null) throw new DeskError('conflict', 'this desk keeps its desk key in a file beside its database, but the database is in memory');
    return new MovableDeskSecrets(fileDeskSecrets(file));
  }
  if (recorded === 'keychain') {
    if (!(await keychainAnswers(vault))) {
      throw new DeskError(
        'keychainUnavailable',
        `this desk keeps its desk key and audit anchor in the OS keychain, which does not answer here (no D-Bus session or Secret Service): start the keychain; the desk does not switch to a file by itself. To keep them in a file instead, run \`${MOVE_HINT('file')}\` while the keychain answers`,
      );
    }
    return new MovableDeskSecrets(keychainDeskSecrets(vault));
  }
  const fileHoldsKey = file !== null && existsSync(file) && (await fileDeskSecrets(file).read('key')) !== null;
  // The keychain's own KeychainUnavailableError when it does not answer and no file may stand in.
  const chosen = file !== null && (fileHoldsKey || (allowFile && !(await keychainAnswers(vault)))) ? fileDeskSecrets(file) : await chooseDeskSecrets(vault, undefined);
  if (file !== null) setSetting(db, DESK_SECRETS_SETTING, chosen.kind, now);
  return new MovableDeskSecrets(chosen);
}

/** The entries a move carries: the desk key, this chain's anchor, and what the other modules keep there (`carried`). */
function movedEntries(trail: AuditTrail, carried: readonly string[]): string[] {
  const anchor = trail.anchorName();
  return [...new Set(['key', ...(anchor === null ? [] : [anchor]), ...carried])];
}

/**
 * Moves the desk key and anchor to the other store, explicitly (an admin signs `audit/anchorMoved` first, so the move
 * is in the audit log before anything changes), then copies the entries, records the new store, switches the running
 * engine to it and removes them from the old one (a stale anchor left behind could vouch for a rolled-back log).
 */
export async function moveDeskSecrets(
  options: {
    readonly db: StoreDatabase;
    readonly vault: KeychainVault;
    readonly dbPath: string;
    readonly trail: AuditTrail;
    readonly secrets: MovableDeskSecrets;
    readonly now: () => number;
    /** The other entries of this desk in its secret store (the team's, the webhooks'), named by the modules that keep them. */
    readonly carried: () => readonly string[];
  },
  to: DeskSecretsKind,
  signMove: (details: { from: DeskSecretsKind; to: DeskSecretsKind; deskKeyId: string }) => Promise<unknown>,
): Promise<{ from: DeskSecretsKind; to: DeskSecretsKind }> {
  const from = options.secrets.kind;
  if (from === to) throw new DeskError('conflict', `this desk already keeps its desk key and audit anchor in the ${to === 'file' ? 'file beside its database' : 'OS keychain'}`);
  const file = deskSecretsFile(options.dbPath);
  let target: DeskSecretStore;
  if (to === 'file') {
    if (file === null) throw new DeskError('invalidInput', 'an in-memory desk has no file beside its database');
    target = fileDeskSecrets(file);
  } else {
    if (!(await keychainAnswers(options.vault))) throw new DeskError('keychainUnavailable', 'the OS keychain does not answer here: start it (a D-Bus session with a Secret Service), then move again');
    target = keychainDeskSecrets(options.vault);
  }
  const key = await options.secrets.read('key');
  const there = await target.read('key');
  if (there !== null && there !== key) {
    throw new DeskError('conflict', `the ${to === 'file' ? 'file' : 'keychain'} already holds another desk key: this desk's would replace it; remove that entry first if it is no longer used`);
  }
  await signMove({ from, to, deskKeyId: options.trail.deskKeyId });
  await options.trail.flush();
  const names = movedEntries(options.trail, options.carried());
  const values = new Map<string, string>();
  for (const name of names) {
    const value = await options.secrets.read(name);
    if (value !== null) values.set(name, value);
  }
  for (const [name, value] of values) await target.write(name, value);
  setSetting(options.db, DESK_SECRETS_SETTING, to, options.now());
  const old = options.secrets;
  const source: DeskSecretStore = from === 'file' && file !== null ? fileDeskSecrets(file) : keychainDeskSecrets(options.vault);
  old.switchTo(target);
  for (const name of values.keys()) await source.remove(name).catch(() => undefined);
  return { from, to };
}

/**
 * Why this workstation may not send now, or null: its chain holds rows but it has no anchor for them (another keychain
 * service name, a keychain that stopped answering with a fresh file beside the database, a copied database), or its desk
 * key is not one the chain enrolled (a founding or a workstation enrolment naming it).
 */
export async function anchorStandingProblem(db: ReadableDB, trail: AuditTrail): Promise<string | null> {
  const head = auditHead(db);
  if (head === null) return null;
  const store = getSetting(db, DESK_SECRETS_SETTING) === 'file' ? 'file' : 'keychain';
  const where = store === 'file' ? 'the file beside its database' : 'the OS keychain (TREASURY_DESK_KEYCHAIN_SERVICE names its service)';
  // Only a desk with no anchor yet waits for pending anchor writes (the first row just committed), then reads again.
  if ((await trail.readAnchor()) === null && (await trail.flush(), await trail.readAnchor()) === null) {
    return `this workstation holds no anchor for its audit log (${head.seq} rows) in ${where}: the log cannot be checked against a rollback, so nothing is sent. Run the desk with the keychain (or file) it was set up with; to move it between the keychain and the file, an admin runs \`${MOVE_HINT(store === 'file' ? 'keychain' : 'file')}\` where both are reachable`;
  }
  const enrolled = auditRowsNamingDeskKeys(db, WORKSTATION_ENROLMENT).some((row) => namedDeskKey(parseStatement(row.statement))?.publicKey === trail.deskPublicKey);
  if (!enrolled) {
    return `this workstation's desk key ${trail.deskKeyId} (in ${where}) is not one its audit log enrolled (no founding or workstation enrolment names it): it is not the key this desk was set up with, so nothing is sent. Run the desk with the keychain (or file) that holds its own key`;
  }
  return null;
}

/** Refuses (before anything is signed or sent) when this workstation lacks the standing to send; see anchorStandingProblem. */
export async function requireAnchorStanding(db: ReadableDB, trail: AuditTrail): Promise<void> {
  const problem = await anchorStandingProblem(db, trail);
  if (problem !== null) throw new DeskError('unverified', problem);
}
