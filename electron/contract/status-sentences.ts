// The desk's status in words, the same in the app and the CLI: why the desk is offline (a connection cause), what a sync
// is doing (a progress phase), what each selfcheck step found and what to do next. The engine keeps the facts as codes
// and values in the DTOs and builds its English text here (the CLI prints it); the app says the same facts in the
// window's language with words from its catalogue (renderer/src/i18n/sentences.ts; a unit test holds the catalogue's
// English equal to this file's). Text that came from the network or from an error (a transport's reason, a merchant's
// name) is a value: escaped, never translated.
import { escapeSingleLine } from './display-text';
import type { ContractErrorCode } from './result';

/** What a sync reads from the service, one resource at a time (the sync status DTOs in dto.ts name them too). */
export type SyncResource = 'currencies' | 'balances' | 'deposits' | 'withdrawals';

// ---- why the desk is offline ---------------------------------------------------------------------------------------------

/** Why the service cannot be used, as the engine diagnosed it (core/connection/tracker.ts), with the values its sentence needs. */
export type ConnectionCause =
  /** No answer at all; `detail` is the transport's own reason (network text, English). */
  | { readonly code: 'unreachable'; readonly detail: string }
  /** The service answered with an HTTP error status: reachable, but failing. */
  | { readonly code: 'serviceFailing'; readonly httpStatus: number; readonly endpoint: string }
  /** The service answered "Oops": this workstation's IP is not whitelisted. */
  | { readonly code: 'notWhitelisted'; readonly endpoint: string }
  /** Answers are refused as too old or too new, and no selfcheck has measured the drift yet. */
  | { readonly code: 'clockUnmeasured' }
  /** The measured drift (service minus this computer, seconds) is beyond the signed-time window. */
  | { readonly code: 'clockDrift'; readonly driftSeconds: number; readonly limitSeconds: number }
  /** An answer failed verification; `detail` is the verifier's reason (English). */
  | { readonly code: 'responseRefused'; readonly detail: string }
  | { readonly code: 'signatureRefused' }
  | { readonly code: 'authRefused' }
  | { readonly code: 'decryptRefused' }
  | { readonly code: 'apiVersion1' };

export type ConnectionCauseCode = ConnectionCause['code'];

/** Every cause, so tests and the app's catalogue can be held complete. */
export const CONNECTION_CAUSE_CODES = [
  'unreachable',
  'serviceFailing',
  'notWhitelisted',
  'clockUnmeasured',
  'clockDrift',
  'responseRefused',
  'signatureRefused',
  'authRefused',
  'decryptRefused',
  'apiVersion1',
] as const satisfies readonly ConnectionCauseCode[];

/** The values each cause's sentence is made of: text already escaped, numbers, yes/no as booleans. */
export interface ConnectionSentenceValues {
  readonly unreachable: { readonly detail: string };
  readonly serviceFailing: { readonly httpStatus: number; readonly endpoint: string };
  readonly notWhitelisted: { readonly endpoint: string };
  readonly clockUnmeasured: Record<string, never>;
  /** `behind`: this computer's clock is behind the service's. */
  readonly clockDrift: { readonly seconds: number; readonly behind: boolean; readonly limitSeconds: number };
  readonly responseRefused: { readonly detail: string };
  readonly signatureRefused: Record<string, never>;
  readonly authRefused: Record<string, never>;
  readonly decryptRefused: Record<string, never>;
  readonly apiVersion1: Record<string, never>;
}

/** A cause's sentence in one language. */
export type ConnectionWords = { readonly [C in ConnectionCauseCode]: (values: ConnectionSentenceValues[C]) => string };

export const ENGLISH_CONNECTION_WORDS: ConnectionWords = {
  unreachable: (v) => `the service cannot be reached: ${v.detail}. Check the network connection.`,
  serviceFailing: (v) =>
    `the service answered HTTP ${v.httpStatus} to ${v.endpoint}: it is reachable but failing; the desk tries again at the next sync (ask the platform if it lasts)`,
  // The same words as protocol/errors.ts NotWhitelistedError (test/unit/contract/status-sentences.test.ts holds them equal).
  notWhitelisted: (v) => `${v.endpoint}: the service answered "Oops": this workstation's public IP address is not on the merchant's whitelist. Ask the platform to whitelist it.`,
  clockUnmeasured: () => "this computer's clock seems to differ from the service's by more than 5 minutes: correct the system time (enable automatic time sync)",
  clockDrift: (v) =>
    `this computer's clock is ${v.seconds} s ${v.behind ? 'behind' : 'ahead of'} the service (the limit is ${v.limitSeconds} s): correct the system time (enable automatic time sync)`,
  responseRefused: (v) => `a response from the service failed verification and was discarded: ${v.detail}`,
  signatureRefused: () => 'the service refused our signature: check the merchant private key registered with the platform (and the system clock).',
  authRefused: () => 'the service refused the merchant ID or secret (authFailed): re-enter the credentials.',
  decryptRefused: () => 'the service could not decrypt our requests: check the platform public key.',
  apiVersion1: () => 'the account is still on protocol version 1: pass selfcheck, then ask the platform staff to switch it to version 2.',
};

/** What a cause's sentence says, read once here for every language. */
export function connectionSentenceValues<C extends ConnectionCause>(cause: C): ConnectionSentenceValues[C['code']];
export function connectionSentenceValues(cause: ConnectionCause): ConnectionSentenceValues[ConnectionCauseCode] {
  switch (cause.code) {
    case 'unreachable':
    case 'responseRefused':
      return { detail: escapeSingleLine(cause.detail) };
    case 'serviceFailing':
      return { httpStatus: cause.httpStatus, endpoint: escapeSingleLine(cause.endpoint) };
    case 'notWhitelisted':
      return { endpoint: escapeSingleLine(cause.endpoint) };
    case 'clockDrift':
      return { seconds: Math.abs(cause.driftSeconds), behind: cause.driftSeconds > 0, limitSeconds: cause.limitSeconds };
    case 'clockUnmeasured':
    case 'signatureRefused':
    case 'authRefused':
    case 'decryptRefused':
    case 'apiVersion1':
      return {};
    default: {
      const unknown: never = cause;
      return unknown;
    }
  }
}

/** Why the desk is offline, in one sentence (English unless other words are given). */
export function connectionSentence(cause: ConnectionCause, words: ConnectionWords = ENGLISH_CONNECTION_WORDS): string {
  const say = words[cause.code] as (values: object) => string;
  return say(connectionSentenceValues(cause));
}

// ---- what a sync is doing ------------------------------------------------------------------------------------------------

/** The step a sync or a comparison is at, with its counts (the progress banner and `sync --progress`). */
export type SyncProgressPhase =
  /** A resource's first request is on its way. */
  | { readonly kind: 'asking' }
  /** A page of the deposit history was stored: its number, deposits read and new ones stored so far. */
  | { readonly kind: 'depositsPage'; readonly page: number; readonly read: number; readonly stored: number; readonly fullWalk: boolean }
  /** An unsettled withdrawal is being checked with the service. */
  | { readonly kind: 'checkingWithdrawal'; readonly userOrder: string }
  /** The comparison with the service's deposit list read this page; `held`: deposits this desk held when it began. */
  | { readonly kind: 'verifyingDeposits'; readonly page: number; readonly held: number };

export type SyncProgressPhaseKind = SyncProgressPhase['kind'];

export const SYNC_PROGRESS_PHASE_KINDS = ['asking', 'depositsPage', 'checkingWithdrawal', 'verifyingDeposits'] as const satisfies readonly SyncProgressPhaseKind[];

export interface SyncProgressWords {
  /** A resource's name inside a sentence ("deposits"). */
  readonly resources: Readonly<Record<SyncResource, string>>;
  asking(values: { readonly resource: string }): string;
  depositsPage(values: { readonly page: number; readonly read: number; readonly stored: number; readonly fullWalk: boolean }): string;
  checkingWithdrawal(values: { readonly userOrder: string }): string;
  verifyingDeposits(values: { readonly page: number; readonly held: number }): string;
}

export const ENGLISH_SYNC_PROGRESS_WORDS: SyncProgressWords = {
  resources: { currencies: 'currencies', balances: 'balances', deposits: 'deposits', withdrawals: 'withdrawals' },
  asking: (v) => `${v.resource}: asking the service`,
  depositsPage: (v) => `deposits: page ${v.page}, ${v.read} read, ${v.stored} new stored so far${v.fullWalk ? ' (full walk)' : ''}`,
  checkingWithdrawal: (v) => `withdrawals: checking ${v.userOrder}`,
  verifyingDeposits: (v) => `verifying deposits: page ${v.page} of the service's list (${v.held} held here)`,
};

/** Where a sync stands, in one line (English unless other words are given). */
export function syncProgressSentence(resource: SyncResource, phase: SyncProgressPhase, words: SyncProgressWords = ENGLISH_SYNC_PROGRESS_WORDS): string {
  switch (phase.kind) {
    case 'asking':
      return words.asking({ resource: words.resources[resource] });
    case 'depositsPage':
      return words.depositsPage({ page: phase.page, read: phase.read, stored: phase.stored, fullWalk: phase.fullWalk });
    case 'checkingWithdrawal':
      return words.checkingWithdrawal({ userOrder: escapeSingleLine(phase.userOrder) });
    case 'verifyingDeposits':
      return words.verifyingDeposits({ page: phase.page, held: phase.held });
    default: {
      const unknown: never = phase;
      return unknown;
    }
  }
}

// ---- what selfcheck found --------------------------------------------------------------------------------------------------

/** What one selfcheck step found, with the values its detail is made of. */
export type SelfcheckOutcome =
  | { readonly code: 'tokenVerified' }
  | { readonly code: 'requestAccepted' }
  | { readonly code: 'responseVerified' }
  | { readonly code: 'echoMatches' }
  | { readonly code: 'echoDiffers' }
  /** The drift measured (service minus this computer, seconds); `warnFromSeconds` only when it deserves attention. */
  | { readonly code: 'clockDrift'; readonly driftSeconds: number; readonly limitSeconds: number; readonly warnFromSeconds: number | null }
  /** merchantInfo answered: the account's version, and the merchant as the platform names it (network text). */
  | { readonly code: 'versionEnabled'; readonly apiVersion: number; readonly merchantName: string; readonly merchantId: string }
  | { readonly code: 'versionOne' }
  /** The step failed with an error: its contract code and its message (English, maybe the network's words). */
  | { readonly code: 'failed'; readonly errorCode: ContractErrorCode; readonly message: string };

/** The outcomes the desk words itself (a failure shows its error). */
export type SelfcheckSentenceCode = Exclude<SelfcheckOutcome['code'], 'failed'>;

export const SELFCHECK_SENTENCE_CODES = [
  'tokenVerified',
  'requestAccepted',
  'responseVerified',
  'echoMatches',
  'echoDiffers',
  'clockDrift',
  'versionEnabled',
  'versionOne',
] as const satisfies readonly SelfcheckSentenceCode[];

/** What to do next after a selfcheck, as a code and the values its line needs. */
export type SelfcheckAdvice =
  | { readonly code: 'notWhitelisted' }
  | { readonly code: 'signatureFailed' }
  | { readonly code: 'authFailed' }
  /** Answers are refused as too far from this computer's time. */
  | { readonly code: 'staleTimestamp'; readonly windowMinutes: number }
  | { readonly code: 'clockBeyond'; readonly windowMinutes: number }
  | { readonly code: 'clockClose'; readonly windowMinutes: number }
  | { readonly code: 'versionSwitch' };

export type SelfcheckAdviceCode = SelfcheckAdvice['code'];

export const SELFCHECK_ADVICE_CODES = [
  'notWhitelisted',
  'signatureFailed',
  'authFailed',
  'staleTimestamp',
  'clockBeyond',
  'clockClose',
  'versionSwitch',
] as const satisfies readonly SelfcheckAdviceCode[];

type ClockDetail = { readonly seconds: number; readonly ahead: boolean; readonly limitSeconds: number; readonly warnFromSeconds: number | null };
type Minutes = { readonly windowMinutes: number };

export interface SelfcheckWords {
  readonly steps: {
    tokenVerified(): string;
    requestAccepted(): string;
    responseVerified(): string;
    echoMatches(): string;
    echoDiffers(): string;
    /** `ahead`: the service's clock is ahead of this computer's; `warnFromSeconds` null when the drift is fine or too large. */
    clockDrift(values: ClockDetail): string;
    versionEnabled(values: { readonly apiVersion: number; readonly merchantName: string; readonly merchantId: string }): string;
    versionOne(): string;
  };
  readonly advice: {
    notWhitelisted(): string;
    signatureFailed(): string;
    authFailed(): string;
    staleTimestamp(values: Minutes): string;
    clockBeyond(values: Minutes): string;
    clockClose(values: Minutes): string;
    versionSwitch(): string;
  };
}

export const ENGLISH_SELFCHECK_WORDS: SelfcheckWords = {
  steps: {
    tokenVerified: () => 'getToken answered with a verified, decrypted token',
    requestAccepted: () => 'the service accepted our token, timestamp, nonce, signature and ciphertext',
    responseVerified: () => 'the answer passed window, nonce, signature and decryption checks',
    echoMatches: () => 'the payload came back unchanged',
    echoDiffers: () => 'the echoed payload differs from what was sent',
    clockDrift: (v) =>
      `the service's clock is ${v.seconds} s ${v.ahead ? 'ahead of' : 'behind'} this computer (the limit is ${v.limitSeconds} s` +
      `${v.warnFromSeconds === null ? '' : `; from ${v.warnFromSeconds} s on it is worth fixing before requests fail`})`,
    versionEnabled: (v) => `the account is on protocol version ${v.apiVersion}: business calls work (merchant "${v.merchantName}", ${v.merchantId})`,
    versionOne: () => 'selfcheck passed, but the account is still on protocol version 1',
  },
  advice: {
    notWhitelisted: () => "This workstation's public IP address is not on the merchant's whitelist: ask the platform to add it, then run selfcheck again.",
    signatureFailed: () => 'signatureFailed: check that the merchant public key registered with the platform matches this profile, and that the clock is right.',
    authFailed: () => 'authFailed: the merchant ID or secret is wrong.',
    staleTimestamp: (v) =>
      `Correct this computer's clock (enable automatic time synchronisation): the service's answers carry a time more than ${v.windowMinutes} minutes away from it and are refused.`,
    clockBeyond: (v) => `Correct this computer's clock (enable automatic time synchronisation): requests fail beyond ${v.windowMinutes} minutes of drift.`,
    clockClose: (v) => `Check this computer's clock synchronisation: the drift is within the ${v.windowMinutes}-minute window but close to it, and requests fail beyond it.`,
    versionSwitch: () =>
      'Version 2 switch: selfcheck has passed; ask the platform staff to switch the account to protocol version 2 (merchants cannot do it), then run selfcheck again: merchantInfo confirms the switch.',
  },
};

/** A step's detail in one line (English unless other words are given); a failed step's detail is its error's message, escaped. */
export function selfcheckStepSentence(outcome: SelfcheckOutcome, words: SelfcheckWords = ENGLISH_SELFCHECK_WORDS): string {
  switch (outcome.code) {
    case 'tokenVerified':
    case 'requestAccepted':
    case 'responseVerified':
    case 'echoMatches':
    case 'echoDiffers':
    case 'versionOne':
      return words.steps[outcome.code]();
    case 'clockDrift':
      return words.steps.clockDrift({
        seconds: Math.abs(outcome.driftSeconds),
        ahead: outcome.driftSeconds >= 0,
        limitSeconds: outcome.limitSeconds,
        warnFromSeconds: outcome.warnFromSeconds,
      });
    case 'versionEnabled':
      return words.steps.versionEnabled({ apiVersion: outcome.apiVersion, merchantName: escapeSingleLine(outcome.merchantName), merchantId: escapeSingleLine(outcome.merchantId) });
    case 'failed':
      return escapeSingleLine(outcome.message);
    default: {
      const unknown: never = outcome;
      return unknown;
    }
  }
}

/** One line of what to do next (English unless other words are given). */
export function selfcheckAdviceSentence(advice: SelfcheckAdvice, words: SelfcheckWords = ENGLISH_SELFCHECK_WORDS): string {
  switch (advice.code) {
    case 'notWhitelisted':
    case 'signatureFailed':
    case 'authFailed':
    case 'versionSwitch':
      return words.advice[advice.code]();
    case 'staleTimestamp':
    case 'clockBeyond':
    case 'clockClose':
      return words.advice[advice.code]({ windowMinutes: advice.windowMinutes });
    default: {
      const unknown: never = advice;
      return unknown;
    }
  }
}
