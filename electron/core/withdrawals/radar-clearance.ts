// The poisoning radar's list and its four-eyes clearance (issue 21 item 3): an admin proposes clearing a flagged
// address with a signed `radar-clear`, a second, independent admin confirms it (here or with operators/confirm).
// Invariant: an address is paid again only once the roster, replayed from signed statements, holds the clearance.
import { sameAddress } from '../../chains';
import type { PoisoningAlertView, RadarView } from '../../contract';
import type { AuditRecorder } from '../audit';
import { bookEntryName, lookAlikeWords, type PoisoningAlert, poisoningAlerts } from '../deposits';
import { DeskError } from '../kernel/errors';
import type { Kernel } from '../kernel/kernel';
import { type Proposal, type Roster, roleWithArticle } from '../ledger';
import { actingAs, type OperatorCredentials, proposalView, signRosterStatement } from '../operators';
import type { ProfileSelection } from '../profiles';

type DeskParts = Kernel & AuditRecorder & ProfileSelection;

/** Whether a `radar-clear` proposal or change (subject `chain:address`) is about this sender. */
function aboutSender(subject: string, alert: Pick<PoisoningAlert, 'sender' | 'chain'>): boolean {
  const colon = subject.indexOf(':');
  return colon > 0 && sameAddress(subject.slice(colon + 1), alert.sender, alert.chain);
}

function openClearance(roster: Roster, alert: PoisoningAlert): Proposal | undefined {
  return roster.openProposals().find((proposal) => proposal.kind === 'radar-clear' && aboutSender(proposal.subject, alert));
}

export function poisoningAlertView(roster: Roster, alert: PoisoningAlert, now: number): PoisoningAlertView {
  const clearing = openClearance(roster, alert);
  const scheduled = roster.scheduledChanges(now).find((change) => change.kind === 'radar-clear' && aboutSender(change.subject, alert));
  const entry = alert.lookAlike.entry;
  const cleared = alert.cleared;
  return {
    sender: alert.sender,
    chain: alert.chain,
    looksLike: bookEntryName(entry),
    similarity: lookAlikeWords(alert.lookAlike),
    firstDeposit: { id: alert.firstDeposit.id, txid: alert.firstDeposit.txid, currency: alert.firstDeposit.currency, amount: alert.firstDeposit.amount, at: alert.firstDeposit.firstSeenAt },
    deposits: alert.deposits,
    status: cleared !== null ? 'cleared' : scheduled !== undefined ? 'clearScheduled' : clearing !== undefined ? 'clearing' : 'blocked',
    clearing: clearing === undefined ? null : proposalView(clearing),
    clearedBy: cleared !== null ? [cleared.proposer, ...(cleared.confirmedBy === null ? [] : [cleared.confirmedBy])] : scheduled !== undefined ? [scheduled.proposer, ...(scheduled.confirmedBy === null ? [] : [scheduled.confirmedBy])] : [],
    clearedFrom: cleared !== null ? cleared.since : (scheduled?.effectiveAt ?? null),
  };
}

/** The active profile's radar: every flagged sender with its evidence and where its clearance stands. */
export function radarView(parts: DeskParts): RadarView {
  const profile = parts.activeProfile().name;
  const roster = parts.trail.roster(profile, { cached: true });
  const now = parts.now();
  const alerts = poisoningAlerts(parts.db, profile, roster, now).map((alert) => poisoningAlertView(roster, alert, now));
  return { alerts, blocked: alerts.filter((alert) => alert.status !== 'cleared').length };
}

/**
 * An admin clears a flagged address: proposes the clearance, or confirms another, independent admin's proposal. Only a
 * flagged address can be cleared, once; the roster judges the signed row (who may sign it, four-eyes) before it commits.
 */
export async function clearFlaggedAddress(parts: DeskParts, address: string, as: OperatorCredentials): Promise<PoisoningAlertView> {
  const acting = await actingAs(parts, as, 'view');
  if (acting.role !== 'admin') throw new DeskError('forbidden', `${acting.name} is ${roleWithArticle(acting.role)}, not an admin: only admins clear an address the poisoning radar flagged`);
  const now = parts.now();
  const alert = poisoningAlerts(parts.db, acting.profile, acting.roster, now).find((candidate) => sameAddress(candidate.sender, address, candidate.chain));
  if (alert === undefined) {
    throw new DeskError('notFound', `${address} is not an address the poisoning radar flagged: "treasury-desk radar list" shows those it flagged`);
  }
  if (alert.cleared !== null) throw new DeskError('conflict', `${alert.sender} is already cleared (by ${alert.cleared.proposer}${alert.cleared.confirmedBy === null ? '' : ` and ${alert.cleared.confirmedBy}`})`);
  const open = openClearance(acting.roster, alert);
  if (open !== undefined) {
    if (open.proposer.toLowerCase() === acting.name.toLowerCase()) {
      throw new DeskError('conflict', `${acting.name} already proposed clearing ${alert.sender}: another, independent admin confirms it ("treasury-desk radar clear ${alert.sender} --as ADMIN")`);
    }
    await signRosterStatement(parts, acting, { kind: 'confirm', subject: open.subject, body: { proposal: open.id } });
  } else {
    await signRosterStatement(parts, acting, { kind: 'radar-clear', subject: `${alert.chain}:${alert.sender}`, body: { looksLike: bookEntryName(alert.lookAlike.entry) } });
  }
  parts.emit({ type: 'operators/changed' });
  parts.emit({ type: 'withdrawals/changed', id: null });
  const roster = parts.trail.roster(acting.profile);
  const after = poisoningAlerts(parts.db, acting.profile, roster, parts.now()).find((candidate) => sameAddress(candidate.sender, alert.sender, alert.chain));
  return poisoningAlertView(roster, after ?? alert, parts.now());
}
