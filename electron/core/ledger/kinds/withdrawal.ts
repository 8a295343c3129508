// The rules of the decisions about a withdrawal or a payout batch (request, approve, reject, cancel, submit): each is
// signed by an active operator whose role has the permission the local path asks for (withdrawals/desk.ts,
// payouts/batch.ts through actingAs), and the initiator rules of the local path hold on replay too: the initiator
// never approves or rejects their own request, and only the initiator or an admin cancels it.
import { z } from 'zod';
import { roleMay, roleWithArticle, type OperatorAction } from '../../auth/roles';
import { isBatchIntent, type BatchIntent } from '../../statements/batch-intent';
import type { WithdrawalKind } from '../../statements/statement';
import type { ChainRow } from '../roster';
import { defineKind, type ChainStanding, type RegisteredKind } from '../kind';

/** A single withdrawal's signed intent (statements/intent.ts WithdrawalIntent). */
export const intentSchema = z.object({
  v: z.number().int(),
  merchantId: z.string(),
  currency: z.string(),
  amount: z.string(),
  toAddress: z.string(),
  withdrawType: z.enum(['normal', 'financialConfirmation']),
  userOrder: z.string().min(1),
  memo: z.string().nullable(),
  requiredApprovals: z.number().int(),
  policy: z.string(),
  requestedAt: z.number().int(),
});

/** What preflight computed for the request and its initiator saw (fee and total debited), shown to approvers (withdrawals/review.ts). */
export const requestQuoteSchema = z.object({ fee: z.string(), totalDebited: z.string() });

/** A request: a single withdrawal's intent, or a payout batch (payouts/batch.ts) with where it came from. */
export const requestBodySchema = z.union([
  z.object({ intent: intentSchema, warnings: z.array(z.string()).optional(), quote: requestQuoteSchema.optional() }),
  z.object({ batch: z.custom<BatchIntent>(isBatchIntent, 'not a payout batch'), source: z.string().optional() }),
]);
export type RequestBody = z.infer<typeof requestBodySchema>;

export const approveBodySchema = z.object({ fingerprint: z.string() });
export const rejectBodySchema = z.object({ fingerprint: z.string(), reason: z.string() });
export const cancelBodySchema = z.object({ fingerprint: z.string(), reason: z.string().nullable() });
/** A batch line's submission names its userOrder; a single withdrawal's does not need to. */
export const submitBodySchema = z.object({ fingerprint: z.string(), userOrder: z.string().optional() });
export type SubmitBody = z.infer<typeof submitBodySchema>;

const PERMISSION: Readonly<Record<WithdrawalKind, OperatorAction>> = {
  request: 'requestWithdrawal',
  approve: 'approveWithdrawal',
  reject: 'rejectWithdrawal',
  cancel: 'cancelWithdrawal',
  submit: 'submitWithdrawal',
};

const VERB: Readonly<Record<WithdrawalKind, string>> = { request: 'request', approve: 'approve', reject: 'reject', cancel: 'cancel', submit: 'submit' };

/** The signer's role as it stood at the row (the signer rule already found them enrolled and active). */
function roleProblem(row: ChainRow, standing: ChainStanding, kind: WithdrawalKind): string | null {
  const operator = row.statement.operator ?? '';
  const role = standing.roster().at(operator, row.seq)?.role;
  if (role === undefined || roleMay(role, PERMISSION[kind])) return null;
  return `${operator} is ${roleWithArticle(role)} and may not ${VERB[kind]} withdrawals`;
}

const same = (a: string | undefined, b: string | null): boolean => a !== undefined && b !== null && a.toLowerCase() === b.toLowerCase();

/** An approval or rejection: the role's permission, and never by the request's own initiator. */
function reviewCheck(kind: 'approve' | 'reject') {
  return (row: ChainRow, _body: unknown, standing: ChainStanding): string | null => {
    const problem = roleProblem(row, standing, kind);
    if (problem) return problem;
    if (same(standing.initiator(row.statement.subject), row.statement.operator)) {
      return `${row.statement.operator ?? ''} made the request and may not ${kind === 'approve' ? 'approve' : 'reject'} it`;
    }
    return null;
  };
}

export const withdrawalRules: Readonly<Record<WithdrawalKind, RegisteredKind>> = {
  request: defineKind({ signer: 'activeOperator', body: requestBodySchema, check: (row, _body, standing) => roleProblem(row, standing, 'request') }),
  approve: defineKind({ signer: 'activeOperator', body: approveBodySchema, check: reviewCheck('approve') }),
  reject: defineKind({ signer: 'activeOperator', body: rejectBodySchema, check: reviewCheck('reject') }),
  cancel: defineKind({
    signer: 'activeOperator',
    body: cancelBodySchema,
    check(row, _body, standing) {
      const problem = roleProblem(row, standing, 'cancel');
      if (problem) return problem;
      const s = row.statement;
      // A request of before signed approvals (`legacy:` subject) has no signed initiator: the role decides, as locally.
      if (s.subject.startsWith('legacy:') || standing.roster().at(s.operator ?? '', row.seq)?.role === 'admin') return null;
      return same(standing.initiator(s.subject), s.operator) ? null : `only the initiator of a request or an admin may cancel it, and ${s.operator ?? ''} is neither`;
    },
  }),
  submit: defineKind({ signer: 'activeOperator', body: submitBodySchema, check: (row, _body, standing) => roleProblem(row, standing, 'submit') }),
};
