// What the signed statements say about a withdrawal request, whatever the state columns say (APPROVALS.md
// "Verification before submission"): the initiator's request statement over an intent identical to what is about to
// be sent, approvals from the policy's number of parties independent of the initiator's and of each other, each
// approver enrolled before the request and active when signing, no verifying rejection or cancel, and (to send) a
// submit statement by an operator with the submit permission. Before anything is sent the whole chain's linkage and
// this workstation's keychain anchor are checked too, so rows deleted from the middle or the end are noticed.
import type { ApprovalView, WithdrawalVerification } from '../../contract';
import { type CurrencySymbol, type Money, parseMoney } from '../../chains';
import {
  batchFingerprint,
  type BatchIntent,
  batchIntentHash,
  batchLineByUserOrder,
  type ChainRow,
  countIndependentApprovals,
  DEFAULT_POLICY_REFERENCE,
  disjoint,
  encodeCanonical,
  intentHash,
  isBatchIntent,
  type OperatorAction,
  parseStatement,
  roleMay,
  signatureHolds,
  type Roster,
  snapshotKey,
  type StatementBody,
  type WithdrawalIntent,
} from '../ledger';
import { anchorStandingProblem, type AuditRecorder, auditRowsBySubject } from '../audit';
import type { Kernel } from '../kernel/kernel';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import { type WithdrawalRequest } from './withdrawals-table';
import { DEFAULT_WITHDRAWAL_POLICY, policyProblems, requiredApprovals, unusualAmountProblems, type UnusualAmountRule, type WithdrawalPolicy } from './policy';
import { approvalExpiry, type GroupCandidate, type GroupTerm, groupsOutcome, parseApprovalValidHours, parseGroupRequirement, strictestValidity } from './approval-groups';
import { velocityRulesFromStatement } from './velocity';
import { z } from 'zod';

/** The parts of the desk this file's functions use (each its module's interface, built by that module; the engine passes them together: engine.ts deskParts). */
type DeskParts = Kernel & AuditRecorder & ProfileSelection & MerchantConnection;

export interface IntentEvidence {
  readonly verification: WithdrawalVerification;
  /** The signed intent, when the request statement verified. */
  readonly intent: WithdrawalIntent | null;
  readonly initiator: string | null;
  readonly approvals: readonly ApprovalView[];
  /** A verifying submit statement exists. */
  readonly submitted: boolean;
  /** Who signed the first verifying submit statement, and when (what the timeline shows as "Sent to the service"). */
  readonly sentBy: { readonly operator: string; readonly at: number } | null;
  /** The verifying request statement's row (its body may carry the preflight's quote: review.ts). */
  readonly requestRow: ChainRow | null;
  /** The tier's approval groups in words, or null when it names none (approval-groups.ts). */
  readonly groupRequirement: string | null;
  /** What the closest alternative of the groups still lacks (1 of treasury-leads); [] when met or none asked. */
  readonly groupsStillNeeded: readonly GroupTerm[];
  /** How many hours an approval counts, or null: approvals never expire. */
  readonly approvalValidHours: number | null;
  /** The initiator's party and the approvals that count with their groups when signed (what a policy now is judged by). */
  readonly counted: { readonly initiatorParty: readonly string[]; readonly candidates: readonly GroupCandidate[] };
}

/** The intent the request's columns describe, with the non-wire fields taken from the signed one. */
export function intentFromColumns(request: WithdrawalRequest, merchantId: string, signed: WithdrawalIntent): WithdrawalIntent {
  return {
    v: signed.v,
    merchantId,
    currency: request.currency,
    amount: request.amount,
    toAddress: request.toAddress,
    withdrawType: request.withdrawType as WithdrawalIntent['withdrawType'],
    userOrder: request.userOrder,
    memo: request.memo,
    requiredApprovals: signed.requiredApprovals,
    policy: signed.policy,
    requestedAt: signed.requestedAt,
  };
}

/** The fields where the request's columns (what would be sent, and what the faces show) differ from the signed intent. */
export function alteredFields(request: WithdrawalRequest, merchantId: string, signed: WithdrawalIntent): string[] {
  const described = intentFromColumns(request, merchantId, signed);
  if (encodeCanonical(described) === encodeCanonical(signed)) return [];
  const changed = (['merchantId', 'currency', 'amount', 'toAddress', 'withdrawType', 'userOrder', 'memo'] as const).filter(
    (field) => encodeCanonical(described[field]) !== encodeCanonical(signed[field]),
  );
  return changed.length > 0 ? changed : ['the intent'];
}

/**
 * The subject a request's decisions are signed under: its batch intent's hash for a line of a batch payout (the batch
 * is approved as a whole), else its own intent's hash.
 */
export function decisionSubject(request: WithdrawalRequest): string | null {
  return request.batchHash ?? request.intentHash;
}

/** Hashes of batch intents parsed from statement rows: a batch's lines judged over the same parsed rows hash it once. */
const parsedBatchHashes = new WeakMap<BatchIntent, string>();

function hashOfParsedBatch(batch: BatchIntent): string {
  let hash = parsedBatchHashes.get(batch);
  if (hash === undefined) parsedBatchHashes.set(batch, (hash = batchIntentHash(batch)));
  return hash;
}

/**
 * The intent a request statement signed for this request: the statement's own intent, or, for a batch payout line,
 * the batch's line that sends the request's userOrder. A string says why there is none.
 */
function signedIntentFor(request: WithdrawalRequest, subject: string, body: StatementBody): WithdrawalIntent | string {
  if (request.batchHash !== null) {
    const batch = body['batch'];
    if (!isBatchIntent(batch)) return 'the batch request statement carries no batch intent';
    if (subject !== hashOfParsedBatch(batch)) return 'the batch request statement is not about the batch it carries';
    const line = batchLineByUserOrder(batch, request.userOrder);
    return line === null ? `batch ${batchFingerprint(batch)} signed no line with userOrder ${request.userOrder}: the line was altered after it was made` : line.intent;
  }
  const signed = body['intent'] as unknown as WithdrawalIntent | undefined;
  if (!signed || typeof signed !== 'object') return 'the request statement carries no intent';
  if (subject !== intentHash(signed)) return 'the request statement is not about the intent it carries';
  return signed;
}

export function parsedRows(rows: readonly { seq: number; hash: string; statement: string; signature: string }[]): ChainRow[] {
  return rows.flatMap((row) => {
    const statement = parseStatement(row.statement);
    return statement ? [{ seq: row.seq, hash: row.hash, text: row.statement, signature: row.signature, statement }] : [];
  });
}

const unusualAmountSchema = z.strictObject({ factor: z.string(), firstPayment: z.boolean() });

/** A signed policy's unusual-amount rule, only when usable (policies/set refuses any other before it is signed). */
function unusualAmountFromStatement(value: unknown): { unusualAmount?: UnusualAmountRule } {
  const parsed = unusualAmountSchema.safeParse(value);
  return parsed.success && unusualAmountProblems(parsed.data).length === 0 ? { unusualAmount: parsed.data } : {};
}

export function policyFromStatement(value: unknown): WithdrawalPolicy {
  const policy = value as Partial<WithdrawalPolicy> | null;
  if (!policy || !Array.isArray(policy.thresholds)) return DEFAULT_WITHDRAWAL_POLICY;
  const wait = policy.newDestinationWaitHours;
  const validHours = parseApprovalValidHours(policy.approvalValidHours);
  return {
    thresholds: policy.thresholds.map((threshold) => {
      const groups = parseGroupRequirement(threshold.groups);
      return groups === undefined ? threshold : { ...threshold, groups };
    }),
    dailyLimit: policy.dailyLimit ?? null,
    useFinancialConfirmation: policy.useFinancialConfirmation === true,
    onlyFromBook: policy.onlyFromBook === true,
    newDestinationWaitHours: typeof wait === 'number' && Number.isInteger(wait) && wait > 0 ? wait : 0,
    ...(validHours === undefined ? {} : { approvalValidHours: validHours }),
    ...velocityRulesFromStatement(policy),
    ...unusualAmountFromStatement(policy.unusualAmount),
    ...(typeof policy.provenControlAbove === 'string' && policyProblems({ ...DEFAULT_WITHDRAWAL_POLICY, provenControlAbove: policy.provenControlAbove }).length === 0 ? { provenControlAbove: policy.provenControlAbove } : {}),
  };
}

/**
 * The policy in force for a currency at `now` (the caller's clock: a loosening waits for its delay), from the signed
 * roster (DEFAULT_WITHDRAWAL_POLICY when never set), and its reference.
 */
export function policyInForce(roster: Roster, currency: CurrencySymbol, now: number): { policy: WithdrawalPolicy; reference: string } {
  const signed = roster.policyAt(currency, Number.POSITIVE_INFINITY, now);
  return signed ? { policy: policyFromStatement(signed.policy), reference: signed.id } : { policy: DEFAULT_WITHDRAWAL_POLICY, reference: DEFAULT_POLICY_REFERENCE };
}

/** Who signed a row, if their key at that row made the signature and they were active then; else why not. */
export function signer(roster: Roster, row: ChainRow, action: OperatorAction): { name: string; party: readonly string[] } | string {
  const name = row.statement.operator;
  if (name === null) return `row ${row.seq} is not signed by an operator`;
  const snapshot = roster.at(name, row.seq);
  if (!snapshot) return `row ${row.seq} is signed by ${name}, who was not enrolled then`;
  const signingKey = snapshotKey(snapshot, row.statement.keyId);
  if (signingKey === null) return `row ${row.seq} is not signed with ${name}'s key`;
  if (!signatureHolds(signingKey, row)) return `row ${row.seq} (${row.statement.kind} by ${name}) does not verify: it was altered`;
  if (snapshot.status !== 'active') return `row ${row.seq} is signed by ${name} after they were disabled`;
  if (!roleMay(snapshot.role, action)) return `row ${row.seq}: ${name} was ${snapshot.role} and could not ${row.statement.kind} then`;
  return { name: roster.operator(name)?.name ?? name, party: snapshot.party };
}

/**
 * Judges a request from its statements. `rows` are the profile's rows whose statement subject is the intent hash
 * (from the linkage walk when sending; from the subject index for a view). `merchantId` is the one the order would
 * be sent under. `now` is the desk's clock: approvals expire against it, or against the verifying submit statement's
 * time once the request was sent (so a sent request's approvals stay as they were when it was sent).
 */
export function judgeRequest(roster: Roster, request: WithdrawalRequest, rows: readonly ChainRow[], merchantId: string, now: number): IntentEvidence {
  const problems: string[] = [];
  const none = (problem: string): IntentEvidence => ({
    verification: { ok: false, countedApprovals: 0, requiredApprovals: request.requiredApprovals, problems: [problem] },
    intent: null,
    initiator: null,
    approvals: [],
    submitted: false,
    sentBy: null,
    requestRow: null,
    groupRequirement: null,
    groupsStillNeeded: [],
    approvalValidHours: null,
    counted: { initiatorParty: [], candidates: [] },
  });
  const subject = decisionSubject(request);
  if (subject === null || request.intentHash === null || request.intentJson === null) {
    return none('this request was made before signed approvals: it can never be submitted; cancel it and request the withdrawal again');
  }
  // A view finds rows by their subject column; only rows whose signed statement is about this intent are evidence.
  const own: ChainRow[] = [];
  for (const row of rows) {
    if (row.statement.subject === subject && row.statement.profile === request.profile) own.push(row);
    else problems.push(`row ${row.seq} is filed under this request, but its signed statement is about another: the audit log was altered`);
  }
  const requestRow = own.find((row) => row.statement.kind === 'request');
  if (!requestRow) return none('no signed request statement exists for this request: it was not made on this desk, or its statement was removed');
  const initiator = signer(roster, requestRow, 'requestWithdrawal');
  if (typeof initiator === 'string') return none(`the request statement does not hold: ${initiator}`);
  const signed = signedIntentFor(request, requestRow.statement.subject, requestRow.statement.body);
  if (typeof signed === 'string') return none(signed);
  const altered = alteredFields(request, merchantId, signed);
  if (altered.length > 0) problems.push(`what would be sent differs from what ${initiator.name} signed (${altered.join(', ')}): the request was altered after it was made`);
  const policy = roster.policyAt(signed.currency, requestRow.seq, requestRow.statement.at);
  const policyReference = policy?.id ?? DEFAULT_POLICY_REFERENCE;
  if (signed.policy !== policyReference) problems.push('the request cites a policy that was not the one in force when it was made');
  const rules = policy ? policyFromStatement(policy.policy) : DEFAULT_WITHDRAWAL_POLICY;
  let amountRequired = 1;
  let amount: Money | null = null;
  try {
    amount = parseMoney(signed.amount);
    amountRequired = requiredApprovals(rules, amount);
  } catch {
    problems.push('the signed amount is not a decimal amount');
  }
  const required = Math.max(signed.requiredApprovals, amountRequired);
  // Approvals expire against the send (its verifying submit statement) once sent, else now, under the stricter of the
  // request's policy and the one in force then (approval-groups.ts).
  const sent = own.find(
    (row) => row.statement.kind === 'submit' && row.seq > requestRow.seq && (request.batchHash === null || row.statement.body['userOrder'] === request.userOrder) && typeof signer(roster, row, 'submitWithdrawal') !== 'string',
  );
  const judgedAt = sent?.statement.at ?? now;
  const laterPolicy = roster.policyAt(signed.currency, sent?.seq);
  const validHours = strictestValidity(rules.approvalValidHours, laterPolicy ? policyFromStatement(laterPolicy.policy).approvalValidHours : undefined);
  const candidates: GroupCandidate[] = [];
  const expired: string[] = [];

  const approvals: ApprovalView[] = [];
  const parties: (readonly string[])[] = [];
  let submitted = false;
  let sentBy: IntentEvidence['sentBy'] = null;
  for (const row of own) {
    // A batch's lines share its statements, but each line is sent on its own submit statement (naming its userOrder).
    if (row.statement.kind === 'submit' && request.batchHash !== null && row.statement.body['userOrder'] !== request.userOrder) continue;
    if (row.seq <= requestRow.seq && row !== requestRow && row.statement.kind !== 'request') {
      problems.push(`row ${row.seq} decides on the request before it was made`);
      continue;
    }
    switch (row.statement.kind) {
      case 'approve': {
        const who = signer(roster, row, 'approveWithdrawal');
        if (typeof who === 'string') {
          problems.push(who);
          break;
        }
        const enrolled = roster.enrolledAt(who.name);
        let note: string | null = null;
        if (who.name.toLowerCase() === initiator.name.toLowerCase()) note = 'the initiator cannot approve their own request';
        else if (enrolled === undefined || enrolled >= requestRow.seq) note = `${who.name} was enrolled after the request was made`;
        else if (!disjoint(who.party, initiator.party)) note = `${who.name} counts as ${initiator.name}'s party (enrolled by one admin alone)`;
        const expiry = note === null ? approvalExpiry(row.statement.at, judgedAt, validHours) : null;
        if (expiry !== null) {
          note = expiry;
          expired.push(who.name);
        }
        if (note === null) {
          parties.push(who.party);
          candidates.push({ name: who.name, party: who.party, groups: roster.groupsOf(who.name, row.seq, row.statement.at) });
        }
        approvals.push({ operator: who.name, decision: 'approve', reason: null, at: row.statement.at, counts: note === null, note, expired: expiry !== null });
        break;
      }
      case 'reject': {
        const who = signer(roster, row, 'rejectWithdrawal');
        if (typeof who === 'string') problems.push(who);
        else {
          const reason = typeof row.statement.body['reason'] === 'string' ? row.statement.body['reason'] : null;
          approvals.push({ operator: who.name, decision: 'reject', reason, at: row.statement.at, counts: false, note: null, expired: false });
          problems.push(`${who.name} rejected it${reason ? `: ${reason}` : ''}`);
        }
        break;
      }
      case 'cancel': {
        // Any operator's verifying cancel blocks sending (a veto never moves money); the desk lets only the initiator or an admin cancel.
        const who = signer(roster, row, 'view');
        problems.push(typeof who === 'string' ? who : `${who.name} cancelled it`);
        break;
      }
      case 'submit': {
        const who = signer(roster, row, 'submitWithdrawal');
        if (typeof who === 'string') problems.push(who);
        else {
          submitted = true;
          sentBy ??= { operator: who.name, at: row.statement.at };
        }
        break;
      }
      case 'request':
        if (row !== requestRow) problems.push(`row ${row.seq} is a second request statement for the same intent`);
        break;
      default:
        break;
    }
  }
  const counted = countIndependentApprovals(initiator.party, parties);
  if (counted < required) {
    problems.push(
      counted === 0 && approvals.length === 0
        ? `waiting for ${required} approval${required === 1 ? '' : 's'} from operators independent of ${initiator.name}`
        : `${counted} of ${required} required approvals come from parties independent of ${initiator.name} and of each other`,
    );
  }
  const groups = groupsOutcome(rules.thresholds, amount, initiator.party, candidates, required);
  if (groups.problem !== null) problems.push(groups.problem);
  if (expired.length > 0 && (counted < required || groups.problem !== null)) {
    const names = [...new Set(expired)];
    problems.push(`the approval${expired.length === 1 ? '' : 's'} of ${names.join(', ')} expired (the policy counts an approval for ${validHours ?? 0} h): approve it again`);
  }
  return {
    verification: { ok: problems.length === 0, countedApprovals: counted, requiredApprovals: required, problems },
    intent: signed,
    initiator: initiator.name,
    approvals,
    submitted,
    sentBy,
    requestRow,
    groupRequirement: groups.requirement,
    groupsStillNeeded: groups.stillNeeded,
    approvalValidHours: validHours,
    counted: { initiatorParty: initiator.party, candidates },
  };
}

/** The rows a view judges `request` by: its decision subject's statements from the subject index, parsed (no chain walk). */
export function viewRowsFor(context: DeskParts, request: WithdrawalRequest): ChainRow[] {
  const subject = decisionSubject(request);
  return subject === null ? [] : parsedRows(auditRowsBySubject(context.db, request.profile, subject));
}

/**
 * For one view call over many requests (a list page): `viewRowsFor`, with the rows of each batch payout read and parsed
 * once for all its lines (they share the batch hash as their decision subject); a single request's rows are its own.
 */
export function sharedViewRows(context: DeskParts): (request: WithdrawalRequest) => ChainRow[] {
  const byBatch = new Map<string, ChainRow[]>();
  return (request) => {
    if (request.batchHash === null) return viewRowsFor(context, request);
    const key = `${request.profile}\n${request.batchHash}`;
    let rows = byBatch.get(key);
    if (rows === undefined) byBatch.set(key, (rows = viewRowsFor(context, request)));
    return rows;
  };
}

/** For views: the request judged from its statements; requests sharing a subject (a batch's lines) may share `rows`, read once. */
export function judgeForView(context: DeskParts, roster: Roster, request: WithdrawalRequest, rows: readonly ChainRow[] = viewRowsFor(context, request)): IntentEvidence {
  return judgeRequest(roster, request, rows, context.activeProfile().merchantId, context.now());
}

/**
 * Before anything is sent: the chain's linkage from row 1 to the head, this workstation's anchor, then the judgement
 * from the statements found by that walk (not by a column an editor could change), under the keychain's merchant ID.
 */
export async function judgeForSending(context: DeskParts, request: WithdrawalRequest): Promise<IntentEvidence & { readonly chainProblem: string | null; readonly roster: Roster }> {
  const anchor = await context.trail.anchorProblem();
  const standing = await anchorStandingProblem(context.db, context.trail);
  const profile = request.profile;
  const merchantId = (await context.keys()).merchantId;
  const subject = decisionSubject(request);
  const walk = context.trail.linkage(subject === null ? undefined : { profile, subject });
  const roster = context.trail.roster(profile);
  const evidence = judgeRequest(roster, request, walk.collected, merchantId, context.now());
  const chainProblem = walk.problem?.reason ?? anchor?.reason ?? standing ?? (roster.problems[0] ? `roster row ${roster.problems[0].seq} does not hold: ${roster.problems[0].reason}` : null);
  return { ...evidence, chainProblem, roster };
}
