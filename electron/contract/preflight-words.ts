// The preflight's destination facts in words, the same in the app and the CLI: an address that fails the chain rules
// is neither "paid before" nor "checked by the service", and a check the desk did not send is not "service unreachable".
import type { ServiceAddressCheck } from './dto';

/** What isAddress said about the destination, for people. */
export const SERVICE_ADDRESS_CHECK_WORDS: Readonly<Record<ServiceAddressCheck, string>> = {
  accepted: 'the service accepts this address',
  refused: 'the service says this address is invalid',
  unreachable: 'service not reachable: checked against the chain rules only',
  notAsked: 'not asked: the address fails the chain rules',
};

/** Whether this desk paid the destination before, for people (null: not judged, the address fails the chain rules). */
export function destinationHistoryWords(newDestination: boolean | null): string {
  if (newDestination === null) return 'not judged: the address fails the chain rules';
  return newDestination ? 'new: never paid from this desk' : 'paid before from this desk';
}
