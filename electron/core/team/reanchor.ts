// The four-eyes re-anchor after IT restored the team database from a backup older than this workstation's verified
// head (issue 18, item 11; docs/team.md "When IT restores the team database from a backup"). One admin proposes (their
// signature over the plan is kept at this workstation), a second admin confirms: this workstation's verified rows the
// database lacks are appended again at the seq it lacks, then the confirmer signs a `team/reanchored` action. Invariant:
// it only ever appends rows this workstation verified, after a shared chain that is a clean prefix of them; it never
// replaces, removes or re-signs a row, and every other workstation verifies the republished rows as any pulled row.
import { z } from 'zod';
import type { Kernel } from '../kernel/kernel';
import { auditHead, type AuditRecorder, type AuditRow, exportAudit } from '../audit';
import { deleteSetting, getSetting, type ProfileSelection, setSetting } from '../profiles';
import type { MerchantConnection } from '../connection';
import { DeskError } from '../kernel/errors';
import { actingAs, authorize, unsealOperator, type OperatorCredentials } from '../operators';
import { encodeCanonical, importPublicKey, REANCHORED_ACTION, signBytes, snapshotKey, verifyBytes } from '../ledger';
import { projectionsFor } from './apply';
import type { TeamReplicator } from './replicator';
import { walkSharedChainAgainstLocal } from './shared-chain-walk';
import type { SharedDeskStore } from './shared-store';

export const REANCHOR_DOMAIN = 'treasury-desk/team-reanchor/v1\n';
/** The audited action the confirming admin signs once the rows are back. */

/** The parts of the desk this file's functions use (each its module's interface, built by that module; the engine passes them together: engine.ts deskParts). */
type DeskParts = Kernel & AuditRecorder & ProfileSelection & MerchantConnection;
export { REANCHORED_ACTION };
const PROPOSAL_SETTING = 'team.reanchorProposal';
const REPUBLISH_PAGE = 500;
const hash = z.string().regex(/^[0-9a-f]{64}$/);

const planSchema = z.strictObject({
  deskId: z.string(),
  profile: z.string(),
  /** The restored database's head (0 and null when it holds no row). */
  sharedSeq: z.number().int().min(0),
  sharedHash: hash.nullable(),
  /** This workstation's verified head: the rows after sharedSeq up to it are republished. */
  localSeq: z.number().int().min(1),
  localHash: hash,
});
type ReanchorPlan = z.infer<typeof planSchema>;

const proposalSchema = z.strictObject({ plan: planSchema, proposer: z.string(), keyId: z.string(), at: z.number().int(), signature: z.string() });
type ReanchorProposal = z.infer<typeof proposalSchema>;

export interface ReanchorOutcome {
  readonly step: 'proposed' | 'done';
  readonly proposer: string;
  readonly confirmer: string | null;
  /** The first and last row republished (or to be). */
  readonly fromSeq: number;
  readonly toSeq: number;
}

function signedText(plan: ReanchorPlan, proposer: string, at: number): string {
  return REANCHOR_DOMAIN + encodeCanonical({ ...plan, sharedHash: plan.sharedHash ?? '', proposer, at });
}

/**
 * What a re-anchor would republish: the shared chain must be a clean prefix of this workstation's verified chain that
 * ends before it (a restore, a truncation). Anything else is refused, saying why.
 */
async function planOf(context: DeskParts, store: SharedDeskStore, profile: string): Promise<ReanchorPlan> {
  const problem = await walkSharedChainAgainstLocal(context, store);
  if (problem === null) {
    throw new DeskError('conflict', 'the team database holds every row this workstation verified: there is nothing to re-anchor here (team verify says what holds now)');
  }
  if (problem.fault !== 'rolledBack') {
    throw new DeskError(
      'unverified',
      `${problem.reason}. A re-anchor only appends verified rows missing from the END of the shared chain; it never replaces a row: ask IT to restore the team database's latest backup, then propose again`,
    );
  }
  const local = auditHead(context.db);
  if (local === null) throw new DeskError('conflict', 'this workstation holds no audit rows: re-anchor from a workstation that verified the missing rows');
  const head = await store.head();
  return { deskId: context.trail.deskId, profile, sharedSeq: head?.seq ?? 0, sharedHash: head?.hash ?? null, localSeq: local.seq, localHash: local.hash };
}

function storedProposal(context: DeskParts): ReanchorProposal | null {
  const parsed = proposalSchema.safeParse(getSetting(context.db, PROPOSAL_SETTING));
  return parsed.success ? parsed.data : null;
}

/** The first admin: checks the plan and keeps it here, signed with their key, for a second admin to confirm. */
export async function proposeReanchor(context: DeskParts, replicator: TeamReplicator, as: OperatorCredentials): Promise<ReanchorOutcome> {
  const proposer = await unsealOperator(context, as);
  if (proposer.snapshot.status !== 'active') throw new DeskError('forbidden', `operator ${proposer.name} is disabled`);
  authorize(proposer.name, proposer.snapshot.role, 'manageOperators');
  const plan = await replicator.withChain((store) => planOf(context, store, proposer.profile));
  const at = context.now();
  const proposal: ReanchorProposal = { plan, proposer: proposer.name, keyId: proposer.keyId, at, signature: signBytes(proposer.privateKey, signedText(plan, proposer.name, at)) };
  setSetting(context.db, PROPOSAL_SETTING, proposal, at);
  return { step: 'proposed', proposer: proposer.name, confirmer: null, fromSeq: plan.sharedSeq + 1, toSeq: plan.localSeq };
}

/**
 * The second admin: checks the proposal (another active admin's signature over the same plan, the database and this
 * workstation unchanged since), appends the missing rows at the seq the database lacks, walks the whole chain again,
 * then signs the `team/reanchored` action naming both admins.
 */
export async function confirmReanchor(context: DeskParts, replicator: TeamReplicator, as: OperatorCredentials): Promise<ReanchorOutcome> {
  const proposal = storedProposal(context);
  if (proposal === null) throw new DeskError('conflict', 'no re-anchor is proposed on this workstation: an admin proposes it first with `treasury-desk team reanchor --as ADMIN`');
  const confirmer = await actingAs(context, as, 'manageOperators', proposal.plan.profile);
  if (confirmer.name === proposal.proposer) throw new DeskError('forbidden', `a re-anchor needs two admins: ${proposal.proposer} proposed it, so another admin confirms`);
  const proposer = confirmer.roster.at(proposal.proposer);
  const signingKey = proposer ? snapshotKey(proposer, proposal.keyId) : null;
  const key = signingKey === null ? null : importPublicKey(signingKey);
  if (!proposer || proposer.status !== 'active' || proposer.role !== 'admin' || !key) {
    throw new DeskError('forbidden', `${proposal.proposer}, who proposed the re-anchor, is not an active admin with that key now: propose it again`);
  }
  if (!verifyBytes(key, signedText(proposal.plan, proposal.proposer, proposal.at), proposal.signature)) {
    throw new DeskError('unverified', `the re-anchor proposal kept at this workstation does not carry ${proposal.proposer}'s signature: it was altered; propose it again`);
  }
  const plan = proposal.plan;
  await replicator.withChain(async (store) => {
    const now = await planOf(context, store, plan.profile);
    if (encodeCanonical({ ...now, sharedHash: now.sharedHash ?? '' }) !== encodeCanonical({ ...plan, sharedHash: plan.sharedHash ?? '' })) {
      throw new DeskError('conflict', `the team database or this workstation changed since ${proposal.proposer} proposed the re-anchor: propose it again`);
    }
    let expected = plan.sharedHash === null ? null : { seq: plan.sharedSeq, hash: plan.sharedHash };
    for (let from = plan.sharedSeq + 1; from <= plan.localSeq; from += REPUBLISH_PAGE) {
      const rows: AuditRow[] = exportAudit(context.db, { fromSeq: from, toSeq: Math.min(plan.localSeq, from + REPUBLISH_PAGE - 1) });
      const outcome = await store.append(rows, rows.flatMap((row) => projectionsFor(context, row)), expected);
      if (!outcome.appended) throw new DeskError('conflict', 'the team database changed while the rows were republished: run team verify, then propose the re-anchor again');
      const tail = rows[rows.length - 1] as AuditRow;
      expected = { seq: tail.seq, hash: tail.hash };
    }
  });
  deleteSetting(context.db, PROPOSAL_SETTING);
  const halted = replicator.status().halted;
  if (halted !== null) throw new DeskError('unverified', `the rows were republished, but this workstation still does not trust the team database: ${halted}`);
  await confirmer.sign({
    kind: 'action',
    subject: plan.deskId,
    body: {
      action: REANCHORED_ACTION,
      details: { proposer: proposal.proposer, proposerSignature: proposal.signature, proposedAt: proposal.at, sharedSeq: plan.sharedSeq, sharedHash: plan.sharedHash, republishedTo: plan.localSeq, headHash: plan.localHash },
    },
  });
  return { step: 'done', proposer: proposal.proposer, confirmer: confirmer.name, fromSeq: plan.sharedSeq + 1, toSeq: plan.localSeq };
}
