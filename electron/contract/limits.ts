// Lengths the contract enforces that follow from the protocol: the order's remark (PROTOCOL §8: 255 characters)
// carries `TD ` + the intent's 19-character fingerprint + a space before the memo.
export const REMARK_MAX_LENGTH = 255;
export const MEMO_MAX_LENGTH = REMARK_MAX_LENGTH - 'TD '.length - 19 - 1;
/** The shortest operator passphrase the engine accepts (core/auth/passphrase.ts uses this one number). */
export const MIN_PASSPHRASE_LENGTH = 10;
/** Where a window's error report (desktop/reportError) comes from: React's error boundary, window `error`, window `unhandledrejection`. */
export const RENDERER_ERROR_KINDS = ['render', 'error', 'unhandledRejection'] as const;
export type RendererErrorKind = (typeof RENDERER_ERROR_KINDS)[number];
/** Bounds of a window's error report: the window cuts its text to these before sending (longer is refused). */
export const RENDERER_ERROR_LIMITS = Object.freeze({ messageChars: 2_000, stackChars: 8_000 });
/** Labels and notes (issue 13): a label is one short line, a note a few sentences; both are hints for people. */
export const LABEL_MAX_LENGTH = 200;
export const NOTE_MAX_LENGTH = 1000;
/** What a label can be on (BIP-329's `type`, adapted: docs/labels.md). */
export const LABEL_TYPES = ['deposit', 'withdrawal', 'addr', 'book'] as const;
export type LabelType = (typeof LABEL_TYPES)[number];
