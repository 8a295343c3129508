// Character-level helpers shared by the address rules: which characters are out of place and how to name them to a person.

/** The Bitcoin base58 alphabet (used by TRON and Solana): no 0, O, I or l. For diagnosis only; decoding is @scure/base's. */
export const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function isBase58Character(ch: string): boolean {
  return ch.length === 1 && BASE58_ALPHABET.includes(ch);
}

export function isHexCharacter(ch: string): boolean {
  return /^[0-9a-fA-F]$/.test(ch);
}

/** Distinct characters of `text` (by code point, in order of first appearance) that `allowed` rejects. */
export function offendingCharacters(text: string, allowed: (ch: string) => boolean): string[] {
  const seen = new Set<string>();
  for (const ch of text) if (!allowed(ch)) seen.add(ch);
  return [...seen];
}

/** Printable ASCII is quoted as is; anything else (invisible, non-Latin look-alikes) is shown as its code point, e.g. U+200B. */
export function showCharacter(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (code >= 0x21 && code <= 0x7e) return `'${ch}'`;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** "'0'", "'0' and 'O'", "'0', 'O' and U+200B", at most five then "and N more". */
export function listCharacters(chars: readonly string[]): string {
  const shown = chars.slice(0, 5).map(showCharacter);
  const extra = chars.length - shown.length;
  if (extra > 0) return `${shown.join(', ')} and ${extra} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1] ?? ''}`;
}

/** "an Ethereum", "a TRON": the indefinite article a chain's display name takes. */
export function withArticle(name: string): string {
  return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
}

/** "contains 'O', which never appears in a TRON address" (plural-aware). */
export function containsForeignCharacters(chars: readonly string[], where: string): string {
  return `contains ${listCharacters(chars)}, which never ${chars.length === 1 ? 'appears' : 'appear'} in ${where}`;
}
