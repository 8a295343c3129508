// Operator names compared as people see them (UTS #39 confusable skeletons, data: the unhomoglyph package, Unicode's
// confusables.txt): `аlice` with a Cyrillic а, `a1ice` and `alice` share a skeleton, so a new name that looks like an
// operator's is refused, naming that operator. Invariant: two names of one desk never share a skeleton (case ignored),
// so a signed statement's operator can always be told apart on a screen.
import unhomoglyph from 'unhomoglyph';
import { codePointLabel } from '../../contract';

/** The skeleton of UTS #39 (section 4): NFD, each character replaced by its confusables.txt prototype, NFD again. */
export function nameSkeleton(name: string): string {
  return unhomoglyph(name.trim().normalize('NFD')).normalize('NFD');
}

/**
 * The skeletons a name is compared under: as written (so `aIice`, capital I, meets `alice`: confusables map I to l)
 * and lower-cased (names are the same name in any case, so `ALICE` meets `аlice`).
 */
function skeletons(name: string): string[] {
  return [nameSkeleton(name), nameSkeleton(name.toLowerCase())];
}

/** The first of `existing` that `name` can be mistaken for (a shared skeleton, not the same name), or null. */
export function confusableName(name: string, existing: Iterable<string>): string | null {
  const wanted = new Set(skeletons(name));
  const same = name.trim().toLowerCase();
  for (const other of existing) {
    if (other.trim().toLowerCase() === same) continue;
    if (skeletons(other).some((skeleton) => wanted.has(skeleton))) return other;
  }
  return null;
}

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
