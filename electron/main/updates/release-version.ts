// Release versions compared by semver precedence (semver.org §11), for the update check: a release installs only when
// strictly newer than the running app. Invariant: a string that is not x.y.z[-pre][+build] never compares.
const SEMVER = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(?:-((?:0|[1-9]\d{0,8}|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d{0,8}|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

export interface ReleaseVersion {
  readonly core: readonly [number, number, number];
  /** Pre-release identifiers (empty for a release). */
  readonly pre: readonly string[];
}

/** The version's parts, or null when it is not semver (at most 64 characters). */
export function parseReleaseVersion(text: string): ReleaseVersion | null {
  if (text.length > 64) return null;
  const match = SEMVER.exec(text);
  if (match === null) return null;
  return { core: [Number(match[1]), Number(match[2]), Number(match[3])], pre: match[4] === undefined ? [] : match[4].split('.') };
}

function comparePre(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return b.length - a.length; // a release outranks its pre-releases
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    const x = a[index] as string;
    const y = b[index] as string;
    if (x === y) continue;
    const xNumeric = /^\d+$/.test(x);
    const yNumeric = /^\d+$/.test(y);
    if (xNumeric && yNumeric) return Number(x) < Number(y) ? -1 : 1;
    if (xNumeric !== yNumeric) return xNumeric ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return Math.sign(a.length - b.length);
}

/** -1, 0 or 1 as `a` is older than, equal to (build metadata ignored) or newer than `b`; throws on a non-semver. */
export function compareReleaseVersions(a: string, b: string): number {
  const left = parseReleaseVersion(a);
  const right = parseReleaseVersion(b);
  if (left === null || right === null) throw new Error(`not a semver version: ${left === null ? a.slice(0, 64) : b.slice(0, 64)}`);
  for (let index = 0; index < 3; index += 1) {
    const x = left.core[index] as number;
    const y = right.core[index] as number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return Math.sign(comparePre(left.pre, right.pre));
}
