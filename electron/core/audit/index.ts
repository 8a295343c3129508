// The audit module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export {
  ANCHOR_MOVED_ACTION,
  anchorStandingProblem,
  type DeskSecretsKind,
  MovableDeskSecrets,
  moveDeskSecrets,
  openDeskSecrets,
  requireAnchorStanding,
} from './anchor-store';
export {
  appendStatement,
  AUDIT_COLUMNS,
  type AuditDbRow,
  auditHasRowsAfter,
  auditHead,
  type AuditRow,
  auditRowFromDb,
  auditRowsBySubject,
  auditRowsOfKindsBetween,
  auditRowsOfKindsSince,
  auditRowsOfAction,
  auditRowsWhere,
  type AuditQuery,
  exportAudit,
  getAuditRow,
  iterateAudit,
  listAudit,
  type StatementDraft,
  type StatementSigner,
} from './audit-table';
export { DeskIdentity } from './desk-identity';
export {
  type OrderEvidenceKeys,
  orderEvidenceProblem,
  reportedOrderStatus,
  sharedEvidenceKeys,
} from './order-evidence';
export { type AuditEntry, type AuditRecorder, auditRecorder } from './recorder';
export { type TeamSeam, type TeamSystemEvent } from './team-seam';
export { AuditTrail, ChainVerifier, namedDeskKey, parseCheckpoint, toSignable, WORKSTATION_ENROLMENT } from './trail';
