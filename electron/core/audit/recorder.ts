// The audit module's part other modules take: the signed trail and the one call that records a system event.
import type { AuditTrail } from './trail';

/** A system event for the audit log, signed by the desk key. Never put a secret in `details`. */
export interface AuditEntry {
  readonly profile?: string | null;
  /** What happened, `domain/verb`: `withdrawals/status`, `deposits/conflict`. */
  readonly action: string;
  readonly subject?: string | null;
  readonly details?: unknown;
}

export interface AuditRecorder {
  readonly trail: AuditTrail;
  /** Records a system event, signed by the desk key (operators' decisions are signed by them: operators/acting). */
  audit(entry: AuditEntry): void;
}

/** The recorder over `trail`: system events are signed by the desk key. */
export function auditRecorder(trail: AuditTrail): AuditRecorder {
  return { trail, audit: (entry) => trail.system(entry) };
}
