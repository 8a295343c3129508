// A tier's groups as typed and read (contract/tier-groups), shared by the CLI and the app's policy editor: the spec
// parses to OR of ANDs with counts, prints back to the same spec, and text that is not a group is refused, naming it.
import { describe, expect, it } from 'vitest';
import { parseTierGroupsSpec, tierGroupsSpec, tierGroupsText } from '../../../electron/contract/tier-groups';

describe('tier groups spec', () => {
  it('reads OR of ANDs with counts, spaces allowed, and prints the same spec back', () => {
    const parsed = parseTierGroupsSpec(' finance + treasury-leads | cfo:2 ');
    expect(parsed).toEqual({ ok: true, groups: [[{ group: 'finance', count: 1 }, { group: 'treasury-leads', count: 1 }], [{ group: 'cfo', count: 2 }]] });
    if (!parsed.ok) return;
    expect(tierGroupsSpec(parsed.groups)).toBe('finance+treasury-leads|cfo:2');
    expect(tierGroupsText(parsed.groups)).toBe('(1 of finance + 1 of treasury-leads) | 2 of cfo');
  });

  it('an empty spec names no groups', () => {
    expect(parseTierGroupsSpec('  ')).toEqual({ ok: true, groups: undefined });
    expect(tierGroupsSpec(undefined)).toBe('');
  });

  it.each(['Finance', 'finance+', 'finance||cfo', 'cfo:x', 'cfo:12', '-leads'])('refuses %j, naming the part it cannot read', (spec) => {
    const parsed = parseTierGroupsSpec(spec);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toMatch(/is not a group: write GROUP\[:COUNT\]/);
  });
});
