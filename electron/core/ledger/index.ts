// The ledger module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { passphraseProblem } from '../auth/passphrase';
export { type OperatorAction, type OperatorRole, roleMay, roleWithArticle } from '../auth/roles';
export {
  invitationCodeCommitment,
  invitationCodeKey,
  legacyInvitationProblem,
  normalizeInvitationCode,
  signInvitationProof,
} from './invitation-code';
export {
  ANCHOR_MOVED_ACTION,
  REANCHORED_ACTION,
  WORKSTATION_ENROLMENT,
  WORKSTATION_RETIREMENT,
  workstationEnrolment,
} from './kinds/action';
export { ROSTER_BODIES } from './kinds/roster';
export { confusableName } from './confusable-names';
export { MAX_ADDRESSES_PER_PAYEE, MAX_PAYEES_PER_BATCH, type PayeeDraft, type PayeeInForce, PAYEES_SUBJECT, payeeNameKey, payeeNameProblem, parsePayees } from './payees';
export { requestBodySchema, requestQuoteSchema } from './kinds/withdrawal';
export {
  LEGACY_SEALED,
  ORDER_ACCEPTED,
  ORDER_STATUS,
  profileRemovalEndsRoster,
  systemBodySchema,
  TEAM_PROFILE_ACTION,
} from './kinds/system';
export { snapshotKey } from './operator-keys';
export { foundingAfterPin, pinnedDeskKeys } from './pinned-rules';
export { PROFILE_REMOVED } from './profile-removed';
export { proposalWithdrawalProblem } from './proposal-withdrawal';
export { type ChainStanding, type DeskKeyInForce, refuseRow } from './registry';
export {
  type ChainRow,
  countIndependentApprovals,
  disjoint,
  type OperatorSnapshot,
  parseBookSubject,
  type PendingDevice,
  type BookEntryInForce,
  type ProfileAddition,
  type Proposal,
  type RadarClearanceInForce,
  Roster,
  type ScheduledChange,
  SENDING_SUBJECT,
} from './roster';
export { DEFAULT_GOVERNANCE, type FreezeLift, type Governance, GOVERNANCE_SUBJECT, governanceLoosens, inForceAt, parseGovernance, policyLoosens } from './loosening';
export {
  forgetGenesisCopy,
  GENESIS_ACTION,
  genesisFingerprint,
  genesisOf,
  pinGenesis,
  type PinnedGenesis,
  pinnedGenesisEntry,
  readPinnedGenesis,
} from './trust-roots';
export {
  type BatchCurrencyTotal,
  batchFingerprint,
  type BatchFlag,
  type BatchIntent,
  batchIntentHash,
  batchLineByUserOrder,
  derivedUserOrder,
  encodeBatchIntent,
  isBatchIntent,
} from '../statements/batch-intent';
export { type CanonicalValue, encodeCanonical } from '../statements/canonical';
export { type HeadAck, headAckMessage, headAckVerifies, type SignedHeadAck } from '../statements/head-ack';
export {
  DEFAULT_POLICY_REFERENCE,
  encodeIntent,
  intentFingerprint,
  intentHash,
  remarkFor,
  type WithdrawalIntent,
} from '../statements/intent';
export {
  exportPrivateKey,
  generateSigningKey,
  importPrivateKey,
  importPublicKey,
  isReadableFingerprint,
  keyIdOf,
  publicKeyOfPrivate,
  readableFingerprint,
  signBytes,
  verifyBytes,
} from '../statements/keys';
export {
  auditRowHash,
  canonicalHash,
  CHAIN_GENESIS,
  encodeStatement,
  isRosterKind,
  isWithdrawalKind,
  parseStatement,
  ROSTER_KINDS,
  signStatementText,
  type Statement,
  STATEMENT_DOMAIN,
  STATEMENT_VERSION,
  type StatementBody,
  type StatementKind,
  verifyStatementText,
} from '../statements/statement';
export { parsedStatement, resetSignatureCache, signatureCacheStats, signatureHolds } from '../statements/verified-signatures';
