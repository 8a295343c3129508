// The rules of the roster and policy kinds (found, enrol, rekey, role, disable, policy, accept, confirm,
// withdraw-proposal, book, unbook, profile-add, profile-remove, device, freeze, unfreeze, group, governance, veto, radar-clear, payees): their bodies here, and who may sign them in the Roster itself (ledger/roster.ts),
// which this entry calls rather than copies: applying the row to the roster as it stood is the rule, and a row the
// roster refuses is refused here, naming the roster's reason.
import { z } from 'zod';
import type { RosterKind } from '../../statements/statement';
import type { ChainRow } from '../roster';
import { legacyInvitationProblem } from '../invitation-code';
import { defineKind, type ChainStanding, type RegisteredKind } from '../kind';
import { payeesBody } from '../payees';

const canonicalObject = z.record(z.string(), z.unknown());

export const ROSTER_BODIES = {
  found: z.object({
    admins: z.array(z.object({ name: z.string(), publicKey: z.string() })).min(1).max(2),
    deskKey: z.object({ publicKey: z.string() }).nullable().optional(),
    merchantId: z.string().nullable().optional(),
  }),
  enrol: z.object({ role: z.string(), codeKey: z.string().optional() }),
  rekey: canonicalObject,
  role: z.object({ role: z.string() }),
  disable: canonicalObject,
  policy: z.object({ policy: canonicalObject, carriedOver: z.boolean().optional() }),
  accept: z.object({ proposal: z.string(), publicKey: z.string(), codeProof: z.string().optional() }),
  confirm: z.object({ proposal: z.string(), keyId: z.string().optional() }),
  'withdraw-proposal': z.object({ proposal: z.string() }),
  // `payee`: the id of the payee the address joins (issue 21), when it is added to one.
  book: z.object({ label: z.string().nullable().optional(), payee: z.string().min(1).max(64).optional() }),
  unbook: canonicalObject,
  'profile-add': z.object({ merchantId: z.string().min(1), admins: z.array(z.object({ name: z.string(), publicKey: z.string() })).min(1).max(2) }),
  'profile-remove': canonicalObject,
  device: z.object({ workstation: z.string(), publicKey: z.string(), deskKey: z.string().optional() }),
  freeze: z.object({ reason: z.string().min(1).max(500) }),
  unfreeze: canonicalObject,
  group: z.object({ members: z.array(z.string().min(1).max(100)).max(50) }),
  governance: z.object({ governance: canonicalObject }),
  veto: z.object({ reason: z.string().max(500).optional() }),
  // The book entry the flagged address looks like, as the clearing admin saw it (`chain:address`).
  'radar-clear': z.object({ looksLike: z.string().min(1).max(200) }),
  payees: payeesBody,
} satisfies Record<RosterKind, z.ZodType>;

/** Applies the row to the roster as it stood (the standing's roster moves past it when it holds); its refusal, or null. */
function applyToRoster(row: ChainRow, _body: unknown, standing: ChainStanding): string | null {
  const roster = standing.roster();
  const before = roster.problems.length;
  roster.apply(row);
  return roster.problems[before]?.reason ?? null;
}

function rosterKind(kind: RosterKind): RegisteredKind {
  return defineKind<unknown>({ signer: 'roster', body: ROSTER_BODIES[kind], check: applyToRoster });
}

/** A founding: after the pinned genesis only with a profile addition in force (the pinned roots' rule), then the roster's. */
const foundRule = defineKind<unknown>({
  signer: 'roster',
  body: ROSTER_BODIES.found,
  check: (row, body, standing) => standing.foundingRefusal(row.statement) ?? applyToRoster(row, body, standing),
});

/**
 * An acceptance: on a team desk never of an invitation made before invitations were bound to their code
 * (invitation-code.ts legacyInvitationProblem), then the roster's rule (Roster #accept checks the code proof).
 */
const acceptRule = defineKind<z.infer<typeof ROSTER_BODIES.accept>>({
  signer: 'roster',
  body: ROSTER_BODIES.accept,
  check: (row, body, standing) => (standing.teamDesk() ? legacyInvitationProblem(standing.roster().proposal(body.proposal)) : null) ?? applyToRoster(row, body, standing),
});

export const rosterRules: Readonly<Record<RosterKind, RegisteredKind>> = {
  found: foundRule,
  enrol: rosterKind('enrol'),
  rekey: rosterKind('rekey'),
  role: rosterKind('role'),
  disable: rosterKind('disable'),
  policy: rosterKind('policy'),
  accept: acceptRule,
  confirm: rosterKind('confirm'),
  'withdraw-proposal': rosterKind('withdraw-proposal'),
  book: rosterKind('book'),
  unbook: rosterKind('unbook'),
  'profile-add': rosterKind('profile-add'),
  'profile-remove': rosterKind('profile-remove'),
  device: rosterKind('device'),
  freeze: rosterKind('freeze'),
  unfreeze: rosterKind('unfreeze'),
  group: rosterKind('group'),
  governance: rosterKind('governance'),
  veto: rosterKind('veto'),
  'radar-clear': rosterKind('radar-clear'),
  payees: rosterKind('payees'),
};
