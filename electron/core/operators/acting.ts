// Who is acting: an operator of the active profile proves who they are by unsealing their signing key with their
// passphrase (there is no other passphrase check), then the roster, rebuilt from signed statements, says whether
// their role allows the action. Wrong passphrases count per operator in the store: after 5, each further attempt
// waits, doubling from 1 minute (capped at a day); the wait survives restarts and every lockout is audited. Each
// attempt is counted before the passphrase is checked (claimPassphraseAttempt), so parallel guesses cannot all slip
// in before the first failure is written.
// Invariant: the unsealed key stays inside the returned ActingOperator's `sign`; nothing hands it out.
import type { KeyObject } from 'node:crypto';
import {
  generateSigningKey,
  type OperatorAction,
  type OperatorRole,
  type OperatorSnapshot,
  roleMay,
  roleWithArticle,
  type Roster,
  signStatementText,
  snapshotKey,
  type StatementBody,
} from '../ledger';
import { utcMinuteText } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder, AuditRow, StatementDraft } from '../audit';
import type { ProfileSelection } from '../profiles';
import { DeskError } from '../kernel/errors';
import { getOperatorKey, getOperatorRecord, claimPassphraseAttempt, resetPassphraseFailures } from './operators-table';
import {
  parseSealedKey,
  publicKeyOfPrivate,
  SealError,
  sealPrivateKey,
  unsealPrivateKey,
  type SealedKey,
} from './sealed-key';

export interface OperatorCredentials {
  readonly operator: string;
  readonly passphrase: string;
}

/** Failures allowed before attempts start to wait. */
export const FREE_ATTEMPTS = 5;
export const FIRST_WAIT_MS = 60_000;
export const LONGEST_WAIT_MS = 24 * 60 * 60 * 1000;

/** How long the attempt after `failures` wrong passphrases must wait (0 while failures < FREE_ATTEMPTS). */
export function lockoutWaitMs(failures: number): number {
  if (failures < FREE_ATTEMPTS) return 0;
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(failures - FREE_ATTEMPTS, 20));
}

/** An operator who proved their passphrase: their standing in the roster and a signer for their statements. */
export interface ActingOperator {
  readonly profile: string;
  readonly name: string;
  readonly role: OperatorRole;
  readonly snapshot: OperatorSnapshot;
  readonly roster: Roster;
  /**
   * Appends a statement signed with this operator's key (one transaction with whatever `within` writes), through
   * AuditTrail.appendSigned: on a team desk the statement goes through the team database first.
   */
  sign(draft: Omit<StatementDraft, 'operator' | 'keyId' | 'profile'>, within?: (row: AuditRow) => void): Promise<AuditRow>;
}

const wrong = (): DeskError => new DeskError('wrongPassphrase', 'the operator name or passphrase is not right', { passphrase: 'not recognised' });

/** A seal nobody can open, so an unknown name costs as long as a wrong passphrase (no name probing by timing). */
let decoySeal: Promise<SealedKey> | undefined;
async function spendDecoyTime(passphrase: string): Promise<void> {
  decoySeal ??= sealPrivateKey(generateSigningKey().privateKey, 'decoy passphrase never used', { profile: '', operator: '', keyId: '' });
  await unsealPrivateKey(await decoySeal, passphrase, { profile: '', operator: 'decoy', keyId: '' }).catch(() => undefined);
}

function noKeyHere(name: string): DeskError {
  return new DeskError('unverified', `${name} has no key on this workstation: run "operator device add ${name}" here, then confirm it with ${name}'s key at another workstation, or have an admin confirm it`);
}


/**
 * The passphrase checks under way in this process, per desk and operator. A claimed attempt counts as a failure until
 * it proves right, so checks of one operator run one after another here: parallel right passphrases (a script, twenty
 * windows) never count against each other, while parallel wrong guesses still each take their own count.
 */
const checksUnderWay = new WeakMap<(Kernel & AuditRecorder & ProfileSelection), Map<number, Promise<unknown>>>();

function oneCheckAtATime<T>(context: Kernel & AuditRecorder & ProfileSelection, operatorId: number, check: () => Promise<T>): Promise<T> {
  let perOperator = checksUnderWay.get(context);
  if (!perOperator) checksUnderWay.set(context, (perOperator = new Map()));
  const previous = perOperator.get(operatorId) ?? Promise.resolve();
  const run = previous.then(check, check);
  const settled = run.catch(() => undefined);
  perOperator.set(operatorId, settled);
  void settled.then(() => {
    if (perOperator.get(operatorId) === settled) perOperator.delete(operatorId);
  });
  return run;
}

/** Unseals the operator's current key with the passphrase: the one passphrase check there is. */
export async function unsealOperator(
  context: Kernel & AuditRecorder & ProfileSelection,
  credentials: OperatorCredentials,
  profile: string = context.activeProfile().name,
): Promise<{ privateKey: KeyObject; keyId: string; snapshot: OperatorSnapshot; name: string; roster: Roster; profile: string }> {
  const record = getOperatorRecord(context.db, profile, credentials.operator);
  const roster = context.trail.roster(profile);
  const snapshot = record ? roster.at(record.name) : undefined;
  // On the roster (which anyone may list) but never at this workstation: say how to get a key here.
  const enrolled = record ? undefined : roster.operator(credentials.operator);
  if (enrolled) throw noKeyHere(enrolled.name);
  if (!record || !snapshot) {
    await spendDecoyTime(credentials.passphrase);
    throw wrong();
  }
  return oneCheckAtATime(context, record.id, async () => {
    const now = context.now();
    const attempt = claimPassphraseAttempt(context.db, record.id, lockoutWaitMs, now);
    if (!attempt.allowed) {
      const minutes = Math.ceil((attempt.lockedUntil - now) / 60_000);
      throw new DeskError(
        'lockedOut',
        `too many wrong passphrases for ${record.name}: the next attempt is possible at ${utcMinuteText(attempt.lockedUntil)} (in ${minutes} min). An admin can re-key the operator if the passphrase is lost.`,
      );
    }
    // The key this workstation holds for them: the one they accepted here, or a device key confirmed for it.
    const key = [snapshot.keyId, ...snapshot.devices.map((device) => device.keyId)].map((keyId) => getOperatorKey(context.db, record.id, keyId)).find((held) => held !== undefined);
    if (!key) throw noKeyHere(record.name);
    let privateKey: KeyObject;
    try {
      privateKey = await unsealPrivateKey(parseSealedKey(key.sealedKeyJson), credentials.passphrase, { profile, operator: record.name, keyId: key.keyId });
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
      if (error.reason === 'malformed') {
        throw new DeskError('unverified', `${record.name}'s sealed key on this desk is missing or damaged: an admin must re-key the operator`);
      }
      // The attempt was counted before the check: its count and lockout are what this failure reports.
      const { failures, lockedUntil } = attempt;
      context.trail.system({ profile, action: 'operators/wrongPassphrase', subject: record.name, details: { failures, lockedUntil } });
      if (lockedUntil !== null) context.emit({ type: 'operators/changed' });
      throw wrong();
    }
    // The right passphrase: the attempt counted before the check, and any earlier failures, are cleared.
    resetPassphraseFailures(context.db, record.id, now);
    if (publicKeyOfPrivate(privateKey) !== snapshotKey(snapshot, key.keyId)) {
      throw new DeskError('unverified', `${record.name}'s sealed key is not the key the roster enrolled: the desk database was altered`);
    }
    return { privateKey, keyId: key.keyId, snapshot, name: record.name, roster, profile };
  });
}

const ACTION_WORDS: Readonly<Record<OperatorAction, string>> = {
  view: 'view the desk',
  requestWithdrawal: 'request withdrawals',
  cancelWithdrawal: 'cancel withdrawal requests',
  approveWithdrawal: 'approve withdrawals',
  rejectWithdrawal: 'reject withdrawals',
  submitWithdrawal: 'submit withdrawals',
  createAddress: 'create deposit addresses',
  manageOperators: 'manage operators',
  managePolicies: 'change withdrawal policies',
  manageProfiles: 'manage merchant profiles',
  manageSettings: 'change settings',
  editLabels: 'edit labels',
};

export function authorize(name: string, role: OperatorRole, action: OperatorAction): void {
  if (!roleMay(role, action)) throw new DeskError('forbidden', `${name} is ${roleWithArticle(role)} and may not ${ACTION_WORDS[action]}`);
}

/** Authenticates (unseals), checks the roster status and role, and returns the operator ready to sign. */
export async function actingAs(context: Kernel & AuditRecorder & ProfileSelection, credentials: OperatorCredentials, action: OperatorAction, profileName?: string): Promise<ActingOperator> {
  return actingWithKey(context, await unsealOperator(context, credentials, profileName), action);
}

/** An unsealed operator, checked against the roster for the action: active, and their role allows it. */
export function actingWithKey(
  context: Kernel & AuditRecorder & ProfileSelection,
  unsealed: { readonly privateKey: KeyObject; readonly keyId: string; readonly snapshot: OperatorSnapshot; readonly name: string; readonly roster: Roster; readonly profile: string },
  action: OperatorAction,
): ActingOperator {
  const { snapshot, name, profile, roster, privateKey, keyId } = unsealed;
  if (snapshot.status !== 'active') throw new DeskError('forbidden', `operator ${name} is disabled`);
  authorize(name, snapshot.role, action);
  return {
    profile,
    name,
    role: snapshot.role,
    snapshot,
    roster,
    sign(draft, within) {
      return context.trail.appendSigned({ ...draft, profile, operator: name, keyId }, (text) => signStatementText(privateKey, text), within);
    },
  };
}

/** An operator's audited action (not a decision about money): a signed `action` row, committed with what `within` writes. */
export function signAction(acting: ActingOperator, action: string, subject: string, details: StatementBody, within?: (row: AuditRow) => void): Promise<AuditRow> {
  return acting.sign({ kind: 'action', subject, body: { action, details } }, within);
}
