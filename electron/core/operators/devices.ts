// Device keys (APPROVALS.md "Public keys only"): an operator who works at several workstations of a team desk has a
// key at each, sealed there by their passphrase, never copied anywhere. At a new workstation they propose a key
// (`device`, signed by that key); their key at another workstation, or an admin, confirms it (`confirm`); an admin's
// confirmation of a device key that names this workstation's desk key also enrols the workstation. Invariant: no
// private key, sealed or not, leaves the workstation it was made at; the team database carries public keys only.
import type { PendingDeviceView, RosterView } from '../../contract';
import {
  generateSigningKey,
  parseStatement,
  passphraseProblem,
  type PendingDevice,
  signStatementText,
} from '../ledger';
import type { Kernel } from '../kernel/kernel';
import { type AuditRecorder, auditRowsOfAction, getAuditRow, namedDeskKey, WORKSTATION_ENROLMENT } from '../audit';
import type { ProfileSelection } from '../profiles';
import { DeskError } from '../kernel/errors';
import { ensureOperator, getOperatorKey, getOperatorRecord, saveOperatorKey } from './operators-table';
import { actingAs, signAction, type OperatorCredentials } from './acting';
import { rosterView } from './enrolment';
import { signRosterStatement } from './roster-statement';
import { sealPrivateKey } from './sealed-key';

/** Whether this workstation holds a sealed key that signs for the operator as they stand now. */
export function holdsKeyHere(context: Kernel & AuditRecorder & ProfileSelection, profile: string, name: string): boolean {
  const snapshot = context.trail.roster(profile).at(name);
  const record = getOperatorRecord(context.db, profile, name);
  if (!snapshot || !record) return false;
  return [snapshot.keyId, ...snapshot.devices.map((device) => device.keyId)].some((keyId) => getOperatorKey(context.db, record.id, keyId) !== undefined);
}

/** What device keys need of the team module (which implements it: team/mode.ts), declared here so operators never import team. */
export interface TeamWorkstation {
  /** This workstation's name on a team desk; null on a desk of one workstation. */
  workstationName(): string | null;
}

/**
 * At a workstation where the operator has no key yet: makes one, seals it by the passphrase they type here, and
 * proposes it, signed by itself. It signs for them once confirmed (confirmDevice) at another workstation.
 */
export async function addDevice(context: Kernel & AuditRecorder & ProfileSelection, input: OperatorCredentials, team: TeamWorkstation): Promise<PendingDeviceView> {
  const workstation = team.workstationName();
  if (workstation === null) throw new DeskError('conflict', 'device keys are for team desks: on a single workstation the key an operator accepted with is their only one');
  const problem = passphraseProblem(input.passphrase);
  if (problem) throw new DeskError('invalidInput', problem, { passphrase: problem });
  const profile = context.activeProfile().name;
  const roster = context.trail.roster(profile);
  const snapshot = roster.at(input.operator);
  const name = roster.operator(input.operator)?.name ?? input.operator.trim();
  if (snapshot?.status !== 'active') throw new DeskError('notFound', `${name} is not an active operator of this desk`);
  if (holdsKeyHere(context, profile, name)) throw new DeskError('conflict', `${name} already has a key on this workstation (${workstation})`);
  const waiting = roster.pendingDevices().find((device) => device.operator.toLowerCase() === name.toLowerCase() && device.workstation === workstation);
  if (waiting) throw new DeskError('conflict', `${name}'s device key for ${workstation} (${waiting.keyId}) waits for a confirmation: confirm proposal ${waiting.id}`);
  const record = getOperatorRecord(context.db, profile, name) ?? ensureOperator(context.db, profile, name, context.now());
  const pair = generateSigningKey();
  const seal = await sealPrivateKey(pair.privateKey, input.passphrase, { profile, operator: record.name, keyId: pair.keyId });
  const row = await context.trail.appendSigned(
    { kind: 'device', profile, subject: record.name, body: { workstation, publicKey: pair.publicKey, deskKey: context.trail.deskPublicKey }, operator: record.name, keyId: pair.keyId },
    (text) => signStatementText(pair.privateKey, text),
    (written) => {
      saveOperatorKey(context.db, record.id, { keyId: pair.keyId, publicKey: pair.publicKey, sealedKeyJson: JSON.stringify(seal) }, context.now());
      const refused = context.trail.roster(profile).problems.find((entry) => entry.seq === written.seq);
      if (refused) throw new DeskError('forbidden', `the roster refuses this device key: ${refused.reason}`);
    },
  );
  context.emit({ type: 'operators/changed' });
  const device = context.trail.roster(profile).pendingDevice(row.hash);
  if (!device) throw new DeskError('internal', 'the device key was not recorded');
  return pendingDeviceView(device);
}

/** The desk key a device proposal names (the workstation it was made at), or null. */
function proposedDeskKey(context: Kernel & AuditRecorder & ProfileSelection, device: PendingDevice): string | null {
  const row = getAuditRow(context.db, device.seq);
  const statement = row ? parseStatement(row.statement) : null;
  const deskKey = statement?.body['deskKey'];
  return typeof deskKey === 'string' ? deskKey : null;
}

/** Whether an admin's `team/workstation` enrolment of this desk key is in the local chain. */
export function workstationEnrolled(context: Kernel & AuditRecorder & ProfileSelection, publicKey: string): boolean {
  return auditRowsOfAction(context.db, WORKSTATION_ENROLMENT).some((row) => namedDeskKey(parseStatement(row.statement))?.publicKey === publicKey);
}

/**
 * Confirms a device key: by the operator themself with their key here, or by an admin (the operator then counts as
 * that admin's party too). An admin also enrols the workstation the key was made at, if no admin did yet.
 */
export async function confirmDevice(context: Kernel & AuditRecorder & ProfileSelection, proposalId: string, as: OperatorCredentials): Promise<RosterView> {
  const acting = await actingAs(context, as, 'view');
  const device = acting.roster.pendingDevice(proposalId);
  if (!device || device.state !== 'open') throw new DeskError('notFound', 'there is no device key waiting with that id');
  const self = device.operator.toLowerCase() === acting.name.toLowerCase();
  if (!self && acting.role !== 'admin') throw new DeskError('forbidden', `${acting.name} may not confirm ${device.operator}'s device key: ${device.operator} confirms it from another workstation, or an admin does`);
  await signRosterStatement(context, acting, { kind: 'confirm', subject: device.operator, body: { proposal: device.id, keyId: device.keyId } });
  const deskKey = proposedDeskKey(context, device);
  if (acting.role === 'admin' && deskKey !== null && !workstationEnrolled(context, deskKey)) {
    await signAction(acting, WORKSTATION_ENROLMENT, device.workstation, { workstation: device.workstation, publicKey: deskKey });
  }
  context.emit({ type: 'operators/changed' });
  return rosterView(context);
}

export function pendingDeviceView(device: PendingDevice): PendingDeviceView {
  return { id: device.id, operator: device.operator, workstation: device.workstation, keyFingerprint: device.keyId, at: device.at };
}
