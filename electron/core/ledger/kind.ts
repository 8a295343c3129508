// What a statement kind's rule is made of (ledger/kinds/*.ts write one each; registry.ts holds them, one per kind):
// who may sign it, its body's schema, and its check against the chain as it stood just before the row.
import type { z } from 'zod';
import type { Roster, ChainRow } from './roster';
import type { Statement } from '../statements/statement';

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
