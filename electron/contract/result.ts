// The result every contract method answers: never a thrown error across IPC, always {ok, value} or {ok, error}.

/** Error codes a UI can act on. Messages are for people: what happened and what to do; never secrets. */
export const CONTRACT_ERROR_CODES = [
  'invalidInput', // the request failed its schema or a business rule before anything happened
  'notFound',
  'forbidden', // the operator's role does not allow the action
  'wrongPassphrase',
  'conflict', // the state does not allow it (already approved, cancelled, final...)
  'locked', // the desk is locked: unlock with an operator passphrase
  'lockedOut', // too many wrong passphrases for this operator: wait until the time the message gives
  'unverified', // the signed statements do not support the decision (tampering, a missing approval, a broken audit chain)
  'held', // a rule of the policy in force now holds a send (the message names it and what releases it)
  'noProfile',
  'keychainUnavailable',
  'credentials', // credentials refused by the service (authFailed, decryptFailed, signatureFailed with a good clock)
  'notWhitelisted', // the service answered "Oops": this workstation's IP is not whitelisted
  'clockDrift',
  'offline', // the service cannot be reached
  'service', // the service refused the request (message carries its reason)
  'verification', // a response failed verification and was discarded
  'ambiguous', // the outcome is unknown and will be reconciled (withdrawal submit)
  'internal',
] as const;
export type ContractErrorCode = (typeof CONTRACT_ERROR_CODES)[number];

export interface ContractError {
  readonly code: ContractErrorCode;
  readonly message: string;
  /** Field-level problems for forms (field name → message). */
  readonly fields?: Readonly<Record<string, string>>;
  /** The service's own reason text (PROTOCOL §7), when there is one. */
  readonly serviceReason?: string;
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ContractError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(code: ContractErrorCode, message: string, extra: Omit<ContractError, 'code' | 'message'> = {}): Result<T> {
  return { ok: false, error: { code, message, ...extra } };
}
