// A policy tier's approval groups as people type and read them (issue 20), the same in the CLI and the app: the spec
// `finance+treasury-leads|cfo:2` (OR as |, AND as +, a count after a colon, 1 when left out) and its words; parsing
// only reads the text (the engine's policy schema still judges names and counts), and a spec it cannot read is refused whole.

/** Alternatives (OR) of groups that must all approve (AND), with counts: a policy threshold's `groups`. */
export type TierGroups = readonly (readonly { readonly group: string; readonly count: number }[])[];

/** What a groups spec looks like, for a field's hint and its error. */
export const TIER_GROUPS_SYNTAX = 'GROUP[:COUNT] joined by + (all of them) and | (either), such as finance+treasury-leads|cfo:2';

/** "(1 of finance + 1 of treasury-leads) | 2 of cfo": OR as |, AND as +. '' for none. */
export function tierGroupsText(groups: TierGroups | undefined): string {
  if (groups === undefined || groups.length === 0) return '';
  const alternatives = groups.map((terms) => terms.map((term) => `${term.count} of ${term.group}`).join(' + '));
  return alternatives.map((text, index) => ((groups[index]?.length ?? 0) > 1 && alternatives.length > 1 ? `(${text})` : text)).join(' | ');
}

/** The spec that parses back to these groups: "finance+treasury-leads|cfo:2". '' for none. */
export function tierGroupsSpec(groups: TierGroups | undefined): string {
  if (groups === undefined) return '';
  return groups.map((terms) => terms.map((term) => (term.count === 1 ? term.group : `${term.group}:${term.count}`)).join('+')).join('|');
}

/** A spec read: its groups (undefined for an empty spec: the tier names no groups), or why it cannot be read. */
export function parseTierGroupsSpec(spec: string): { readonly ok: true; readonly groups: TierGroups | undefined } | { readonly ok: false; readonly problem: string } {
  const trimmed = spec.trim();
  if (trimmed === '') return { ok: true, groups: undefined };
  const groups: { group: string; count: number }[][] = [];
  for (const alternative of trimmed.split('|')) {
    const terms: { group: string; count: number }[] = [];
    for (const term of alternative.split('+')) {
      const match = /^([a-z0-9][a-z0-9-]{0,39})(?::([0-9]))?$/.exec(term.trim());
      if (!match?.[1]) {
        return { ok: false, problem: `"${term.trim().slice(0, 60)}" is not a group: write ${TIER_GROUPS_SYNTAX} (group names are lower-case letters, digits and dashes)` };
      }
      terms.push({ group: match[1], count: match[2] === undefined ? 1 : Number(match[2]) });
    }
    groups.push(terms);
  }
  return { ok: true, groups };
}
