// What a contract error means, in the window's language: a headline per error code (what kind of problem, and what to
// do in general where no next step says it) and, for some codes, the next step. The engine's message stays English
// (the CLI and the log speak it too); ErrorNotice shows these words around it.
import type { ContractErrorCode } from '../../electron/contract';
import { t, type MessageId } from './i18n';

/** Every code's headline: a Record of every code, so a new error code without a headline does not compile. */
export const ERROR_HEADLINES: Readonly<Record<ContractErrorCode, MessageId>> = {
  invalidInput: 'shell.error.invalidInput.headline',
  notFound: 'shell.error.notFound.headline',
  forbidden: 'shell.error.forbidden.headline',
  wrongPassphrase: 'shell.error.wrongPassphrase.headline',
  conflict: 'shell.error.conflict.headline',
  locked: 'shell.error.locked.headline',
  lockedOut: 'shell.error.lockedOut.headline',
  unverified: 'shell.error.unverified.headline',
  held: 'shell.error.held.headline',
  noProfile: 'shell.error.noProfile.headline',
  keychainUnavailable: 'shell.error.keychainUnavailable.headline',
  credentials: 'shell.error.credentials.headline',
  notWhitelisted: 'shell.error.notWhitelisted.headline',
  clockDrift: 'shell.error.clockDrift.headline',
  offline: 'shell.error.offline.headline',
  service: 'shell.error.service.headline',
  verification: 'shell.error.verification.headline',
  ambiguous: 'shell.error.ambiguous.headline',
  internal: 'shell.error.internal.headline',
};

/** The codes whose next step is worth saying under any message of theirs. */
export const ERROR_NEXT_STEPS: Readonly<Partial<Record<ContractErrorCode, MessageId>>> = {
  locked: 'shell.error.locked.nextStep',
  notWhitelisted: 'shell.error.notWhitelisted.nextStep',
  clockDrift: 'shell.error.clockDrift.nextStep',
  offline: 'shell.error.offline.nextStep',
  noProfile: 'shell.error.noProfile.nextStep',
  keychainUnavailable: 'shell.error.keychainUnavailable.nextStep',
  wrongPassphrase: 'shell.error.wrongPassphrase.nextStep',
  forbidden: 'shell.error.forbidden.nextStep',
  ambiguous: 'shell.error.ambiguous.nextStep',
  lockedOut: 'shell.error.lockedOut.nextStep',
  unverified: 'shell.error.unverified.nextStep',
  held: 'shell.error.held.nextStep',
};

/** What kind of problem an error is, in the window's language ("Der Desk ist gesperrt."). */
export function errorHeadline(code: ContractErrorCode): string {
  return t(ERROR_HEADLINES[code]);
}

/** What to do next for an error of this code, in the window's language; null when its message is all there is to say. */
export function errorNextStep(code: ContractErrorCode): string | null {
  const id = ERROR_NEXT_STEPS[code];
  return id === undefined ? null : t(id);
}
