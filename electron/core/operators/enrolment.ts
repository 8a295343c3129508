// The roster's workflows (APPROVALS.md): founding a desk profile (its first one or two admins together, each choosing
// their own passphrase), invitations that the operator completes at the desk with their own passphrase and a code
// the admin hands over, confirmations by a second independent admin, role changes, disabling, re-keying, and a new
// passphrase for one's own key. Every change is a signed statement; the roster module (roster.ts) judges each one
// inside the same transaction that writes it, so the engine can never write a roster row that would not verify.
import { createHash, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { base32 } from '@scure/base';
import type { InvitationView, OperatorView, ProposalView, RosterView } from '../../contract';
import {
  canonicalHash,
  type CanonicalValue,
  disjoint,
  generateSigningKey,
  invitationCodeCommitment,
  invitationCodeKey,
  legacyInvitationProblem,
  normalizeInvitationCode,
  parseGovernance,
  parsePayees,
  confusableName,
  type OperatorRole,
  passphraseProblem,
  type Proposal,
  proposalWithdrawalProblem,
  Roster,
  signInvitationProof,
  signStatementText,
  type StatementBody,
} from '../ledger';
import type { Kernel } from '../kernel/kernel';
import { type AuditRecorder, type AuditRow, toSignable } from '../audit';
import type { ProfileSelection } from '../profiles';
import { DeskError } from '../kernel/errors';
import { confusableNameProblem } from './confusable-names';
import {
  ensureOperator,
  getOperatorRecord,
  listOperatorRecords,
  operatorNameProblem,
  saveOperatorKey,
} from './operators-table';
import { listPolicies } from './policies-table';
import { actingAs, unsealOperator, type ActingOperator, type OperatorCredentials } from './acting';
import { parseSealedKey, publicKeyOfPrivate, sealPrivateKey } from './sealed-key';
import { foundAddedProfile } from './profile-changes';
import { judgeRosterRow, signRosterStatement } from './roster-statement';
import { registerSecret } from '../log/redact';

const INVITATION_CODE_BYTES = 8;

function checkNewPassphrase(passphrase: string, field = 'passphrase'): void {
  const problem = passphraseProblem(passphrase);
  if (problem) throw new DeskError('invalidInput', problem, { [field]: problem });
}

function checkName(name: string): void {
  const problem = operatorNameProblem(name);
  if (problem) throw new DeskError('invalidInput', problem, { name: problem });
}

/** `ABCD-EFGH-IJKL-M`: the one-time code an admin hands to the invited operator (never stored, only its hash). */
function newInvitationCode(): string {
  const code = base32.encode(randomBytes(INVITATION_CODE_BYTES)).replace(/=+$/, '');
  const grouped = code.match(/.{1,4}/g)?.join('-') ?? code;
  // The code as handed out and as it may be typed back (without dashes, in lower case) never reaches a log.
  for (const form of [grouped, code, grouped.toLowerCase(), code.toLowerCase()]) registerSecret(form, 'invitationCode');
  return grouped;
}

/** A legacy invitation (made before codes were bound, a single workstation only) names the code's SHA-256. */
function legacyCodeMatches(proposal: Proposal, code: string): boolean {
  const expected = Buffer.from(String(proposal.body['codeHash']), 'hex');
  const given = createHash('sha256').update(normalizeInvitationCode(code), 'utf8').digest();
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function requireUnfounded(context: Kernel & AuditRecorder & ProfileSelection, profile: string): void {
  if (context.trail.roster(profile).founded) throw new DeskError('conflict', `profile ${profile} is already founded: its admins invite new operators`);
}

// ---- founding -----------------------------------------------------------------------------------------------------

/**
 * Founds the active profile's desk: one or two admins, each typing their own passphrase at this desk. Two founders
 * are independent parties, so the desk can give four-eyes from the start; one founder's desk says it cannot.
 */
export async function foundDesk(context: Kernel & AuditRecorder & ProfileSelection, admins: readonly OperatorCredentials[]): Promise<RosterView> {
  const profile = context.activeProfile();
  requireUnfounded(context, profile.name);
  if (context.trail.pinnedGenesis !== null) {
    // A pinned (team) desk: a profile is founded only by the profile addition in force (profile-changes.ts).
    await foundAddedProfile(context, admins);
    context.emit({ type: 'operators/changed' });
    return rosterView(context);
  }
  if (admins.length < 1 || admins.length > 2) throw new DeskError('invalidInput', 'a desk is founded by one or two admins');
  const names = admins.map((admin) => admin.operator.trim());
  if (new Set(names.map((name) => name.toLowerCase())).size !== names.length) throw new DeskError('invalidInput', 'the founding admins need different names', { name: 'already used' });
  const lookAlike = names.length === 2 ? confusableName(names[1]!, [names[0]!]) : null;
  if (lookAlike !== null) throw new DeskError('invalidInput', confusableNameProblem(names[1]!, lookAlike), { name: 'looks like the other admin' });
  for (const admin of admins) {
    checkName(admin.operator.trim());
    checkNewPassphrase(admin.passphrase);
  }
  if (admins.length === 2 && admins[0]!.passphrase === admins[1]!.passphrase) {
    throw new DeskError('invalidInput', 'each founding admin chooses their own passphrase', { passphrase: 'the same as the other admin’s' });
  }
  const founders = await Promise.all(
    admins.map(async (admin) => {
      const name = admin.operator.trim();
      const pair = generateSigningKey();
      const seal = await sealPrivateKey(pair.privateKey, admin.passphrase, { profile: profile.name, operator: name, keyId: pair.keyId });
      return { name, pair, seal };
    }),
  );
  const body: StatementBody = {
    admins: founders.map((founder) => ({ name: founder.name, publicKey: founder.pair.publicKey })),
    deskKey: { publicKey: context.trail.deskPublicKey },
    merchantId: profile.merchantId,
  };
  const subject = canonicalHash(body);
  context.trail.transaction(() => {
    requireUnfounded(context, profile.name);
    for (const founder of founders) {
      const record = ensureOperator(context.db, profile.name, founder.name, context.now());
      saveOperatorKey(context.db, record.id, { keyId: founder.pair.keyId, publicKey: founder.pair.publicKey, sealedKeyJson: JSON.stringify(founder.seal) }, context.now());
      context.trail.append(
        { kind: 'found', profile: profile.name, subject, body, operator: founder.name, keyId: founder.pair.keyId },
        (text) => signStatementText(founder.pair.privateKey, text),
      );
    }
    carryOverLegacyPolicies(context, profile.name, founders);
    const roster = context.trail.roster(profile.name);
    if (!roster.founded || roster.problems.length > 0) throw new DeskError('internal', `the founding did not verify: ${roster.problems[0]?.reason ?? 'incomplete'}`);
  });
  context.emit({ type: 'operators/changed' });
  return rosterView(context);
}

/**
 * Policies set before signed approvals (unsigned rows of the policies table) would silently fall back to the default
 * of one approval: the founders sign them as the desk's first policies instead (the first proposes, the second confirms).
 */
function carryOverLegacyPolicies(context: Kernel & AuditRecorder & ProfileSelection, profile: string, founders: readonly { name: string; pair: { privateKey: KeyObject; keyId: string } }[]): void {
  const [first, second] = founders;
  if (!first) return;
  for (const legacy of listPolicies(context.db, profile)) {
    const policy = toSignable({ thresholds: legacy.thresholds, dailyLimit: legacy.dailyLimit, useFinancialConfirmation: legacy.useFinancialConfirmation }) as CanonicalValue;
    const proposal = context.trail.append(
      { kind: 'policy', profile, subject: legacy.currency, body: { policy, carriedOver: true }, operator: first.name, keyId: first.pair.keyId },
      (text) => signStatementText(first.pair.privateKey, text),
    );
    if (second) {
      context.trail.append(
        { kind: 'confirm', profile, subject: legacy.currency, body: { proposal: proposal.hash }, operator: second.name, keyId: second.pair.keyId },
        (text) => signStatementText(second.pair.privateKey, text),
      );
    }
  }
}

// ---- proposals ----------------------------------------------------------------------------------------------------

function proposalOutcome(context: Kernel & AuditRecorder & ProfileSelection, profile: string, row: AuditRow): Proposal {
  const proposal = context.trail.roster(profile).proposal(row.hash);
  if (!proposal) throw new DeskError('internal', 'the proposal was not recorded');
  return proposal;
}

function requireAdmin(acting: ActingOperator): void {
  if (acting.role !== 'admin') throw new DeskError('forbidden', `${acting.name} is not an admin`);
}

/** Invites a new operator (or re-keys one): returns the one-time code the operator types at the desk. */
async function issueInvitation(context: Kernel & AuditRecorder & ProfileSelection, kind: 'enrol' | 'rekey', name: string, role: OperatorRole | null, as: OperatorCredentials): Promise<InvitationView> {
  checkName(name);
  const acting = await actingAs(context, as, 'manageOperators');
  const current = acting.roster.at(name);
  if (kind === 'enrol' && current?.status === 'active') throw new DeskError('conflict', `${name} is already an operator of this desk`, { name: 'already enrolled' });
  if (kind === 'enrol') {
    const lookAlike = confusableName(name, listOperatorRecords(context.db, acting.profile).map((record) => record.name));
    if (lookAlike !== null) throw new DeskError('invalidInput', confusableNameProblem(name, lookAlike), { name: `looks like ${lookAlike}` });
  }
  if (kind === 'rekey' && current?.status !== 'active') throw new DeskError('notFound', `${name} is not an active operator of this desk`);
  const code = newInvitationCode();
  // The proposal commits to the code's key (invitation-code.ts), never to the code or its hash.
  const codeKey = invitationCodeKey(code, name).publicKey;
  const body: StatementBody = kind === 'enrol' ? { role: role ?? 'viewer', codeKey } : { codeKey };
  const row = await acting.sign({ kind, subject: name, body }, (signed) => {
    ensureOperator(context.db, acting.profile, name, context.now());
    judgeRosterRow(context, acting.profile, signed);
  });
  const proposal = proposalOutcome(context, acting.profile, row);
  context.emit({ type: 'operators/changed' });
  return {
    proposal: proposal.id,
    operator: name,
    code,
    needsConfirmation: proposal.needsConfirmation,
    message: proposal.needsConfirmation
      ? `Give ${name} this code in person. ${name} chooses their own passphrase at the desk with it; then another admin, independent of ${acting.name}, confirms ${name}'s key.`
      : `Give ${name} this code in person. ${name} chooses their own passphrase at the desk with it. This desk has no second independent admin, so ${name} will count as ${acting.name}'s party: their approvals never count for ${acting.name}'s requests.`,
  };
}

export function inviteOperator(context: Kernel & AuditRecorder & ProfileSelection, name: string, role: OperatorRole, as: OperatorCredentials): Promise<InvitationView> {
  return issueInvitation(context, 'enrol', name.trim(), role, as);
}

export function rekeyOperator(context: Kernel & AuditRecorder & ProfileSelection, name: string, as: OperatorCredentials): Promise<InvitationView> {
  return issueInvitation(context, 'rekey', name.trim(), null, as);
}

/** The invited operator, at the desk: the code and their own new passphrase make their key and sign the acceptance. */
export async function acceptInvitation(context: Kernel & AuditRecorder & ProfileSelection, input: { name: string; code: string; passphrase: string }): Promise<OperatorView> {
  const profile = context.activeProfile().name;
  const name = input.name.trim();
  checkNewPassphrase(input.passphrase);
  const roster = context.trail.roster(profile);
  const proposal = roster
    .openProposals()
    .filter((entry) => (entry.kind === 'enrol' || entry.kind === 'rekey') && entry.subject.toLowerCase() === name.toLowerCase() && entry.accepted === null)
    .at(-1);
  if (!proposal) throw new DeskError('notFound', `there is no open invitation for ${name}: ask an admin to invite you`);
  const committed = invitationCodeCommitment(proposal.body);
  const codeKey = committed === null ? null : invitationCodeKey(input.code, proposal.subject);
  if (committed === null && context.trail.team !== null) {
    throw new DeskError('conflict', legacyInvitationProblem(proposal) ?? 'the invitation cannot be accepted on a team desk');
  }
  if (!(codeKey === null ? legacyCodeMatches(proposal, input.code) : codeKey.publicKey === committed)) {
    context.trail.system({ profile, action: 'operators/wrongInvitationCode', subject: name });
    throw new DeskError('wrongPassphrase', 'the invitation code is not right: type it as the admin gave it', { code: 'not recognised' });
  }
  const record = getOperatorRecord(context.db, profile, name) ?? ensureOperator(context.db, profile, name, context.now());
  const pair = generateSigningKey();
  const seal = await sealPrivateKey(pair.privateKey, input.passphrase, { profile, operator: record.name, keyId: pair.keyId });
  await context.trail.appendSigned(
    {
      kind: 'accept',
      profile,
      subject: record.name,
      body: codeKey === null ? { proposal: proposal.id, publicKey: pair.publicKey } : { proposal: proposal.id, publicKey: pair.publicKey, codeProof: signInvitationProof(codeKey, proposal.id, pair.publicKey) },
      operator: record.name,
      keyId: pair.keyId,
    },
    (text) => signStatementText(pair.privateKey, text),
    (row) => {
      saveOperatorKey(context.db, record.id, { keyId: pair.keyId, publicKey: pair.publicKey, sealedKeyJson: JSON.stringify(seal) }, context.now());
      judgeRosterRow(context, profile, row);
    },
  );
  context.emit({ type: 'operators/changed' });
  const view = rosterView(context).operators.find((operator) => operator.name.toLowerCase() === name.toLowerCase());
  if (!view) throw new DeskError('internal', `${name} is not on the roster after accepting`);
  return view;
}

/** A second admin, independent of the proposer, confirms a proposal (for an invitation: the key it accepted). */
export async function confirmProposal(context: Kernel & AuditRecorder & ProfileSelection, proposalId: string, as: OperatorCredentials): Promise<RosterView> {
  const acting = await actingAs(context, as, 'manageOperators');
  const proposal = acting.roster.proposal(proposalId);
  if (!proposal || proposal.state !== 'open') throw new DeskError('notFound', 'there is no open proposal with that id');
  if (!proposal.needsConfirmation) throw new DeskError('conflict', 'that proposal needs no confirmation');
  const proposer = acting.roster.at(proposal.proposer);
  if (!proposer || !disjoint(proposer.party, acting.snapshot.party)) {
    throw new DeskError('forbidden', `${acting.name} is not independent of ${proposal.proposer}, who proposed it: another admin must confirm`);
  }
  if ((proposal.kind === 'enrol' || proposal.kind === 'rekey') && proposal.accepted === null) {
    throw new DeskError('conflict', `${proposal.subject} has not accepted the invitation yet: confirm after they chose their passphrase at the desk`);
  }
  const body: StatementBody = proposal.accepted ? { proposal: proposal.id, keyId: proposal.accepted.keyId } : { proposal: proposal.id };
  await signRosterStatement(context, acting, { kind: 'confirm', subject: proposal.subject, body });
  context.emit({ type: 'operators/changed' });
  return rosterView(context);
}

export async function withdrawProposal(context: Kernel & AuditRecorder & ProfileSelection, proposalId: string, as: OperatorCredentials): Promise<RosterView> {
  const acting = await actingAs(context, as, 'manageOperators');
  const proposal = acting.roster.proposal(proposalId);
  if (!proposal || proposal.state !== 'open') throw new DeskError('notFound', 'there is no open proposal with that id');
  const refused = proposalWithdrawalProblem(proposal, acting.name);
  if (refused !== null) throw new DeskError('forbidden', refused);
  await signRosterStatement(context, acting, { kind: 'withdraw-proposal', subject: proposal.subject, body: { proposal: proposal.id } });
  context.emit({ type: 'operators/changed' });
  return rosterView(context);
}

function refuseLastAdmin(roster: Roster, name: string): void {
  const admins = roster.active().filter((entry) => entry.snapshot.role === 'admin');
  if (admins.length === 1 && admins[0]!.name.toLowerCase() === name.toLowerCase()) {
    throw new DeskError('conflict', `${name} is the last active admin: enrol another admin first`);
  }
}

export async function changeRole(context: Kernel & AuditRecorder & ProfileSelection, name: string, role: OperatorRole, as: OperatorCredentials): Promise<RosterView> {
  const acting = await actingAs(context, as, 'manageOperators');
  const current = acting.roster.at(name);
  if (current?.status !== 'active') throw new DeskError('notFound', `${name} is not an active operator of this desk`);
  if (current.role === role) throw new DeskError('conflict', `${name} is already ${role}`);
  if (current.role === 'admin') refuseLastAdmin(acting.roster, name);
  requireAdmin(acting);
  await signRosterStatement(context, acting, { kind: 'role', subject: acting.roster.operator(name)?.name ?? name, body: { role } });
  context.emit({ type: 'operators/changed' });
  return rosterView(context);
}

export async function disableOperator(context: Kernel & AuditRecorder & ProfileSelection, name: string, as: OperatorCredentials): Promise<RosterView> {
  const acting = await actingAs(context, as, 'manageOperators');
  const current = acting.roster.at(name);
  if (current?.status !== 'active') throw new DeskError('notFound', `${name} is not an active operator of this desk`);
  if (current.role === 'admin') refuseLastAdmin(acting.roster, name);
  await signRosterStatement(context, acting, { kind: 'disable', subject: acting.roster.operator(name)?.name ?? name, body: {} });
  context.emit({ type: 'operators/changed' });
  return rosterView(context);
}

/** A new passphrase for one's own key (the key stays; no roster change): unseal with the old, seal with the new. */
export async function changePassphrase(context: Kernel & AuditRecorder & ProfileSelection, credentials: OperatorCredentials, newPassphrase: string): Promise<OperatorView> {
  checkNewPassphrase(newPassphrase, 'newPassphrase');
  if (newPassphrase === credentials.passphrase) throw new DeskError('invalidInput', 'the new passphrase is the same as the old one', { newPassphrase: 'unchanged' });
  const unsealed = await unsealOperator(context, credentials);
  const record = getOperatorRecord(context.db, unsealed.profile, unsealed.name);
  if (!record) throw new DeskError('notFound', `no operator ${unsealed.name}`);
  const { keyId } = unsealed;
  const seal = await sealPrivateKey(unsealed.privateKey, newPassphrase, { profile: unsealed.profile, operator: record.name, keyId });
  parseSealedKey(JSON.stringify(seal));
  await context.trail.appendSigned(
    { kind: 'passphrase', profile: unsealed.profile, subject: record.name, body: {}, operator: record.name, keyId },
    (text) => signStatementText(unsealed.privateKey, text),
    () => saveOperatorKey(context.db, record.id, { keyId, publicKey: publicKeyOfPrivate(unsealed.privateKey), sealedKeyJson: JSON.stringify(seal) }, context.now()),
  );
  context.emit({ type: 'operators/changed' });
  const view = rosterView(context).operators.find((operator) => operator.name === record.name);
  if (!view) throw new DeskError('internal', `${record.name} is not on the roster`);
  return view;
}

// ---- policies -----------------------------------------------------------------------------------------------------

/** Proposes a currency's policy: applied at once on a desk without two independent admins, else when confirmed. */
export async function proposePolicy(context: Kernel & AuditRecorder & ProfileSelection, currency: string, policy: Readonly<Record<string, CanonicalValue>>, as: OperatorCredentials): Promise<Proposal> {
  const acting = await actingAs(context, as, 'managePolicies');
  const row = await signRosterStatement(context, acting, { kind: 'policy', subject: currency, body: { policy } });
  context.emit({ type: 'operators/changed' });
  return proposalOutcome(context, acting.profile, row);
}

// ---- views --------------------------------------------------------------------------------------------------------

function describeProposal(proposal: Proposal): string {
  switch (proposal.kind) {
    case 'enrol':
      return `invite ${proposal.subject} as ${String(proposal.body['role'])}`;
    case 'rekey':
      return `give ${proposal.subject} a new key (new passphrase)`;
    case 'role':
      return `make ${proposal.subject} ${String(proposal.body['role'])}`;
    case 'disable':
      return `disable ${proposal.subject}`;
    case 'policy':
      return `change the ${proposal.subject} withdrawal policy: ${describePolicy(proposal.body['policy'])}`;
    case 'book':
      return `add ${proposal.subject} to the withdrawal address book`;
    case 'profile-add':
      return `add profile ${proposal.subject} (merchant ${String(proposal.body['merchantId'])}) to the team desk`;
    case 'profile-remove':
      return `remove profile ${proposal.subject}: its roster ends`;
    case 'unfreeze':
      return 'lift the freeze on sending';
    case 'group': {
      const members = Array.isArray(proposal.body['members']) ? proposal.body['members'].map(String) : [];
      return members.length === 0 ? `dissolve approval group ${proposal.subject}` : `make approval group ${proposal.subject}: ${members.join(', ')}`;
    }
    case 'governance':
      return `set the desk's governance: ${describeGovernance(proposal.body['governance'])}`;
    case 'payees':
      return describePayees(proposal.body);
    case 'radar-clear':
      return `clear ${proposal.subject}, flagged by the poisoning radar as a look-alike of ${String(proposal.body['looksLike'])}, to be paid`;
    default: {
      const unreachable: never = proposal.kind;
      return unreachable;
    }
  }
}

/** A governance setting in words: "loosening waits 24 h; a freeze is lifted by one admin after 48 h". */
/** A payees batch in words: "add 2 payees (ACME GmbH: 3 addresses; Bob: 1 address) to the address book". */
function describePayees(body: StatementBody): string {
  const payees = parsePayees(body);
  if (typeof payees === 'string') return 'add payees (unreadable)';
  const shown = payees.slice(0, 5).map((payee) => `${payee.name}: ${payee.addresses.length} address${payee.addresses.length === 1 ? '' : 'es'}`);
  const more = payees.length > 5 ? `; and ${payees.length - 5} more` : '';
  return `add ${payees.length} payee${payees.length === 1 ? '' : 's'} (${shown.join('; ')}${more}) to the address book`;
}

function describeGovernance(value: CanonicalValue | undefined): string {
  const governance = parseGovernance(value);
  if (typeof governance === 'string') return governance;
  const delay = governance.looseningDelayHours === 0 ? 'loosening takes effect at once' : `loosening waits ${governance.looseningDelayHours} h`;
  const lift = governance.freezeLift === 'time-lock' ? `a freeze is lifted by one admin after ${governance.freezeLockHours} h` : 'a freeze is lifted by two admins';
  return `${delay}; ${lift}`;
}

/** A policy in words: "2 approvals above 1000, 1 above 0; daily limit 5000; financialConfirmation". */
function describePolicy(value: CanonicalValue | undefined): string {
  const policy = (value ?? {}) as {
    thresholds?: { above: string; approvals: number; groups?: { group: string; count: number }[][] }[];
    dailyLimit?: string | null;
    useFinancialConfirmation?: boolean;
    onlyFromBook?: boolean;
    newDestinationWaitHours?: number;
    approvalValidHours?: number;
  };
  // A tier's approval groups (issue 20): "(1 of finance and 1 of treasury-leads) or 1 of cfo".
  const groups = (alternatives: { group: string; count: number }[][] | undefined): string =>
    Array.isArray(alternatives) ? ` from ${alternatives.map((terms) => terms.map((term) => `${term.count} of ${term.group}`).join(' and ')).join(' or ')}` : '';
  const thresholds = (policy.thresholds ?? []).map((threshold) => `${threshold.approvals} approval${threshold.approvals === 1 ? '' : 's'} above ${threshold.above}${groups(threshold.groups)}`);
  return [
    thresholds.length > 0 ? thresholds.join(', ') : '1 approval for any amount',
    policy.dailyLimit ? `daily limit ${policy.dailyLimit}` : 'no daily limit',
    policy.useFinancialConfirmation ? 'financialConfirmation withdrawals' : 'normal withdrawals',
    ...(policy.onlyFromBook === true ? ['only addresses from the book'] : []),
    ...(policy.newDestinationWaitHours ? [`a new destination waits ${policy.newDestinationWaitHours} h`] : []),
    ...(policy.approvalValidHours ? [`an approval counts for ${policy.approvalValidHours} h`] : []),
  ].join('; ');
}

export function proposalView(proposal: Proposal): ProposalView {
  return {
    id: proposal.id,
    kind: proposal.kind,
    subject: proposal.subject,
    summary: describeProposal(proposal),
    proposer: proposal.proposer,
    at: proposal.at,
    needsConfirmation: proposal.needsConfirmation,
    acceptedKey: proposal.accepted?.keyId ?? null,
    state: proposal.state,
  };
}

/** The roster of the active profile as the faces show it, with the plain statement about four-eyes. */
export function rosterView(context: Kernel & AuditRecorder & ProfileSelection): RosterView {
  const profile = context.activeProfile().name;
  const roster = context.trail.roster(profile, { cached: true });
  const records = new Map(listOperatorRecords(context.db, profile).map((record) => [record.name.toLowerCase(), record]));
  const operators: OperatorView[] = [];
  const seen = new Set<string>();
  for (const operator of roster.operators()) {
    const snapshot = roster.at(operator.name);
    if (!snapshot) continue;
    const record = records.get(operator.name.toLowerCase());
    seen.add(operator.name.toLowerCase());
    operators.push({
      name: operator.name,
      role: snapshot.role,
      status: snapshot.status,
      keyFingerprint: snapshot.keyId,
      party: snapshot.party.map((member) => roster.operator(member)?.name ?? member),
      founding: snapshot.founding,
      enrolledBy: snapshot.enrolledBy,
      lockedUntil: record?.lockedUntil ?? null,
      failedAttempts: record?.failedAttempts ?? 0,
      devices: snapshot.devices.map((device) => ({ workstation: device.workstation, keyFingerprint: device.keyId, confirmedBy: device.confirmedBy })),
    });
  }
  for (const proposal of roster.openProposals()) {
    if (proposal.kind !== 'enrol' || seen.has(proposal.subject.toLowerCase())) continue;
    seen.add(proposal.subject.toLowerCase());
    operators.push({
      name: proposal.subject,
      role: proposal.body['role'] as OperatorRole,
      status: 'invited',
      keyFingerprint: proposal.accepted?.keyId ?? null,
      party: [],
      founding: false,
      enrolledBy: [proposal.proposer],
      lockedUntil: null,
      failedAttempts: 0,
      devices: [],
    });
  }
  operators.sort((a, b) => a.name.localeCompare(b.name));
  const fourEyes = roster.independentAdmins();
  const admins = roster.active().filter((entry) => entry.snapshot.role === 'admin').length;
  let notice: string | null;
  if (!roster.founded) notice = 'This desk profile is not founded yet: its first one or two admins found it together, each choosing their own passphrase.';
  else if (!fourEyes) {
    notice =
      admins <= 1
        ? 'This desk has a single admin, so it cannot give four-eyes: every operator that admin enrols counts as the admin’s own party, and their approvals never count for the admin’s requests. Independence cannot be added later by that admin alone: to get four-eyes, found the profile with two admins (remove it and import it again; its history stays).'
        : 'This desk has no two independent admins: roster and policy changes take effect on one admin’s word, and operators that admin enrols count as the admin’s party.';
  } else notice = stuckOnItsSubjectNotice(roster);
  const pendingDevices = roster.pendingDevices().map((device) => ({ id: device.id, operator: device.operator, workstation: device.workstation, keyFingerprint: device.keyId, at: device.at }));
  return { founded: roster.founded, operators, proposals: roster.openProposals().map(proposalView), pendingDevices, fourEyes, notice };
}


/**
 * What the remaining admins do when an open proposal to disable or change the role of an admin can only be confirmed by
 * that admin (a desk of two independent admins): said plainly for the roster view, or null when no proposal is stuck so.
 */
function stuckOnItsSubjectNotice(roster: Roster): string | null {
  const admins = roster.active().filter((entry) => entry.snapshot.role === 'admin');
  for (const proposal of roster.openProposals()) {
    if (!proposal.needsConfirmation || (proposal.kind !== 'disable' && proposal.kind !== 'role')) continue;
    const proposer = roster.at(proposal.proposer);
    if (!proposer) continue;
    const confirmers = admins.filter((entry) => entry.name.toLowerCase() !== proposal.proposer.toLowerCase() && disjoint(entry.snapshot.party, proposer.party));
    if (confirmers.length !== 1 || confirmers[0]!.name.toLowerCase() !== proposal.subject.toLowerCase()) continue;
    const what = proposal.kind === 'disable' ? `disable ${proposal.subject}` : `change the role of ${proposal.subject}`;
    return (
      `The proposal to ${what} waits for an admin independent of ${proposal.proposer}, and only ${proposal.subject}, whom it is about, is one: ` +
      `${proposal.subject} cannot withdraw it, and ${proposal.proposer} cannot carry it alone. With a third independent admin it would be confirmed without ${proposal.subject}; ` +
      `otherwise the roster can only be started over (remove the profile and found it again; its history stays): see docs/approvals.md, "When the admin in question is the only other one".`
    );
  }
  return null;
}

export { Roster };
