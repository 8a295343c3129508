// A policy tier's approval groups as people type and read them (issue 20), the same in the CLI and the app: the spec
// `finance+treasury-leads|cfo:2` (OR as |, AND as +, a count after a colon, 1 when left out) and its words; parsing
// only reads the text (the engine's policy schema still judges names and counts), and a spec it cannot read is refused whole.
// Words are English here (the CLI); the app gives TierGroupsWords from its catalogue for another language.

/** Alternatives (OR) of groups that must all approve (AND), with counts: a policy threshold's `groups`. */
export type TierGroups = readonly (readonly { readonly group: string; readonly count: number }[])[];

/** What a groups spec looks like, for a field's hint and its error. */
export const TIER_GROUPS_SYNTAX = 'GROUP[:COUNT] joined by + (all of them) and | (either), such as finance+treasury-leads|cfo:2';

/** The words of groups in one language: a term ("2 of cfo"), the spec's syntax, and why a spec cannot be read. */
export interface TierGroupsWords {
  term(values: { readonly count: number; readonly group: string }): string;
  readonly syntax: string;
  notAGroup(values: { readonly term: string; readonly syntax: string }): string;
}

export const ENGLISH_TIER_GROUPS_WORDS: TierGroupsWords = {
  term: (v) => `${v.count} of ${v.group}`,
  syntax: TIER_GROUPS_SYNTAX,
  notAGroup: (v) => `"${v.term}" is not a group: write ${v.syntax} (group names are lower-case letters, digits and dashes)`,
};

/** "(1 of finance + 1 of treasury-leads) | 2 of cfo": OR as |, AND as +. '' for none. */
export function tierGroupsText(groups: TierGroups | undefined, words: TierGroupsWords = ENGLISH_TIER_GROUPS_WORDS): string {
  if (groups === undefined || groups.length === 0) return '';
  const alternatives = groups.map((terms) => terms.map((term) => words.term(term)).join(' + '));
  return alternatives.map((text, index) => ((groups[index]?.length ?? 0) > 1 && alternatives.length > 1 ? `(${text})` : text)).join(' | ');
}

/** The spec that parses back to these groups: "finance+treasury-leads|cfo:2". '' for none. */
export function tierGroupsSpec(groups: TierGroups | undefined): string {
  if (groups === undefined) return '';
  return groups.map((terms) => terms.map((term) => (term.count === 1 ? term.group : `${term.group}:${term.count}`)).join('+')).join('|');
}

/** A spec read: its groups (undefined for an empty spec: the tier names no groups), or why it cannot be read. */
export function parseTierGroupsSpec(
  spec: string,
  words: TierGroupsWords = ENGLISH_TIER_GROUPS_WORDS,
): { readonly ok: true; readonly groups: TierGroups | undefined } | { readonly ok: false; readonly problem: string } {
  const trimmed = spec.trim();
  if (trimmed === '') return { ok: true, groups: undefined };
  const groups: { group: string; count: number }[][] = [];
  for (const alternative of trimmed.split('|')) {
    const terms: { group: string; count: number }[] = [];
    for (const term of alternative.split('+')) {
      const match = /^([a-z0-9][a-z0-9-]{0,39})(?::([0-9]))?$/.exec(term.trim());
      if (!match?.[1]) {
        return { ok: false, problem: words.notAGroup({ term: term.trim().slice(0, 60), syntax: words.syntax }) };
      }
      terms.push({ group: match[1], count: match[2] === undefined ? 1 : Number(match[2]) });
    }
    groups.push(terms);
  }
  return { ok: true, groups };
}
