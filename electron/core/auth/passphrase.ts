// What makes an acceptable operator passphrase. The passphrase itself is never stored: it seals the operator's
// signing key (core/operators/sealed-key.ts), and unsealing is the only check there is.

import { MIN_PASSPHRASE_LENGTH } from '../../contract/limits';

/** A passphrase must be long enough to resist guessing at a shared workstation (the contract carries the number for forms). */
export { MIN_PASSPHRASE_LENGTH };

export function passphraseProblem(passphrase: string): string | undefined {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH) return `a passphrase needs at least ${MIN_PASSPHRASE_LENGTH} characters`;
  if (passphrase.trim() !== passphrase) return 'a passphrase must not start or end with spaces';
  return undefined;
}
