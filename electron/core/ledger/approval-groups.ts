// Approval groups of the signed roster (issue 20): a named set of operators ("finance", "treasury-leads") that a policy
// tier can require approvals from. A group is changed only by a four-eyes `group` roster proposal that replaces its
// member list whole (an empty list dissolves it); its history is kept by seq so a judge can ask who was in a group when
// an approval was signed. Invariant: every member named was an active operator when the change was proposed and when it
// took effect; nothing here reads a table.
import type { CanonicalValue } from '../statements/canonical';

/** A group's name: lower-case letters, digits and dashes, starting with a letter or digit, at most 40 characters. */
export const GROUP_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;
/** The most members one group may have. */
export const MAX_GROUP_MEMBERS = 50;

/** A group's members from `fromSeq` on (lower-case operator names, sorted), in force from `effectiveAt` (a widening waits). */
interface GroupVersion {
  readonly id: string;
  readonly fromSeq: number;
  readonly effectiveAt: number;
  readonly members: readonly string[];
}

/** Why a `group` body does not name a usable member list, or the list (lower-case, sorted, no duplicates). */
export function groupMembersOf(subject: string, body: Readonly<Record<string, CanonicalValue>>): readonly string[] | string {
  if (!GROUP_NAME.test(subject)) return `"${subject.slice(0, 40)}" is not a group name: lower-case letters, digits and dashes, at most 40`;
  const members = body['members'];
  if (!Array.isArray(members) || members.some((member) => typeof member !== 'string' || member === '')) return 'a group change names its members as a list of operator names';
  if (members.length > MAX_GROUP_MEMBERS) return `a group has at most ${MAX_GROUP_MEMBERS} members`;
  const lowered = (members as string[]).map((member) => member.toLowerCase());
  if (new Set(lowered).size !== lowered.length) return 'a group names each member once';
  return [...lowered].sort();
}

/** The groups of one profile's roster, by seq. */
export class GroupHistory {
  readonly #groups = new Map<string, GroupVersion[]>();

  /**
   * Puts a member list in force for `name` from row `seq` on, from `effectiveAt` (ms; a widening waits for the
   * loosening delay: ledger/loosening.ts); an empty list dissolves the group. `id` is the proposal's, for a veto.
   */
  set(name: string, members: readonly string[], seq: number, effectiveAt: number, id: string): void {
    const versions = this.#groups.get(name) ?? [];
    versions.push({ id, fromSeq: seq, effectiveAt, members });
    this.#groups.set(name, versions);
  }

  /** Drops a vetoed change: it never takes effect. */
  veto(name: string, id: string): void {
    const versions = this.#groups.get(name);
    if (versions) this.#groups.set(name, versions.filter((version) => version.id !== id));
  }

  /** The members of `name` just before row `seq` (Infinity: now) by the clock `at` (ms); [] when it has none then. */
  members(name: string, seq: number, at: number): readonly string[] {
    let found: readonly string[] = [];
    for (const version of this.#groups.get(name) ?? []) {
      if (version.fromSeq >= seq) break;
      if (version.effectiveAt <= at) found = version.members;
    }
    return found;
  }

  /** Every group with members just before `seq` by the clock `at`, by name, sorted. */
  all(seq: number, at: number): { name: string; members: readonly string[] }[] {
    return [...this.#groups.keys()]
      .sort()
      .map((name) => ({ name, members: this.members(name, seq, at) }))
      .filter((group) => group.members.length > 0);
  }

  /** The groups `operator` belonged to just before `seq` by the clock `at`. */
  of(operator: string, seq: number, at: number): string[] {
    const lower = operator.toLowerCase();
    return this.all(seq, at)
      .filter((group) => group.members.includes(lower))
      .map((group) => group.name);
  }
}
