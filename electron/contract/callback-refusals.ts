// The callback listener's recent refusals as the faces see them (issue 22, part 2): which check refused each POST as a
// stable code, the code in plain words, and the bounded list of this process's refusals with counts per code. Kept in
// memory only (a diagnostic of the running listener); the audit log keeps its own bounded sample.

/** Which check refused a callback POST: stable codes, safe to match on in scripts. */
export const CALLBACK_REFUSAL_CODES = [
  'rateLimited',
  'bodyTooLarge',
  'bodyUnreadable',
  'malformedEnvelope',
  'missingHeaders',
  'wrongAppId',
  'badTimestamp',
  'staleTimestamp',
  'badNonce',
  'badSignature',
  'replayedNonce',
  'decryptFailed',
  'schemaMismatch',
  'notSuccess',
  'other',
] as const;
export type CallbackRefusalCode = (typeof CALLBACK_REFUSAL_CODES)[number];

/** Each code in plain words, for the app's list and the CLI's table. */
export const CALLBACK_REFUSAL_WORDS: Readonly<Record<CallbackRefusalCode, string>> = {
  rateLimited: 'too many requests from one source',
  bodyTooLarge: 'body too large',
  bodyUnreadable: 'body could not be read',
  malformedEnvelope: 'not the JSON envelope {code, data, message}',
  missingHeaders: 'signature headers missing',
  wrongAppId: 'addressed to another merchant ID',
  badTimestamp: 'timestamp not whole seconds',
  staleTimestamp: 'timestamp outside the ±300 s window',
  badNonce: 'malformed nonce',
  badSignature: 'signature does not verify',
  replayedNonce: 'replayed (nonce seen before)',
  decryptFailed: 'could not be decrypted',
  schemaMismatch: 'record has the wrong shape',
  notSuccess: 'a failure envelope, not a record',
  other: 'refused for another reason',
};

/** How many refusals the listener keeps in memory, newest first; older ones are forgotten (their counts stay). */
export const CALLBACK_REFUSALS_KEPT = 200;
/** A refusal's reason is cut to this many characters, so the list stays bounded however long the verifier's message. */
export const CALLBACK_REFUSAL_REASON_MAX_CHARS = 500;

export interface CallbackRefusalView {
  /** When it was received (ms since the epoch). */
  readonly at: number;
  /** The source address as the socket saw it. */
  readonly source: string;
  /** The HTTP status answered. */
  readonly status: number;
  readonly code: CallbackRefusalCode;
  /** The verifier's message; may carry bytes the sender chose (faces show it escaped). */
  readonly reason: string;
}

export interface CallbackRefusalsView {
  /** At most CALLBACK_REFUSALS_KEPT, newest first. */
  readonly refusals: readonly CallbackRefusalView[];
  /** Refusals per code since this process started, including those no longer in the list; codes never seen are left out. */
  readonly counts: readonly { readonly code: CallbackRefusalCode; readonly count: number }[];
  /** Every refusal since this process started (callbacks/state's `refused`). */
  readonly total: number;
  /** The bound of the list (CALLBACK_REFUSALS_KEPT). */
  readonly kept: number;
}
