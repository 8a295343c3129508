// Names compared as people see them (UTS #39 confusable skeletons, data: the unhomoglyph package, Unicode's
// confusables.txt): `аlice` with a Cyrillic а, `a1ice` and `alice` share a skeleton. The one rule for operator and
// payee names, at proposal (operators/enrolment.ts, address-book/payee-csv.ts) and on replay (ledger/payees.ts).
// Invariant: two names of one kind never share a skeleton (case ignored), so they can always be told apart on a screen.
import unhomoglyph from 'unhomoglyph';

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
