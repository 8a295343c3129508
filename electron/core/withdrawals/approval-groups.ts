// Approval groups in a policy tier and approval expiry (issue 20): "1 of finance AND 1 of treasury-leads, OR 1 of cfo",
// judged from the counted approvals only, and an approval older than the policy's validity no longer counting. Invariant: an approver stands for one group slot at most, and the approvers that meet a
// requirement are themselves independent of the initiator and of each other (the same parties rule as the count);
// a malformed requirement can never be met. Pure: the caller hands in each approver's groups as they stood when the
// approval was signed (ledger Roster.groupsOf at the approval's row).
import { z } from 'zod';
import { parseMoney, type Money } from '../../chains';
import { disjoint } from '../ledger';

/** At least `count` approvals from members of `group`. */
export interface GroupTerm {
  readonly group: string;
  readonly count: number;
}

/** Alternatives (OR) of terms that must all hold (AND): `[[finance:1, treasury-leads:1], [cfo:1]]`. Empty: never met. */
export type GroupRequirement = readonly (readonly GroupTerm[])[];

export const MAX_GROUP_ALTERNATIVES = 4;
export const MAX_GROUP_TERMS = 4;
/** The most approvals one group term may ask for (policy.ts MAX_APPROVALS). */
const MAX_TERM_COUNT = 5;
/** The most alternatives an amount may face once every tier it exceeds is combined. */
export const MAX_COMBINED_ALTERNATIVES = 64;
/** Approvers searched exhaustively (2^16 subsets at most); more verifying approvers than this is not a real desk. */
const MAX_SEARCHED_APPROVERS = 16;

const GROUP_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;
const termSchema = z.strictObject({ group: z.string().regex(GROUP_NAME), count: z.number().int().min(1).max(MAX_TERM_COUNT) });
const requirementSchema = z.array(z.array(termSchema).min(1).max(MAX_GROUP_TERMS)).min(1).max(MAX_GROUP_ALTERNATIVES);

/** A signed policy's group requirement: undefined when it has none, [] (never met) when it is not a readable one. */
export function parseGroupRequirement(value: unknown): GroupRequirement | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = requirementSchema.safeParse(value);
  return parsed.success ? parsed.data : [];
}

/** What is wrong with a tier's group requirement as an admin entered it ([] when usable). */
export function groupRequirementProblems(groups: GroupRequirement | undefined, above: string): string[] {
  if (groups === undefined) return [];
  const where = `the groups of the tier above ${above}`;
  const problems: string[] = [];
  if (groups.length < 1 || groups.length > MAX_GROUP_ALTERNATIVES) problems.push(`${where} need 1 to ${MAX_GROUP_ALTERNATIVES} alternatives`);
  for (const alternative of groups) {
    if (alternative.length < 1 || alternative.length > MAX_GROUP_TERMS) problems.push(`${where}: each alternative names 1 to ${MAX_GROUP_TERMS} groups`);
    const names = alternative.map((term) => term.group);
    if (new Set(names).size !== names.length) problems.push(`${where}: an alternative names a group once (give it a count instead)`);
    for (const term of alternative) {
      if (!GROUP_NAME.test(term.group)) problems.push(`${where}: "${term.group.slice(0, 40)}" is not a group name (lower-case letters, digits and dashes)`);
      if (!Number.isInteger(term.count) || term.count < 1 || term.count > MAX_TERM_COUNT) problems.push(`${where}: a count is a whole number from 1 to ${MAX_TERM_COUNT}`);
    }
  }
  return problems;
}

/** Two AND-terms lists as one: each group needs the larger of the two counts. */
function both(a: readonly GroupTerm[], b: readonly GroupTerm[]): GroupTerm[] {
  const counts = new Map<string, number>();
  for (const term of [...a, ...b]) counts.set(term.group, Math.max(counts.get(term.group) ?? 0, term.count));
  return [...counts].sort(([x], [y]) => x.localeCompare(y)).map(([group, count]) => ({ group, count }));
}

/**
 * The group requirement for `amount`: every tier it exceeds that names groups must be met (a larger amount never
 * needs less), so their alternatives are combined (AND of ORs, spread into alternatives). Null: no tier names groups.
 */
export function groupRequirementFor(thresholds: readonly { readonly above: string; readonly groups?: GroupRequirement | undefined }[], amount: Money): GroupRequirement | null {
  let combined: GroupRequirement | null = null;
  for (const threshold of thresholds) {
    if (threshold.groups === undefined || !amount.greaterThan(parseMoney(threshold.above))) continue;
    const tier: GroupRequirement = threshold.groups;
    combined = combined === null ? tier : combined.flatMap((left) => tier.map((right) => both(left, right)));
    if (combined.length > MAX_COMBINED_ALTERNATIVES) return [];
  }
  return combined;
}

/** How many alternatives the tiers would combine into at most (policyProblems refuses more than the judge searches). */
export function combinedAlternatives(thresholds: readonly { readonly groups?: GroupRequirement | undefined }[]): number {
  return thresholds.reduce((product, threshold) => product * Math.max(1, threshold.groups?.length ?? 1), 1);
}

/** "1 of finance". */
export const termText = (term: GroupTerm): string => `${term.count} of ${term.group}`;

/** "(1 of finance and 1 of treasury-leads) or 1 of cfo"; "a requirement that cannot be read" for []. */
export function groupRequirementText(requirement: GroupRequirement): string {
  if (requirement.length === 0) return 'a group requirement that cannot be read (an admin sets the policy again)';
  const alternatives = requirement.map((alternative) => alternative.map(termText).join(' and '));
  return alternatives.length === 1 ? (alternatives[0] ?? '') : alternatives.map((text, index) => (requirement[index]!.length > 1 ? `(${text})` : text)).join(' or ');
}

/** An approval that counts toward four-eyes, with the groups its approver was in when signing it. */
export interface GroupCandidate {
  readonly name: string;
  readonly party: readonly string[];
  readonly groups: readonly string[];
}

/** The largest number of group slots of `alternative` these approvers fill, one slot each (augmenting paths). */
function filled(alternative: readonly GroupTerm[], approvers: readonly GroupCandidate[]): number[] {
  const slots = alternative.flatMap((term, index) => Array.from({ length: term.count }, () => index));
  const holder: (number | null)[] = slots.map(() => null);
  const place = (approver: number, seen: boolean[]): boolean => {
    for (let slot = 0; slot < slots.length; slot += 1) {
      if (seen[slot] || !approvers[approver]!.groups.includes(alternative[slots[slot]!]!.group)) continue;
      seen[slot] = true;
      const current = holder[slot];
      if (current === null || current === undefined || place(current, seen)) {
        holder[slot] = approver;
        return true;
      }
    }
    return false;
  };
  approvers.forEach((_, approver) => place(approver, slots.map(() => false)));
  const per = alternative.map(() => 0);
  holder.forEach((approver, slot) => {
    if (approver !== null) per[slots[slot]!]! += 1;
  });
  return per;
}

export interface GroupVerdict {
  /** One set of approvers, independent of the initiator and of each other, meets the count and an alternative. */
  readonly met: boolean;
  /** What the closest alternative still lacks (1 of treasury-leads); [] when met, or when only the count lacks. */
  readonly stillNeeded: readonly GroupTerm[];
}

/**
 * Whether the counted approvals meet `requirement` together with `required` (the tier's number): searched over every
 * set of approvers whose parties are disjoint from the initiator's and from each other.
 */
export function judgeGroups(requirement: GroupRequirement, initiatorParty: readonly string[], candidates: readonly GroupCandidate[], required: number): GroupVerdict {
  if (requirement.length === 0) return { met: false, stillNeeded: [] };
  const seen = new Set<string>();
  const eligible = candidates
    .filter((candidate) => disjoint(candidate.party, initiatorParty) && !seen.has(candidate.name.toLowerCase()) && seen.add(candidate.name.toLowerCase()))
    .slice(0, MAX_SEARCHED_APPROVERS);
  let best: { missing: number; size: number; lacking: GroupTerm[] } | null = null;
  const consider = (chosen: readonly GroupCandidate[]): void => {
    for (const alternative of requirement) {
      const per = filled(alternative, chosen);
      const lacking = alternative.flatMap((term, index) => (per[index]! < term.count ? [{ group: term.group, count: term.count - per[index]! }] : []));
      const missing = lacking.reduce((sum, term) => sum + term.count, 0);
      const size = Math.min(chosen.length, required);
      if (best === null || missing < best.missing || (missing === best.missing && size > best.size)) best = { missing, size, lacking };
    }
  };
  // Adding an approver never fills fewer slots, so only sets no other independent approver could join are judged; an
  // approver whose party meets no other approver's is in every such set (with one party each: a single set, judged once).
  const clashes = eligible.map((candidate, index) => eligible.some((other, at) => at !== index && !disjoint(candidate.party, other.party)));
  const met = (): boolean => best !== null && best.missing === 0 && best.size >= required;
  const search = (index: number, chosen: GroupCandidate[], used: readonly string[]): void => {
    if (met()) return;
    if (index === eligible.length) {
      if (eligible.every((candidate) => chosen.includes(candidate) || !disjoint(candidate.party, used))) consider(chosen);
      return;
    }
    const candidate = eligible[index]!;
    const free = disjoint(candidate.party, used);
    if (free) search(index + 1, [...chosen, candidate], [...used, ...candidate.party]);
    if (!free || clashes[index]) search(index + 1, chosen, used);
  };
  search(0, [], []);
  const found = best as { missing: number; size: number; lacking: GroupTerm[] } | null;
  if (found === null) return { met: false, stillNeeded: [] };
  return { met: found.missing === 0 && found.size >= required, stillNeeded: found.lacking };
}

/** The longest an approval may stay valid: 30 days. */
export const MAX_APPROVAL_VALID_HOURS = 720;

/** policyProblems' part for groups and expiry: each tier's requirement, their combination, the validity in hours. */
export function approvalPolicyProblems(policy: {
  readonly thresholds: readonly { readonly above: string; readonly groups?: GroupRequirement | undefined }[];
  readonly approvalValidHours?: number | undefined;
}): string[] {
  const problems = policy.thresholds.flatMap((threshold) => groupRequirementProblems(threshold.groups, threshold.above));
  if (combinedAlternatives(policy.thresholds) > MAX_COMBINED_ALTERNATIVES) {
    problems.push(`the tiers' group alternatives combine into more than ${MAX_COMBINED_ALTERNATIVES}: name fewer alternatives`);
  }
  const hours = policy.approvalValidHours;
  if (hours !== undefined && (!Number.isInteger(hours) || hours < 1 || hours > MAX_APPROVAL_VALID_HOURS)) {
    problems.push(`an approval's validity must be a whole number of hours from 1 to ${MAX_APPROVAL_VALID_HOURS}, or left out (approvals never expire)`);
  }
  return problems;
}

/** A signed policy's `approvalValidHours`: absent, never expire; out of range or unreadable, the shortest (1 h), never longer. */
export function parseApprovalValidHours(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_APPROVAL_VALID_HOURS ? value : 1;
}

const HOUR_MS = 3_600_000;

/**
 * Why an approval signed at `at` no longer counts when judged at `judgedAt` under a validity of `validHours` (null:
 * approvals never expire), or null when it still counts. An approval dated after `judgedAt` is not older than it.
 */
export function approvalExpiry(at: number, judgedAt: number, validHours: number | null): string | null {
  if (validHours === null || judgedAt - at <= validHours * HOUR_MS) return null;
  const hours = Math.floor((judgedAt - at) / HOUR_MS);
  return `expired: signed ${hours} h ago, and the policy counts an approval for ${validHours} h; approve it again`;
}

/** The shorter of two validities (a policy tightened since the request shortens it; one loosened does not lengthen it). */
export function strictestValidity(...hours: readonly (number | undefined)[]): number | null {
  const set = hours.filter((value): value is number => value !== undefined);
  return set.length === 0 ? null : Math.min(...set);
}

/** What the judge adds for the tier's groups: the requirement in words, what it still lacks, and the problem to name. */
export function groupsOutcome(
  thresholds: readonly { readonly above: string; readonly groups?: GroupRequirement | undefined }[],
  amount: Money | null,
  initiatorParty: readonly string[],
  candidates: readonly GroupCandidate[],
  required: number,
): { requirement: string | null; stillNeeded: readonly GroupTerm[]; problem: string | null } {
  const requirement = amount === null ? null : groupRequirementFor(thresholds, amount);
  if (requirement === null) return { requirement: null, stillNeeded: [], problem: null };
  const verdict = judgeGroups(requirement, initiatorParty, candidates, required);
  const text = groupRequirementText(requirement);
  if (verdict.met) return { requirement: text, stillNeeded: [], problem: null };
  const problem =
    verdict.stillNeeded.length > 0
      ? `still needed: ${verdict.stillNeeded.map(termText).join(' and ')} (the tier asks for ${text}, each approver standing for one group)`
      : requirement.length === 0
        ? `the tier asks for ${text}`
        : `no ${required} approvals independent of the initiator and of each other also meet the tier's groups (${text})`;
  return { requirement: text, stillNeeded: verdict.stillNeeded, problem };
}

/** Groups a policy's tiers name that the roster has no members for now: a tier naming one could never be met. */
export function unknownGroupProblems(roster: { groups(): readonly { readonly name: string }[] }, thresholds: readonly { readonly groups?: GroupRequirement | undefined }[]): string[] {
  const known = new Set(roster.groups().map((group) => group.name));
  const named = new Set(thresholds.flatMap((threshold) => (threshold.groups ?? []).flatMap((alternative) => alternative.map((term) => term.group))));
  return [...named]
    .filter((group) => !known.has(group))
    .map((group) => `there is no approval group ${group} with members: create it first (operator group ${group} --members NAMES), then set the policy`);
}

/**
 * Right before a send (send-rules.ts): the groups the policy in force NOW asks for, met by the approvals that count
 * (with their groups when signed)? A hold naming what is missing, or null. A policy tightened after approval holds it.
 */
export function groupsHoldNow(
  thresholds: readonly { readonly above: string; readonly groups?: GroupRequirement | undefined }[],
  amount: Money,
  counted: { readonly initiatorParty: readonly string[]; readonly candidates: readonly GroupCandidate[] },
  required: number,
  policyName: string,
): string | null {
  const outcome = groupsOutcome(thresholds, amount, counted.initiatorParty, counted.candidates, required);
  if (outcome.problem === null) return null;
  const missing = outcome.stillNeeded.length > 0 ? `; still needed: ${outcome.stillNeeded.map(termText).join(' and ')}` : '';
  return `${policyName} asks for approvals from ${outcome.requirement ?? 'its groups'}${missing} (it was approved under an earlier policy): cancel it and request it again, or an admin restores the earlier tiers (policy set)`;
}
