// The operators module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export {
  actingAs,
  type ActingOperator,
  authorize,
  type OperatorCredentials,
  signAction,
  unsealOperator,
} from './acting';
export { addDevice, holdsKeyHere, workstationEnrolled } from './devices';
export { acceptInvitation, confirmProposal, foundDesk, inviteOperator, proposalView, proposePolicy } from './enrolment';
export { operatorsHandlers } from './handlers';
export { deleteOperatorRecords } from './operators-table';
export { proposeProfileAddition, proposeProfileRemoval, requireRemovalInForce } from './profile-changes';
export { signRosterStatement } from './roster-statement';
export { freezeSending, proposeUnfreeze, sendingState } from './freeze';
export { SESSION_SIGNING_MS, SessionKey, sessionActing, type SessionSigner } from './session-key';
export { governanceState, pendingChanges, proposeGovernance, vetoChange } from './governance';
