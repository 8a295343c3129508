// The preflight's destination facts in words, the same in the app and the CLI: an address that fails the chain rules
// is neither "paid before" nor "checked by the service", and a check the desk did not send is not "service unreachable".
// English here (the CLI); the app gives PreflightWords from its catalogue for another language.
import type { ServiceAddressCheck } from './dto';

/** What isAddress said about the destination, for people. */
export const SERVICE_ADDRESS_CHECK_WORDS: Readonly<Record<ServiceAddressCheck, string>> = {
  accepted: 'the service accepts this address',
  refused: 'the service says this address is invalid',
  unreachable: 'service not reachable: checked against the chain rules only',
  notAsked: 'not asked: the address fails the chain rules',
};

/** The preflight's words about the destination in one language. */
export interface PreflightWords {
  readonly serviceAddressCheck: Readonly<Record<ServiceAddressCheck, string>>;
  readonly notJudged: string;
  readonly newDestination: string;
  readonly paidBefore: string;
}

export const ENGLISH_PREFLIGHT_WORDS: PreflightWords = {
  serviceAddressCheck: SERVICE_ADDRESS_CHECK_WORDS,
  notJudged: 'not judged: the address fails the chain rules',
  newDestination: 'new: never paid from this desk',
  paidBefore: 'paid before from this desk',
};

/** Whether this desk paid the destination before, for people (null: not judged, the address fails the chain rules). */
export function destinationHistoryWords(newDestination: boolean | null, words: PreflightWords = ENGLISH_PREFLIGHT_WORDS): string {
  if (newDestination === null) return words.notJudged;
  return newDestination ? words.newDestination : words.paidBefore;
}
