// Look-alike helpers for screens that compare addresses: poisoning attacks copy the first and last characters a
// person checks and change the middle, so the UI warns on such pairs and highlights the differing characters.

/** How many characters at each end people usually check. */
export const LOOKALIKE_EDGE = 4;

/** True when `a` and `b` differ but share their first and last LOOKALIKE_EDGE characters. */
export function looksAlike(a: string, b: string): boolean {
  if (a === b) return false;
  if (a.length < LOOKALIKE_EDGE * 2 || b.length < LOOKALIKE_EDGE * 2) return false;
  return a.slice(0, LOOKALIKE_EDGE) === b.slice(0, LOOKALIKE_EDGE) && a.slice(-LOOKALIKE_EDGE) === b.slice(-LOOKALIKE_EDGE);
}

/** Indexes (UTF-16 code units) where the texts differ; positions past the shorter text count as differing. */
export function differingPositions(a: string, b: string): number[] {
  const positions: number[] = [];
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i += 1) if (a[i] !== b[i]) positions.push(i);
  return positions;
}
