// Writes an operator's roster statement (an invitation, a confirmation, a role, a policy, a device key, a book entry...)
// and has the roster judge it inside the same transaction, so the engine never writes a roster row that would not
// verify. Every workflow that signs roster statements (enrolment, devices, profile changes, the address book) uses it.
import type { AuditRecorder, AuditRow, StatementDraft } from '../audit';
import { DeskError } from '../kernel/errors';
import type { ActingOperator } from './acting';

/** Appends the operator's roster statement and has the roster judge it in the same transaction (with `within`'s writes). */
export function signRosterStatement(
  context: AuditRecorder,
  acting: ActingOperator,
  draft: Omit<StatementDraft, 'operator' | 'keyId' | 'profile'>,
  within?: (row: AuditRow) => void,
): Promise<AuditRow> {
  return acting.sign(draft, (row) => {
    judgeRosterRow(context, acting.profile, row);
    within?.(row);
  });
}

/** Throws (rolling the transaction back) when the roster refuses the row just written. */
export function judgeRosterRow(context: AuditRecorder, profile: string, row: AuditRow): void {
  const roster = context.trail.roster(profile);
  const problem = roster.problems.find((entry) => entry.seq === row.seq);
  if (problem) throw new DeskError('forbidden', `the roster refuses this change: ${problem.reason}`);
}
