// Adding and removing a merchant profile on a pinned (team) desk: a four-eyes `profile-add` proposal by an admin of a
// pinned profile names the new profile's merchant ID and its founders' public keys (the founders choose their
// passphrases as it is proposed), the founders then found it with exactly those keys; a founded profile's own admins
// remove it with a four-eyes `profile-remove`. Invariant: the local path judges a founding with the same rule as replay
// (ledger/pinned-rules.ts), so this workstation never publishes a row the others would refuse.
import type { ProfileChangeView } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import { type AuditRecorder, type ChainVerifier, iterateAudit } from '../audit';
import { getProfile, type ProfileSelection } from '../profiles';
import { DeskError } from '../kernel/errors';
import {
  canonicalHash,
  foundingAfterPin,
  generateSigningKey,
  keyIdOf,
  passphraseProblem,
  type ProfileAddition,
  type Proposal,
  signStatementText,
  type Statement,
  type StatementBody,
  TEAM_PROFILE_ACTION,
} from '../ledger';
import { ensureOperator, getOperatorKey, getOperatorRecord, saveOperatorKey } from './operators-table';
import { actingAs, type OperatorCredentials } from './acting';
import { signRosterStatement } from './roster-statement';
import { parseSealedKey, sealPrivateKey, unsealPrivateKey, SealError } from './sealed-key';

function view(proposal: Proposal, message: string): ProfileChangeView {
  return { proposal: proposal.id, kind: proposal.kind === 'profile-remove' ? 'profile-remove' : 'profile-add', subject: proposal.subject, applied: proposal.state === 'applied', needsConfirmation: proposal.needsConfirmation, message };
}

function proposalOf(context: Kernel & AuditRecorder & ProfileSelection, profile: string, id: string): Proposal {
  const proposal = context.trail.roster(profile).proposal(id);
  if (!proposal) throw new DeskError('internal', 'the proposal was not recorded');
  return proposal;
}

function waiting(proposal: Proposal, done: string): string {
  return proposal.state === 'applied'
    ? `${done} This desk has no second independent admin, so one admin's proposal is in force at once: the desk has no four-eyes.`
    : `Proposed (${proposal.id.slice(0, 12)}): a second admin, independent of ${proposal.proposer}, confirms it with "operator confirm ${proposal.id.slice(0, 12)} --as ADMIN".`;
}

/**
 * Proposes adding profile `name` (its credentials imported at this workstation) to the desk: signed by an admin of the
 * active profile, with the founders' new keys (each founder types a new passphrase now; the sealed keys stay here).
 */
export async function proposeProfileAddition(
  context: Kernel & AuditRecorder & ProfileSelection,
  input: { readonly name: string; readonly merchantId: string; readonly founders: readonly OperatorCredentials[] },
  as: OperatorCredentials,
): Promise<ProfileChangeView> {
  const profile = getProfile(context.db, input.name);
  if (!profile) throw new DeskError('notFound', `no profile named ${input.name} at this workstation: import its credentials here first (profile import ${input.name} FILE)`);
  if (profile.merchantId !== input.merchantId) {
    throw new DeskError('invalidInput', `profile ${input.name} at this workstation is merchant ${profile.merchantId}, not ${input.merchantId}`, { merchantId: `the profile says ${profile.merchantId}` });
  }
  if (context.trail.roster(input.name).founded) throw new DeskError('conflict', `profile ${input.name} is already founded`);
  const acting = await actingAs(context, as, 'manageOperators');
  if (acting.profile === input.name) throw new DeskError('invalidInput', `an admin of another, founded profile proposes adding ${input.name}: choose that profile (--profile)`);
  if (acting.role !== 'admin') throw new DeskError('forbidden', `${acting.name} is not an admin`);
  const names = input.founders.map((founder) => founder.operator.trim());
  if (names.length < 1 || names.length > 2 || new Set(names.map((name) => name.toLowerCase())).size !== names.length) {
    throw new DeskError('invalidInput', 'a profile is founded by one or two admins with different names', { founders: 'one or two different names' });
  }
  for (const founder of input.founders) {
    const problem = passphraseProblem(founder.passphrase);
    if (problem) throw new DeskError('invalidInput', problem, { passphrase: problem });
  }
  const founders = await Promise.all(
    input.founders.map(async (founder) => {
      const name = founder.operator.trim();
      const pair = generateSigningKey();
      const seal = await sealPrivateKey(pair.privateKey, founder.passphrase, { profile: input.name, operator: name, keyId: pair.keyId });
      return { name, pair, seal };
    }),
  );
  const body: StatementBody = { merchantId: input.merchantId, admins: founders.map((founder) => ({ name: founder.name, publicKey: founder.pair.publicKey })) };
  const row = await signRosterStatement(context, acting, { kind: 'profile-add', subject: input.name, body }, () => {
    for (const founder of founders) {
      const record = ensureOperator(context.db, input.name, founder.name, context.now());
      saveOperatorKey(context.db, record.id, { keyId: founder.pair.keyId, publicKey: founder.pair.publicKey, sealedKeyJson: JSON.stringify(founder.seal) }, context.now());
    }
  });
  context.emit({ type: 'operators/changed' });
  const proposal = proposalOf(context, acting.profile, row.hash);
  return view(proposal, waiting(proposal, `Profile ${input.name} may be founded now: "operator found --profile ${input.name} ${names.map((name) => `--admin ${name}`).join(' ')}".`));
}

/** Proposes removing founded profile `name`: one of its own admins signs; a second independent admin confirms. */
export async function proposeProfileRemoval(context: Kernel & AuditRecorder & ProfileSelection, name: string, as: OperatorCredentials): Promise<ProfileChangeView> {
  if (!getProfile(context.db, name)) throw new DeskError('notFound', `no profile named ${name}`);
  if (!context.trail.roster(name).founded) throw new DeskError('conflict', `profile ${name} is not founded: remove it with profile remove`);
  const acting = await actingAs(context, as, 'manageProfiles', name);
  const row = await signRosterStatement(context, acting, { kind: 'profile-remove', subject: name, body: {} });
  context.emit({ type: 'operators/changed' });
  // An applied removal ends the roster (the proposal is then only in the ended one): answer from the row itself.
  const proposal = context.trail.roster(name).proposal(row.hash) ?? {
    id: row.hash, seq: row.seq, at: row.at, kind: 'profile-remove' as const, subject: name, body: {}, proposer: acting.name, needsConfirmation: false, accepted: null, confirmedBy: null, state: 'applied' as const,
  };
  return view(proposal, waiting(proposal, `Profile ${name}'s roster ended: "profile remove ${name}" removes it here.`));
}

/** Refuses removing a founded profile on a pinned desk: that is a four-eyes `profile-remove` first. */
export function requireRemovalInForce(context: Kernel & AuditRecorder & ProfileSelection, name: string): void {
  if (context.trail.pinnedGenesis === null || !context.trail.roster(name).founded) return;
  throw new DeskError(
    'forbidden',
    `removing founded profile ${name} on a team desk is a four-eyes proposal: "profile propose-remove ${name} --as ADMIN", a second independent admin confirms it (operator confirm), then "profile remove ${name}"`,
  );
}

/** This workstation's whole chain through a verifier (what the local path judges a founding with). */
function verifiedLocally(context: Kernel & AuditRecorder & ProfileSelection): ChainVerifier {
  const verifier = context.trail.verifier();
  for (const row of iterateAudit(context.db)) {
    const problem = verifier.check(row);
    if (problem) throw new DeskError('unverified', `this workstation's audit log does not verify at row ${problem.seq}: ${problem.reason}`);
  }
  return verifier;
}

/**
 * Founds a profile on a pinned desk with the keys its profile addition named: each founder unseals the key made when
 * the addition was proposed, and signs the founding; then the profile's description is published for the others.
 */
export async function foundAddedProfile(context: Kernel & AuditRecorder & ProfileSelection, admins: readonly OperatorCredentials[]): Promise<void> {
  const profile = context.activeProfile();
  const pinned = context.trail.pinnedGenesis;
  if (pinned === null) throw new DeskError('internal', 'founding by a profile addition needs a pinned genesis');
  const verifier = verifiedLocally(context);
  const additions: ProfileAddition[] = [...verifier.rosters.values()].flatMap((roster) => roster.profileAdditions().filter((entry) => entry.profile === profile.name && !verifier.usedAdditions.has(entry.id)));
  const addition = additions.at(-1);
  if (!addition) {
    throw new DeskError(
      'forbidden',
      `founding profile ${profile.name} on a team desk needs a profile addition in force: an admin of a founded profile proposes it ("profile propose-add ${profile.name} --merchant-id ${profile.merchantId} --founder NAME --as ADMIN") and a second independent admin confirms it (operator confirm)`,
    );
  }
  const wanted = addition.admins.map((admin) => admin.name.toLowerCase()).sort();
  const given = admins.map((admin) => admin.operator.trim().toLowerCase()).sort();
  if (wanted.join('\n') !== given.join('\n')) {
    throw new DeskError('invalidInput', `the profile addition in force names the founders ${addition.admins.map((admin) => admin.name).join(' and ')}: they found it`, { admins: 'not the founders named' });
  }
  const signers = await Promise.all(
    addition.admins.map(async (admin) => {
      const credentials = admins.find((entry) => entry.operator.trim().toLowerCase() === admin.name.toLowerCase()) as OperatorCredentials;
      const keyId = keyIdOf(admin.publicKey);
      const record = getOperatorRecord(context.db, profile.name, admin.name);
      const key = record ? getOperatorKey(context.db, record.id, keyId) : undefined;
      if (!record || !key) throw new DeskError('notFound', `${admin.name}'s key for ${profile.name} is not at this workstation: found the profile where the addition was proposed`);
      try {
        const privateKey = await unsealPrivateKey(parseSealedKey(key.sealedKeyJson), credentials.passphrase, { profile: profile.name, operator: record.name, keyId });
        return { name: admin.name, keyId, privateKey };
      } catch (error) {
        if (error instanceof SealError && error.reason !== 'malformed') throw new DeskError('wrongPassphrase', 'the operator name or passphrase is not right', { passphrase: 'not recognised' });
        throw error;
      }
    }),
  );
  const body: StatementBody = { admins: addition.admins.map((admin) => ({ name: admin.name, publicKey: admin.publicKey })), deskKey: { publicKey: context.trail.deskPublicKey }, merchantId: addition.merchantId };
  const subject = canonicalHash(body);
  const draft = { kind: 'found' as const, profile: profile.name, subject, body };
  const verdict = foundingAfterPin({ ...draft, v: 1, operator: signers[0]?.name ?? null, keyId: '', at: 0, seq: 0, prev: '' } as Statement, verifier.rosters, verifier.usedAdditions, pinned);
  if ('refusal' in verdict) throw new DeskError('forbidden', verdict.refusal);
  for (const signer of signers) {
    await context.trail.appendSigned({ ...draft, operator: signer.name, keyId: signer.keyId }, (text) => signStatementText(signer.privateKey, text));
  }
  context.trail.system({ profile: profile.name, action: TEAM_PROFILE_ACTION, subject: profile.name, details: { name: profile.name, baseUrl: profile.baseUrl, merchantId: profile.merchantId } });
}
