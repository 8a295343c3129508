// The seam through which a team desk's decisions and events reach the team database (the audit trail owns it;
// team/replicator.ts implements it): the audit trail hands operator decisions and desk-signed events to it instead of
// appending them locally, and the withdrawal desk holds a submission claim through it. Absent (null) on a
// single-workstation desk, where nothing changes.
import type { AuditRow, StatementDraft, StatementSigner } from './audit-table';

export interface TeamSystemEvent {
  readonly profile?: string | null;
  readonly action: string;
  readonly subject?: string | null;
  readonly details?: unknown;
}

export interface TeamSeam {
  /**
   * Publishes one signed decision: catches up with the team database, signs at its head, appends it there (on the
   * condition the head did not move: otherwise catches up and signs again), then applies it locally, running
   * `within` in the same local transaction as the row. Refuses while the team database is unreachable.
   */
  publishDecision(draft: StatementDraft, sign: StatementSigner, within?: (row: AuditRow) => void): Promise<AuditRow>;
  /** Queues a desk-signed event (in the caller's transaction); it is signed and published at the shared head. */
  queueSystemEvent(event: TeamSystemEvent): void;
  /**
   * Takes (or renews) this workstation's claim to send a request to the service; refuses, naming the holder, when
   * another workstation holds a live claim or the submission is done. It catches up with the shared chain before
   * returning, so a submit signed under an expired claim another workstation held shows as in flight.
   */
  holdSubmission(userOrder: string): Promise<void>;
  /**
   * Before an order is sent to the service: obtains a fresh signed head from every other enrolled, active workstation
   * and refuses (nothing sent, the request as it was) when one does not answer in time, or holds a row this
   * workstation's verified chain lacks or a different row at a seq both have (team/witness.ts).
   */
  witness(): Promise<void>;
  /**
   * Takes (or renews) this workstation's claim on a one-time job named `key` (a webhook event's delivery), by the
   * submission claim's rule: null when this workstation holds it now, else the workstation that holds it (or did it).
   */
  claimOnce(key: string, leaseMs: number): Promise<string | null>;
  /** Marks this workstation's claim done with the service's answer (best effort; the lease expires otherwise). */
  submissionSettled(userOrder: string, result: string): void;
}
