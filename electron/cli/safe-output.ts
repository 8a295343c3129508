// The CLI's one chokepoint for output: every byte the commands write to stdout, stderr or a prompt passes through
// safeIo, so no control or text-direction character (contract/display-text) ever reaches a terminal raw. Text for
// people gets visible marks (ESC as ⟨U+001B⟩); JSON gets escapes such as \u001b instead, so it stays valid and parses back to the
// exact original strings. Newlines are kept; tabs and carriage returns are escaped like every other control.
import { escapeUnsafeText, UNSAFE_TEXT_CLASS } from '../contract';
import type { CliIo } from './io';

const UNSAFE_IN_JSON = new RegExp(UNSAFE_TEXT_CLASS, 'gu');
const UNSAFE_ONE = new RegExp(`^${UNSAFE_TEXT_CLASS}$`, 'u');

/** `\u202e`: the JSON escape of one UTF-16 code unit. */
function jsonEscape(character: string): string {
  return `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
}

/**
 * JSON.stringify, then every unsafe character written as a JSON escape (\u202e for U+202E). JSON.stringify already escapes C0 but
 * leaves DEL, C1 and the bidi controls raw; in its output those can only stand inside string literals, where the
 * escape means exactly the same character, so the text parses back to the same value.
 */
export function jsonText(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(UNSAFE_IN_JSON, jsonEscape);
}

/**
 * A JSON document exactly as received (e.g. decrypted plaintext), made safe to print without re-serialising it
 * (numbers and key order stay as they are): unsafe characters inside strings become JSON escapes such as \u001b (the same JSON value);
 * between tokens the only legal ones are tab and carriage return, which become a space (CR before LF is dropped).
 */
export function safeJsonDocument(text: string): string {
  let out = '';
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text.charAt(index);
    if (inString) {
      if (character === '\\') {
        // An escape: the backslash and the character it escapes are copied as they are (both plain ASCII in JSON).
        out += character + text.charAt(index + 1);
        index += 1;
        continue;
      }
      if (character === '"') inString = false;
      out += UNSAFE_ONE.test(character) ? jsonEscape(character) : character;
      continue;
    }
    if (character === '"') inString = true;
    if (character === '\r') out += text.charAt(index + 1) === '\n' ? '' : ' ';
    else if (character === '\t') out += ' ';
    else out += escapeUnsafeText(character);
  }
  return out;
}

const SAFE = new WeakSet<CliIo>();

/**
 * The same io with every write escaped (ESC as ⟨U+001B⟩): stdout, stderr and prompt questions. Escaping is idempotent (an
 * escaped text has nothing left to escape), so JSON made by jsonText passes through unchanged.
 */
export function safeIo(io: CliIo): CliIo {
  if (SAFE.has(io)) return io;
  const { prompt, untilStopped } = io;
  const safe: CliIo = {
    stdin: () => io.stdin(),
    stdout: (text) => io.stdout(escapeUnsafeText(text)),
    stderr: (text) => io.stderr(escapeUnsafeText(text)),
    get env() {
      return io.env;
    },
    get stdinIsTTY() {
      return io.stdinIsTTY;
    },
    get stderrIsTTY() {
      return io.stderrIsTTY;
    },
    ...(prompt === undefined ? {} : { prompt: (question: string, options: Parameters<typeof prompt>[1]) => prompt(escapeUnsafeText(question), options) }),
    ...(untilStopped === undefined ? {} : { untilStopped: () => untilStopped() }),
  };
  SAFE.add(safe);
  return safe;
}
