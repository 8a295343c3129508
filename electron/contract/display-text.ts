// Text from people and the network (memos, reasons, names, labels, platform messages) made safe to show: C0 controls
// except newline, DEL, C1 controls (NEL U+0085 among them), the line and paragraph separators (U+2028, U+2029), the
// bidi overrides/isolates (U+202A–U+202E, U+2066–U+2069) and the directional marks (U+061C, U+200E, U+200F, which
// reorder neutral characters such as digits and punctuation) are either refused at input or shown escaped (ESC as
// ⟨U+001B⟩), so an ANSI escape or a right-to-left override can never make a screen show something other than what is
// stored. A single-line field (a memo, a name, an address, a service remark) also has its newlines escaped
// (escapeSingleLine), so a memo cannot print a second `to` line under the real one; a multi-line field (a rejection
// reason) is shown as a block whose every line carries a mark (blockLines). Pure: the engine, the CLI and the
// renderer all use these definitions.

/** The class of characters that must never reach a screen unescaped, as regular-expression source (one definition). */
export const UNSAFE_TEXT_CLASS = '[\\u0000-\\u0009\\u000B-\\u001F\\u007F-\\u009F\\u061C\\u200E\\u200F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069]';
/** Characters that must never reach a screen unescaped (APPROVALS / issue 9, item 10). */
export const UNSAFE_TEXT_CHARACTERS = new RegExp(UNSAFE_TEXT_CLASS, 'u');
const UNSAFE_GLOBAL = new RegExp(UNSAFE_TEXT_CLASS, 'gu');

export interface UnsafeCharacter {
  /** UTF-16 index of the character in the text. */
  readonly index: number;
  /** The code point, e.g. 0x1b. */
  readonly codePoint: number;
  /** How it is written for people: `U+001B (escape)`. */
  readonly description: string;
}

const NAMES: Readonly<Record<number, string>> = {
  0x00: 'null',
  0x07: 'bell',
  0x08: 'backspace',
  0x09: 'tab',
  0x0d: 'carriage return',
  0x1b: 'escape',
  0x7f: 'delete',
  0x85: 'next line',
  0x9b: 'control sequence introducer',
  0x061c: 'arabic letter mark',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
};

/** `U+001B`: four or more upper-case hex digits. */
export function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

function describe(codePoint: number): string {
  const name = NAMES[codePoint] ?? (codePoint >= 0x0600 ? 'bidi control' : 'control character');
  return `${codePointLabel(codePoint)} (${name})`;
}

/** The first character that may not be shown as is, or null when the text is safe. */
export function findUnsafeCharacter(text: string): UnsafeCharacter | null {
  const match = UNSAFE_TEXT_CHARACTERS.exec(text);
  if (!match) return null;
  const codePoint = match[0].codePointAt(0) ?? 0;
  return { index: match.index, codePoint, description: describe(codePoint) };
}

/** Why `text` is refused as input, or null when it is acceptable; `what` names the field ("the memo"). */
export function unsafeTextProblem(text: string, what: string): string | null {
  const found = findUnsafeCharacter(text);
  if (!found) return null;
  return `${what} contains ${found.description} at position ${found.index + 1}: control and text-direction characters are not allowed, type it again without them`;
}

/** The text with every unsafe character replaced by a visible mark such as ⟨U+202E⟩; newlines and everything else stay. */
export function escapeUnsafeText(text: string): string {
  return text.replace(UNSAFE_GLOBAL, (character) => `⟨${codePointLabel(character.codePointAt(0) ?? 0)}⟩`);
}

const NEWLINES = /\n/g;

/**
 * A single-line field made safe to show: escapeUnsafeText, and each newline as ⟨U+000A⟩ too (the other line breaks,
 * CR, VT, FF, NEL, U+2028 and U+2029, are already in the unsafe class), so it can never start a line of its own.
 */
export function escapeSingleLine(text: string): string {
  return escapeUnsafeText(text).replace(NEWLINES, `⟨${codePointLabel(0x0a)}⟩`);
}

/** The mark at the start of every line of a multi-line block: a field's label never starts with it. */
export const BLOCK_MARK = '  | ';

/**
 * A multi-line field as a block: each of its lines escaped and prefixed with BLOCK_MARK, so no line of it can be taken
 * for a field of its own (`to  T…`). Ends with a newline; an empty text is one marked empty line.
 */
export function blockLines(text: string): string {
  return escapeUnsafeText(text)
    .split('\n')
    .map((line) => `${BLOCK_MARK}${line}`.trimEnd())
    .map((line) => `${line}\n`)
    .join('');
}

/**
 * escapeUnsafeText for every string inside a JSON-like value (answers shown by a face); other values are returned
 * unchanged. With `singleLine`, newlines are escaped too (escapeSingleLine).
 */
export function escapeUnsafeDeep<T>(value: T, singleLine = false): T {
  const escape = singleLine ? escapeSingleLine : escapeUnsafeText;
  if (typeof value === 'string') return escape(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => escapeUnsafeDeep(item, singleLine)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value as Record<string, unknown>)) out[escapeSingleLine(key)] = escapeUnsafeDeep(member, singleLine);
    return out as T;
  }
  return value;
}
