// The statement-kind registry: for every StatementKind, its body schema and who may sign it given the chain's standing
// at that row (the roster in force, the desk keys in force and the workstation each belongs to). Invariant: one rule
// per kind, used by both the ChainVerifier (replay, `audit verify`, team join and pull) and the local append path
// (AuditTrail.append, the team's publishDecision), so a row the local path would refuse is refused on replay, named.
import type { StatementKind, Statement } from '../statements/statement';
import { actionRule } from './kinds/action';
import { passphraseRule } from './kinds/passphrase';
import { rosterRules } from './kinds/roster';
import { systemRule } from './kinds/system';
import { withdrawalRules } from './kinds/withdrawal';
import type { ChainRow, ChainStanding, RegisteredKind } from './kind';
import { deskSignerProblem, operatorSignerProblem } from './signers';

export type { ChainRow, ChainStanding, DeskKeyInForce, KindRule, RegisteredKind, SignerRule } from './kind';

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
