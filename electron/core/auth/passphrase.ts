// What makes an acceptable operator passphrase. The passphrase itself is never stored: it seals the operator's
// signing key (core/operators/sealed-key.ts), and unsealing is the only check there is.

/** A passphrase must be long enough to resist guessing at a shared workstation. */
export const MIN_PASSPHRASE_LENGTH = 10;

export function passphraseProblem(passphrase: string): string | undefined {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH) return `a passphrase needs at least ${MIN_PASSPHRASE_LENGTH} characters`;
  if (passphrase.trim() !== passphrase) return 'a passphrase must not start or end with spaces';
  return undefined;
}
