// The statement-kind registry: for every StatementKind, its body schema and who may sign it given the chain's standing
// at that row (the roster in force, the desk keys in force and the workstation each belongs to). Invariant: one rule
// per kind, used by both the ChainVerifier (replay, `audit verify`, team join and pull) and the local append path
// (AuditTrail.append, the team's publishDecision), so a row the local path would refuse is refused on replay, named.
import type { z } from 'zod';
import type { Roster, ChainRow } from '../operators/roster';
import type { StatementKind, Statement } from '../statements/statement';
import { actionRule } from './kinds/action';
import { passphraseRule } from './kinds/passphrase';
import { rosterRules } from './kinds/roster';
import { systemRule } from './kinds/system';
import { withdrawalRules } from './kinds/withdrawal';
import { deskSignerProblem, operatorSignerProblem } from './signers';

export type { ChainRow };

/** A desk key the chain holds in force, and whose workstation it is. */
export interface DeskKeyInForce {
  readonly publicKey: string;
  /** The workstation its `team/workstation` enrolment names; null for this workstation's own key or a key a founding named. */
  readonly workstation: string | null;
  /** This workstation's own desk key. */
  readonly own: boolean;
}

/** What a rule needs to judge a row at its place in the chain: the chain as it stood just before the row. */
export interface ChainStanding {
  /**
   * The roster of the row's profile as it stood just before the row. The roster kinds' rule applies the row to it
   * (Roster.apply is their rule), so after a row that holds it stands just after it.
   */
  roster(): Roster;
  /** The desk key in force with this id (this workstation's own among them), or undefined. */
  deskKey(keyId: string): DeskKeyInForce | undefined;
  /** Who signed the request of `subject` in the row's profile (the operator), when the chain holds one before the row. */
  initiator(subject: string): string | undefined;
  /** The legacy log of before signed approvals, as it is now (the `audit/legacySealed` row must still match it). */
  legacy(): { rows: number; headHash: string };
  /**
   * After the pinned genesis (ledger/trust-roots.ts), why a `found` row may not stand: no profile addition in force
   * names its merchant ID and founders (ledger/pinned-rules.ts). Null before the pin, or when one does.
   */
  foundingRefusal(statement: Statement): string | null;
  /** Whether an admin enrolled a team workstation before the row (a team desk: legacy invitations can no longer be accepted). */
  teamDesk(): boolean;
  /** Whether the row comes after the genesis this workstation pinned (then only pinned and enrolled desk keys are in force). */
  readonly afterPin: boolean;
}

/** Who signs a kind: an active operator, any enrolled operator (disabled too), the roster's own rule, or a desk key. */
export type SignerRule = 'activeOperator' | 'enrolledOperator' | 'roster' | 'desk';

/** The rule of one statement kind, as a kind's file writes it. */
export interface KindRule<Body> {
  readonly signer: SignerRule;
  readonly body: z.ZodType<Body>;
  /** Why the row may not stand (a short reason, the row is named around it), or null. Runs after the signer and body checks. */
  readonly check: (row: ChainRow, body: Body, standing: ChainStanding) => string | null;
}

/** A kind's rule as the registry holds it: the signer, then the body parsed and checked. */
export interface RegisteredKind {
  readonly signer: SignerRule;
  /** Why the row's body or standing refuses it (a short reason), or null. */
  readonly judge: (row: ChainRow, standing: ChainStanding) => string | null;
}

/** Registers a kind's rule: parses the body with its schema, then runs its check on the typed body. */
export function defineKind<Body>(rule: KindRule<Body>): RegisteredKind {
  return {
    signer: rule.signer,
    judge(row, standing) {
      const parsed = rule.body.safeParse(row.statement.body);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');
        return `its body is not what ${row.statement.kind} statements hold (${issues})`;
      }
      return rule.check(row, parsed.data, standing);
    },
  };
}

/** Every kind's rule: a kind without one does not compile. */
export const KIND_RULES: Readonly<Record<StatementKind, RegisteredKind>> = {
  ...withdrawalRules,
  ...rosterRules,
  action: actionRule,
  system: systemRule,
  passphrase: passphraseRule,
};

/** What the row is, for naming it: `approve`, `action labels/set`, `system withdrawals/status`. */
export function rowWhat(statement: Statement): string {
  const action = statement.body['action'];
  return (statement.kind === 'action' || statement.kind === 'system') && typeof action === 'string' ? `${statement.kind} ${action}` : statement.kind;
}

/** The signer's name for a refusal: the operator, or the desk key (and its workstation when known). */
function signerName(statement: Statement, standing: ChainStanding): string {
  if (statement.operator !== null) return statement.operator;
  const workstation = standing.deskKey(statement.keyId)?.workstation;
  return workstation ? `workstation ${workstation}'s desk key` : `desk key ${statement.keyId}`;
}

/**
 * Why a row may not stand at its place in the chain, or null. Pure apart from signature checks, except that a roster
 * kind that holds moves `standing.roster()` past the row (see ChainStanding.roster).
 */
export function refuseRow(row: ChainRow, standing: ChainStanding): string | null {
  const s = row.statement;
  const rule = KIND_RULES[s.kind];
  const signer = rule.signer === 'desk' ? deskSignerProblem(row, standing) : operatorSignerProblem(row, standing, rule.signer);
  if (signer !== null) return signer;
  const named = (reason: string): string => `row ${row.seq} (${rowWhat(s)} by ${signerName(s, standing)}) does not hold: ${reason}`;
  const problem = rule.judge(row, standing);
  return problem === null ? null : named(problem);
}
