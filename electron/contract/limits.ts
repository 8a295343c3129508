// Lengths the contract enforces that follow from the protocol: the order's remark (PROTOCOL §8: 255 characters)
// carries `TD ` + the intent's 19-character fingerprint + a space before the memo.
export const REMARK_MAX_LENGTH = 255;
export const MEMO_MAX_LENGTH = REMARK_MAX_LENGTH - 'TD '.length - 19 - 1;
/** The shortest operator passphrase the engine accepts (core/auth/passphrase.ts uses this one number). */
export const MIN_PASSPHRASE_LENGTH = 10;
