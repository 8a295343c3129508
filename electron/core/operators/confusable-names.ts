// The operator-name look-alike refusal in words (the rule is ledger/confusable-names.ts): names the code points where a
// name leaves ASCII, so `аlice` (Cyrillic а) is seen for what it is beside `alice`.
import { codePointLabel } from '../../contract';

/** Where a name leaves ASCII: `U+0430 at position 1`, so a look-alike can be seen for what it is. */
function nonAscii(name: string): string {
  const found = Array.from(name)
    .map((character, index) => ({ codePoint: character.codePointAt(0) ?? 0, position: index + 1 }))
    .filter((entry) => entry.codePoint > 0x7e)
    .slice(0, 3)
    .map((entry) => `${codePointLabel(entry.codePoint)} at position ${entry.position}`);
  return found.length === 0 ? '' : ` (${found.join(', ')})`;
}

/** Why `name` is refused beside `other`, for people. */
export function confusableNameProblem(name: string, other: string): string {
  return `the name ${name}${nonAscii(name)} looks like the operator ${other}${nonAscii(other)}: their letters are Unicode look-alikes (UTS #39); choose a name nobody can mistake for theirs`;
}
