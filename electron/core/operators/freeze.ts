// The emergency freeze of a profile's sending (issue 20, part 3; BitGo's freeze): any one admin freezes at once with
// one signed `freeze` statement; lifting it is an `unfreeze` proposal a second, independent admin confirms (four-eyes,
// as every roster change; alone on a desk with one admin). The roster replays both (ledger/roster.ts), so a freeze
// signed at one team workstation holds the sends of every other once it has caught up, which a send does first.
import { type ProposalView, type SendingStateView, utcMinuteText } from '../../contract';
import { unsafeTextProblem } from '../../contract/display-text';
import type { AuditRecorder } from '../audit';
import { DeskError } from '../kernel/errors';
import type { Kernel } from '../kernel/kernel';
import { roleWithArticle, SENDING_SUBJECT } from '../ledger';
import type { ProfileSelection } from '../profiles';
import { actingAs, type OperatorCredentials } from './acting';
import { proposalView } from './enrolment';
import { signRosterStatement } from './roster-statement';

type DeskParts = Kernel & AuditRecorder & ProfileSelection;

/** Whether the active profile's sending is frozen, by whom, since when and why, and the lift waiting for a second admin. */
export function sendingState(parts: DeskParts, profile = parts.activeProfile().name): SendingStateView {
  const roster = parts.trail.roster(profile, { cached: true });
  const frozen = roster.frozenAt(parts.now());
  const lift = roster.openProposals().find((proposal) => proposal.kind === 'unfreeze');
  const scheduled = frozen?.liftId === null || frozen?.liftId === undefined ? undefined : roster.scheduledChange(frozen.liftId);
  const liftBy = scheduled === undefined ? null : { proposer: scheduled.proposer, confirmedBy: scheduled.confirmedBy };
  return {
    frozen: frozen === null ? null : { by: frozen.by, since: frozen.since, reason: frozen.reason, liftAt: frozen.liftAt, liftBy },
    lift: lift === undefined ? null : (proposalView(lift) satisfies ProposalView),
  };
}

/** One admin stops all sending of the profile at once; requests and approvals go on, nothing is sent. */
export async function freezeSending(parts: DeskParts, reason: string, as: OperatorCredentials): Promise<SendingStateView> {
  const problem = unsafeTextProblem(reason, 'the reason') ?? (reason.trim() === '' ? 'the reason is empty: say why sending is frozen' : null);
  if (problem) throw new DeskError('invalidInput', problem, { reason: problem });
  // Any operator's passphrase opens their key; only an admin's signature freezes (the roster's rule for `freeze`).
  const acting = await actingAs(parts, as, 'view');
  if (acting.role !== 'admin') throw new DeskError('forbidden', `${acting.name} is ${roleWithArticle(acting.role)}, not an admin: only an admin freezes sending`);
  const frozen = acting.roster.frozenAt(parts.now());
  if (frozen !== null) throw new DeskError('conflict', `sending is already frozen by ${frozen.by}`);
  await signRosterStatement(parts, acting, { kind: 'freeze', subject: SENDING_SUBJECT, body: { reason: reason.trim() } });
  parts.emit({ type: 'operators/changed' });
  parts.emit({ type: 'withdrawals/changed', id: null });
  return sendingState(parts, acting.profile);
}

/**
 * An admin proposes lifting the freeze; a second, independent admin confirms it (operators/confirm), then sending resumes
 * (after the loosening delay, when governance sets one). Under a time-locked lift the one admin's proposal is the lift:
 * sending resumes after the lock unless an admin vetoes it (ledger/loosening.ts).
 */
export async function proposeUnfreeze(parts: DeskParts, as: OperatorCredentials): Promise<SendingStateView> {
  const acting = await actingAs(parts, as, 'view');
  if (acting.role !== 'admin') throw new DeskError('forbidden', `${acting.name} is ${roleWithArticle(acting.role)}, not an admin: only admins lift a freeze`);
  const frozen = acting.roster.frozenAt(parts.now());
  if (frozen === null) throw new DeskError('conflict', 'sending is not frozen');
  if (frozen.liftAt !== null) throw new DeskError('conflict', `a lift of the freeze is already scheduled for ${utcMinuteText(frozen.liftAt)}: wait for it, or an admin vetoes it (roster veto)`);
  if (acting.roster.openProposals().some((proposal) => proposal.kind === 'unfreeze')) {
    throw new DeskError('conflict', 'a lift of the freeze already waits for a second admin: confirm it (operators/confirm) instead');
  }
  await signRosterStatement(parts, acting, { kind: 'unfreeze', subject: SENDING_SUBJECT, body: {} });
  parts.emit({ type: 'operators/changed' });
  parts.emit({ type: 'withdrawals/changed', id: null });
  return sendingState(parts, acting.profile);
}
