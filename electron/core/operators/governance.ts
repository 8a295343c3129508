// The desk's governance (issue 20, part 4): the loosening delay and the freeze-lift rule, set by a four-eyes `governance` proposal, and the veto any one admin signs against a loosening change still waiting for its delay. Invariant: everything shown and checked here is read from the signed roster at the engine's clock, never from a row.
import type { GovernanceView, ScheduledChangeView } from '../../contract';
import { unsafeTextProblem } from '../../contract/display-text';
import type { AuditRecorder } from '../audit';
import { DeskError } from '../kernel/errors';
import type { Kernel } from '../kernel/kernel';
import { DEFAULT_GOVERNANCE, type FreezeLift, GOVERNANCE_SUBJECT, inForceAt, parseGovernance, roleWithArticle, type Roster, type ScheduledChange, type StatementBody } from '../ledger';
import type { ProfileSelection } from '../profiles';
import { actingAs, type OperatorCredentials } from './acting';
import { proposalView } from './enrolment';
import { signRosterStatement } from './roster-statement';

type DeskParts = Kernel & AuditRecorder & ProfileSelection;

export interface GovernanceInput {
  readonly looseningDelayHours: number;
  readonly freezeLift: FreezeLift;
  readonly freezeLockHours: number;
}

/** How many vetoed or settled loosening changes the governance view lists (the audit log keeps them all). */
const RECENT_CHANGES = 20;

/** A scheduled change as shown, with its standing at `now`: waiting, vetoed, or in force (inForceAt, the roster's one rule). */
export function scheduledChangeView(change: ScheduledChange, now: number): ScheduledChangeView {
  return {
    id: change.id,
    kind: change.kind,
    subject: change.subject,
    proposer: change.proposer,
    confirmedBy: change.confirmedBy,
    appliedAt: change.appliedAt,
    effectiveAt: change.effectiveAt,
    loosens: change.loosens,
    state: change.vetoedBy !== null ? 'vetoed' : inForceAt(change.effectiveAt, now) ? 'inForce' : 'waiting',
    vetoedBy: change.vetoedBy,
    vetoedAt: change.vetoedAt,
    vetoReason: change.vetoReason,
  };
}

/** The loosening changes of a roster still waiting at `now`, soonest first (what the notifications and the CLI list). */
export function pendingChanges(roster: Roster, now: number): ScheduledChangeView[] {
  return roster
    .scheduledChanges(now)
    .sort((a, b) => a.effectiveAt - b.effectiveAt)
    .map((change) => scheduledChangeView(change, now));
}

/** The latest loosening changes vetoed or in force at `now`, the latest first (by the veto's or the taking effect's time). */
function recentChanges(roster: Roster, now: number): ScheduledChangeView[] {
  const settledAt = (change: ScheduledChange): number => change.vetoedAt ?? change.effectiveAt;
  return roster
    .scheduledHistory()
    .filter((change) => change.vetoedBy !== null || inForceAt(change.effectiveAt, now))
    .sort((a, b) => settledAt(b) - settledAt(a))
    .slice(0, RECENT_CHANGES)
    .map((change) => scheduledChangeView(change, now));
}

/** The governance in force now and who set it, the governance change waiting for a second admin, and the loosening changes waiting and settled. */
export function governanceState(parts: DeskParts, profile = parts.activeProfile().name): GovernanceView {
  const roster = parts.trail.roster(profile, { cached: true });
  const now = parts.now();
  const inForce = roster.governanceAt(now);
  const governance = inForce?.governance ?? DEFAULT_GOVERNANCE;
  const open = roster.openProposals().find((proposal) => proposal.kind === 'governance');
  const setting = inForce === null ? undefined : roster.proposal(inForce.id);
  return {
    ...governance,
    reference: inForce?.id ?? null,
    setBy: inForce === null || setting === undefined ? null : { proposer: setting.proposer, confirmedBy: setting.confirmedBy, since: inForce.effectiveAt },
    proposal: open === undefined ? null : proposalView(open),
    pending: pendingChanges(roster, now),
    recent: recentChanges(roster, now),
  };
}

/** An admin proposes a governance setting; a second admin confirms it (operators/confirm). Shortening the delay is itself a loosening. */
export async function proposeGovernance(parts: DeskParts, input: GovernanceInput, as: OperatorCredentials): Promise<GovernanceView> {
  const governance = parseGovernance({ looseningDelayHours: input.looseningDelayHours, freezeLift: input.freezeLift, freezeLockHours: input.freezeLockHours });
  if (typeof governance === 'string') throw new DeskError('invalidInput', `${governance}: nothing was proposed`);
  const acting = await actingAs(parts, as, 'manageOperators');
  if (acting.roster.openProposals().some((proposal) => proposal.kind === 'governance')) {
    throw new DeskError('conflict', 'a governance change already waits for a second admin: confirm it (operator confirm) or withdraw it first');
  }
  await signRosterStatement(parts, acting, { kind: 'governance', subject: GOVERNANCE_SUBJECT, body: { governance: { ...governance } } });
  parts.emit({ type: 'operators/changed' });
  return governanceState(parts, acting.profile);
}

/** The scheduled change a full id or a unique prefix (8 or more characters) names, among every change ever scheduled. */
function findChange(roster: Roster, now: number, reference: string): ScheduledChange {
  const exact = roster.scheduledChange(reference);
  if (exact) return exact;
  const waiting = roster.scheduledChanges(now).filter((change) => change.id.startsWith(reference.toLowerCase()));
  if (waiting.length === 1) return waiting[0]!;
  if (waiting.length > 1) throw new DeskError('invalidInput', `"${reference}" names ${waiting.length} waiting changes: give more of the id (governance show lists them)`);
  throw new DeskError('notFound', `no loosening change "${reference}" is waiting: governance show lists the changes that may still be vetoed`);
}

/** Any one active admin vetoes a loosening change before it takes effect; it never takes effect. After it took effect, refused. */
export async function vetoChange(parts: DeskParts, reference: string, reason: string | undefined, as: OperatorCredentials): Promise<GovernanceView> {
  const problem = reason === undefined ? null : unsafeTextProblem(reason, 'the reason');
  if (problem) throw new DeskError('invalidInput', problem, { reason: problem });
  const acting = await actingAs(parts, as, 'view');
  if (acting.role !== 'admin') throw new DeskError('forbidden', `${acting.name} is ${roleWithArticle(acting.role)}, not an admin: only an admin vetoes a change`);
  const now = parts.now();
  const change = findChange(acting.roster, now, reference);
  if (change.vetoedBy !== null) throw new DeskError('conflict', `that change was already vetoed by ${change.vetoedBy}`);
  if (change.effectiveAt <= now) {
    throw new DeskError('conflict', `that change took effect at ${new Date(change.effectiveAt).toISOString()}: a veto comes during the delay; to undo it now, propose the change back`);
  }
  const body: StatementBody = reason === undefined || reason.trim() === '' ? {} : { reason: reason.trim() };
  await signRosterStatement(parts, acting, { kind: 'veto', subject: change.id, body });
  parts.emit({ type: 'operators/changed' });
  parts.emit({ type: 'withdrawals/changed', id: null });
  return governanceState(parts, acting.profile);
}
