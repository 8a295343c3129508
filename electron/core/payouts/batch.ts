// Batch payouts (issue 13, docs/payouts.md): import a CSV → preflight every line with the single withdrawal's
// preflight → one batch intent signed by the initiator → approvals of the whole batch → submission line by line
// through the single withdrawal's submit path → status and results export. Every line is an ordinary withdrawal
// request whose decisions are signed under the batch intent's hash (withdrawals/verify.ts judges it from the batch's
// statements). Invariants: a file with any bad line stores nothing; each line is sent exactly once, under the userOrder
// signed in the batch intent, and a resumed submission re-checks unsent-or-unknown lines with checkWithdrawOrder
// (desk.ts), never minting a new userOrder; a line whose row no longer matches the signed intent is not sent.
import { basename } from 'node:path';
import {
  CURRENCIES,
  differingPositions,
  formatMoney,
  isCurrencySymbol,
  looksAlike,
  Money,
  parseMoney,
  type CurrencySymbol,
} from '../../chains';
import {
  isInFlight,
  PAYOUT_EXPORT_COLUMNS,
  PAYOUT_SENDABLE_STATES,
  type PayoutBatchState,
  type PayoutBatchSummary,
  type PayoutBatchView,
  type PayoutFlagView,
  type PayoutLineView,
  type PayoutPolicyView,
  type PayoutSubmitResult,
  statesAllowing,
  WITHDRAWAL_STATE_TRAITS,
  type WithdrawalState,
} from '../../contract';
import { computeFee, feeScheduleOf } from '../../protocol';
import type { Kernel } from '../kernel/kernel';
import { type AuditRecorder, auditRowsBySubject } from '../audit';
import { payeeNameOf } from '../address-book';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import { DeskError } from '../kernel/errors';
import { csvLine } from '../export/csv';
import { writeFileAtomically } from '../files/named-files';
import { FileReadError, readRegularTextFile } from '../files/bounded-read';
import { actingAs, type ActingOperator, type OperatorCredentials } from '../operators';
import {
  type BatchCurrencyTotal,
  batchFingerprint,
  type BatchFlag,
  type BatchIntent,
  batchIntentHash,
  type ChainRow,
  derivedUserOrder,
  encodeBatchIntent,
  encodeCanonical,
  isBatchIntent,
  parseStatement,
  type Roster,
  type StatementBody,
  type WithdrawalIntent,
} from '../ledger';
import { getCurrency } from '../merchant';
import {
  addPayoutLine,
  alteredFields,
  batchLineApproved,
  batchLineClosed,
  createPayoutBatch,
  getPayoutBatch,
  getWithdrawalRequest,
  getWithdrawalRequestByUserOrder,
  type IntentEvidence,
  judgeForView,
  listPayoutBatches,
  listPayoutLines,
  type PayoutBatch,
  policyFor,
  policyInForce,
  preflight,
  type SignedIntent,
  storeIntentRequest,
  submitAs,
  viewRowsFor,
  type WithdrawalRequest,
} from '../withdrawals';
import { PAYOUT_FILE_MAX_BYTES, readPayoutCsv, type PayoutRow } from './csv';

/** The parts of the desk this file's functions use (each its module's interface, built by that module; the engine passes them together: engine.ts deskParts). */
type DeskParts = Kernel & AuditRecorder & ProfileSelection & MerchantConnection;

const BATCH_INTENT_VERSION = 1;
/** Lines whose problems the refusal's message spells out; the fields carry every one. */
const PROBLEMS_IN_MESSAGE = 20;

interface LineProblem {
  readonly line: number;
  readonly message: string;
}

// ---- reading and preflight -------------------------------------------------------------------------------------

/** The file's text, refused whole (nothing read) when it is missing, not a regular file, too large or not UTF-8. */
function readPayoutFile(path: string): string {
  try {
    return readRegularTextFile(path, PAYOUT_FILE_MAX_BYTES);
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    const reason =
      error.code === 'notUtf8' ? 'it is not UTF-8 text: save it as CSV (UTF-8)' : error.code === 'tooLarge' ? `it ${error.reason}: split it into several batches` : `it ${error.reason}`;
    throw new DeskError('invalidInput', `could not read the payout file ${path}: ${reason}`);
  }
}

function refuseLines(problems: readonly LineProblem[], lineCount: number): never {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  const lines = [...new Set(sorted.map((problem) => problem.line))];
  const shown = sorted.slice(0, PROBLEMS_IN_MESSAGE).map((problem) => `line ${problem.line}: ${problem.message}`);
  const more = sorted.length > PROBLEMS_IN_MESSAGE ? `; and ${sorted.length - PROBLEMS_IN_MESSAGE} more` : '';
  const fields: Record<string, string> = {};
  for (const problem of sorted) fields[`line ${problem.line}`] = fields[`line ${problem.line}`] === undefined ? problem.message : `${fields[`line ${problem.line}`]}; ${problem.message}`;
  throw new DeskError(
    'invalidInput',
    `the batch was not imported (nothing was stored): ${lines.length} of ${lineCount} line${lineCount === 1 ? '' : 's'} ` +
      `(line 1 is the first payout after the header) need fixing: ${shown.join('; ')}${more}. Correct the file and import it again.`,
    fields,
  );
}

interface CheckedLine {
  readonly row: PayoutRow;
  readonly currency: CurrencySymbol;
  readonly amount: string;
  readonly fee: Money;
  readonly requiredApprovals: number;
  readonly newDestination: boolean;
  readonly lookAlike: readonly string[];
  /** Today's limit for the currency before this line (null without a limit), from its preflight. */
  readonly dailyRemainingBefore: Money | null;
}

/**
 * Every line through the single withdrawal's preflight (address rules, precision, minimum, fee, balance, policy and
 * daily limit, platform rules), then what only a batch can break: userOrders repeated in the file or already used on
 * this desk, and the lines of one currency together exceeding the balance or today's limit (the line where the
 * running sum first exceeds it is named). The rolling windows and destination caps count the earlier good lines with
 * the signed intents, as the send will (preflight's `earlier`), under the initiator's roster and name.
 */
async function checkLines(context: DeskParts, acting: Pick<ActingOperator, 'roster' | 'name'>, rows: readonly PayoutRow[], problems: LineProblem[]): Promise<CheckedLine[]> {
  const checked: CheckedLine[] = [];
  const earlier: SignedIntent[] = [];
  const seenUserOrders = new Map<string, number>();
  const running = new Map<string, { debited: Money; amount: Money }>();
  for (const row of rows) {
    const report = (field: string, message: string): void => {
      problems.push({ line: row.line, message: `${field}: ${message}` });
    };
    if (row.userOrder !== null) {
      const earlier = seenUserOrders.get(row.userOrder);
      if (earlier !== undefined) report('userOrder', `${row.userOrder} is also line ${earlier}'s: each line needs its own`);
      else seenUserOrders.set(row.userOrder, row.line);
      if (getWithdrawalRequestByUserOrder(context.db, row.userOrder)) report('userOrder', `${row.userOrder} was already used by a withdrawal on this desk`);
    }
    if (row.currency === '') report('currency', 'empty: name the currency, e.g. trx.usdt');
    if (row.amount === '') report('amount', 'empty: write the amount the recipient receives, e.g. 125.50');
    if (row.toAddress === '') report('toAddress', 'empty: write the destination address');
    if (row.currency === '' || row.amount === '' || row.toAddress === '') continue;
    const check = await preflight(context, { currency: row.currency, amount: row.amount, toAddress: row.toAddress }, acting.roster, acting.name, earlier);
    for (const issue of check.errors) report(issue.field, issue.message);
    if (!check.ok || !isCurrencySymbol(row.currency) || check.amountReceived === null || check.fee === null) continue;
    const amount = parseMoney(check.amountReceived);
    earlier.push({ key: `line ${row.line}`, currency: row.currency, amount, initiator: acting.name, destination: row.toAddress, at: context.now() });
    const fee = parseMoney(check.fee);
    const sums = running.get(row.currency) ?? { debited: new Money(0), amount: new Money(0) };
    const before = { debited: sums.debited, amount: sums.amount };
    sums.debited = sums.debited.plus(amount).plus(fee);
    sums.amount = sums.amount.plus(amount);
    running.set(row.currency, sums);
    const name = CURRENCIES[row.currency].displayName;
    if (check.available !== null && sums.debited.greaterThan(parseMoney(check.available))) {
      report('balance', `with the batch's earlier ${name} lines (${formatMoney(before.debited)} with fees) the available ${formatMoney(parseMoney(check.available))} does not cover this line's ${check.totalDebited ?? ''}`);
    }
    if (check.dailyLimitRemaining !== null && before.amount.greaterThan(parseMoney(check.dailyLimitRemaining))) {
      report('dailyLimit', `with the batch's earlier ${name} lines (${formatMoney(before.amount)}) this line exceeds today's ${name} limit: ${formatMoney(parseMoney(check.dailyLimitRemaining).plus(amount))} remained`);
    }
    checked.push({
      row,
      currency: row.currency,
      amount: check.amountReceived,
      fee,
      requiredApprovals: check.requiredApprovals,
      newDestination: check.newDestination === true,
      dailyRemainingBefore: check.dailyLimitRemaining === null ? null : parseMoney(check.dailyLimitRemaining).plus(amount),
      lookAlike: check.lookAlike.map((alike) => `looks like known address ${alike.knownAddress}${alike.label === null ? '' : ` (${alike.label})`}, differing at positions ${alike.differingPositions.map((position) => position + 1).join(', ')}`),
    });
  }
  return checked;
}

/** New destinations, look-alikes of the address book (from the preflight) and look-alikes between the batch's own lines. */
function flagsOf(lines: readonly CheckedLine[]): BatchFlag[] {
  const flags: BatchFlag[] = [];
  lines.forEach((line, index) => {
    if (line.newDestination) flags.push({ line: line.row.line, kind: 'newDestination', detail: 'this destination has never been paid from this desk: check it with the recipient' });
    for (const detail of line.lookAlike) flags.push({ line: line.row.line, kind: 'lookAlike', detail });
    for (const other of lines.slice(0, index)) {
      if (CURRENCIES[other.currency].chain === CURRENCIES[line.currency].chain && looksAlike(other.row.toAddress, line.row.toAddress)) {
        const positions = differingPositions(other.row.toAddress, line.row.toAddress).map((position) => position + 1).join(', ');
        flags.push({ line: line.row.line, kind: 'lookAlike', detail: `looks like line ${other.row.line}'s address, differing at positions ${positions}` });
      }
    }
  });
  return flags;
}

/** The lines' preflighted figures as one intent, and the policy each currency falls under. */
function buildIntent(context: DeskParts, roster: Roster, lines: readonly CheckedLine[], rowsSeed: string): { batch: BatchIntent; policies: PayoutPolicyView[] } {
  const profile = context.activeProfile();
  const requestedAt = context.now();
  const required = Math.max(...lines.map((line) => line.requiredApprovals));
  const totals: Record<string, { lines: number; amount: Money; fee: Money; largest: Money; approvals: number }> = {};
  const references: Record<string, string> = {};
  const intents: WithdrawalIntent[] = lines.map((line) => {
    const { policy, reference } = policyInForce(roster, line.currency, requestedAt);
    references[line.currency] = reference;
    const sum = (totals[line.currency] ??= { lines: 0, amount: new Money(0), fee: new Money(0), largest: new Money(0), approvals: 1 });
    const amount = parseMoney(line.amount);
    sum.lines += 1;
    sum.amount = sum.amount.plus(amount);
    sum.fee = sum.fee.plus(line.fee);
    if (amount.greaterThan(sum.largest)) sum.largest = amount;
    sum.approvals = Math.max(sum.approvals, line.requiredApprovals);
    return {
      v: 1,
      merchantId: profile.merchantId,
      currency: line.currency,
      amount: line.amount,
      toAddress: line.row.toAddress,
      withdrawType: policy.useFinancialConfirmation ? 'financialConfirmation' : 'normal',
      userOrder: line.row.userOrder ?? derivedUserOrder(rowsSeed, requestedAt, line.row.line),
      memo: line.row.memo,
      requiredApprovals: required,
      policy: reference,
      requestedAt,
    };
  });
  const batchTotals: Record<string, BatchCurrencyTotal> = {};
  const policies: PayoutPolicyView[] = [];
  for (const [currency, sum] of Object.entries(totals)) {
    batchTotals[currency] = { lines: sum.lines, amount: formatMoney(sum.amount), fee: formatMoney(sum.fee), total: formatMoney(sum.amount.plus(sum.fee)) };
    const policy = policyFor(context, profile.name, currency as CurrencySymbol);
    const firstLine = lines.find((line) => line.currency === currency);
    policies.push({
      currency,
      reference: references[currency] ?? 'default',
      largestLine: formatMoney(sum.largest),
      approvalsForLargestLine: sum.approvals,
      dailyLimit: policy.dailyLimit,
      dailyLimitRemaining: remainingAfterBatch(firstLine, sum.amount),
    });
  }
  return {
    batch: { v: BATCH_INTENT_VERSION, kind: 'payoutBatch', merchantId: profile.merchantId, lines: intents, totals: batchTotals, requiredApprovals: required, policies: references, requestedAt },
    policies,
  };
}

/** Today's limit left after the batch, from the first line's preflight (which saw what was used before the batch). */
function remainingAfterBatch(firstLine: CheckedLine | undefined, batchAmount: Money): string | null {
  if (firstLine === undefined || firstLine.dailyRemainingBefore === null) return null;
  return formatMoney(Money.max(firstLine.dailyRemainingBefore.minus(batchAmount), 0));
}

/** What a batch's signed request statement stores locally: the batch row and one withdrawal request per line. */
export interface BatchRequestRecord {
  readonly profile: string;
  readonly batchHash: string;
  readonly batch: BatchIntent;
  readonly source: string;
  readonly initiator: string;
  readonly requestSeq: number;
}

/**
 * Stores a batch requested under `batchHash` and its lines as withdrawal requests (inside the caller's transaction,
 * with the request statement): the import here, and a team workstation applying the statement pulled from another.
 */
export function storeBatchRequest(context: DeskParts, record: BatchRequestRecord): PayoutBatch {
  const { profile, batchHash, batch, initiator, requestSeq } = record;
  const stored = createPayoutBatch(
    context.db,
    { profile, batchHash, fingerprint: batchFingerprint(batch), batchJson: encodeBatchIntent(batch), sourceName: record.source, initiator, lineCount: batch.lines.length, requestSeq },
    context.now(),
  );
  batch.lines.forEach((intent, index) => {
    const request = storeIntentRequest(context.db, { profile, intent, initiator, requestSeq, batchHash }, context.now());
    addPayoutLine(context.db, stored.id, index + 1, request.id);
  });
  return stored;
}

/**
 * Imports a payout file as a batch requested by `as` (an initiator): every line is preflighted and the whole file is
 * refused, naming each bad line, if any line fails; otherwise one signed request statement over the batch intent and
 * one withdrawal request per line are committed together.
 */
export async function importPayoutBatch(context: DeskParts, path: string, credentials: OperatorCredentials): Promise<PayoutBatchView> {
  const reading = readPayoutCsv(readPayoutFile(path));
  if (!reading.ok) throw new DeskError('invalidInput', `the batch was not imported (nothing was stored): ${reading.reason}`);
  const acting = await actingAs(context, credentials, 'requestWithdrawal');
  const profile = context.activeProfile();
  const problems: LineProblem[] = reading.problems.map((problem) => ({ line: problem.line, message: `${problem.field}: ${problem.message}` }));
  const lines = await checkLines(context, acting, reading.rows, problems);
  if (problems.length > 0) refuseLines(problems, reading.rows.length);

  const seed = encodeCanonical({ merchantId: profile.merchantId, day: new Date(context.now()).toISOString().slice(0, 10), rows: reading.rows.map((row) => [row.currency, row.amount, row.toAddress, row.memo, row.userOrder]) });
  const { batch, policies } = buildIntent(context, acting.roster, lines, seed);
  const derivedClash = batch.lines.find((intent) => getWithdrawalRequestByUserOrder(context.db, intent.userOrder));
  if (derivedClash) {
    throw new DeskError('conflict', `the batch was not imported (nothing was stored): this file was already imported today (userOrder ${derivedClash.userOrder} exists); look at "payouts list"`);
  }
  const hash = batchIntentHash(batch);
  const flags = flagsOf(lines);
  const source = basename(path).slice(0, 255) || 'payouts.csv';
  let stored: PayoutBatch | undefined;
  await acting.sign(
    { kind: 'request', subject: hash, body: { batch: JSON.parse(encodeBatchIntent(batch)) as never, flags: flags as never, policies: policies as never, source } },
    (row) => {
      stored = storeBatchRequest(context, { profile: profile.name, batchHash: hash, batch, source, initiator: acting.name, requestSeq: row.seq });
    },
  );
  if (!stored) throw new DeskError('internal', 'the batch was not stored');
  context.emit({ type: 'withdrawals/changed', id: null });
  return payoutBatchView(context, stored);
}

// ---- reading a batch back -------------------------------------------------------------------------------------

function batchIdOf(id: string): number {
  const value = Number(id);
  if (!/^[0-9]{1,15}$/.test(id) || !Number.isSafeInteger(value)) throw new DeskError('invalidInput', `"${id}" is not a batch id`);
  return value;
}

function loadBatch(context: DeskParts, id: string): PayoutBatch {
  const profile = context.activeProfile();
  const batch = getPayoutBatch(context.db, batchIdOf(id));
  if (!batch || batch.profile !== profile.name) throw new DeskError('notFound', `no payout batch ${id} in profile ${profile.name}: "payouts list" shows the batches`);
  return batch;
}

export interface JudgedLine {
  readonly line: number;
  readonly request: WithdrawalRequest;
  readonly evidence: IntentEvidence;
}

/** Every line of the batch with what its statements say (judgeForView); refused when a line row is missing or names another batch. */
export function judgeBatchLines(context: DeskParts, batch: PayoutBatch, roster: Roster): JudgedLine[] {
  // Every line is signed under the batch hash: its statements are read and parsed once for all of them.
  let rows: ChainRow[] | undefined;
  return listPayoutLines(context.db, batch.id).map(({ line, requestId }) => {
    const request = getWithdrawalRequest(context.db, requestId);
    if (!request) throw new DeskError('unverified', `line ${line} of batch ${batch.id} has no withdrawal request: the desk database was altered`);
    if (request.batchHash !== batch.batchHash) throw new DeskError('unverified', `line ${line} of batch ${batch.id} names another batch: the desk database was altered`);
    rows ??= viewRowsFor(context, request);
    return { line, request, evidence: judgeForView(context, roster, request, rows) };
  });
}

/** The body of the batch's request statement, the one the line judgements verified (the first under the batch hash). */
function requestBody(context: DeskParts, batch: PayoutBatch): StatementBody | null {
  for (const row of auditRowsBySubject(context.db, batch.profile, batch.batchHash)) {
    const statement = parseStatement(row.statement);
    if (statement?.kind === 'request' && statement.subject === batch.batchHash) return statement.body;
  }
  return null;
}

/** What the batch's signed request statement carries (never the cached row); null when no line's judgement verified it. */
function signedBatchOf(context: DeskParts, batch: PayoutBatch, judged: readonly JudgedLine[]): { intent: BatchIntent; flags: PayoutFlagView[]; policies: PayoutPolicyView[] } | null {
  if (!judged.some((line) => line.evidence.intent !== null)) return null;
  const body = requestBody(context, batch);
  const intent = body?.['batch'];
  if (!body || !isBatchIntent(intent) || batchIntentHash(intent) !== batch.batchHash) return null;
  return { intent, flags: (body['flags'] as unknown as PayoutFlagView[] | undefined) ?? [], policies: (body['policies'] as unknown as PayoutPolicyView[] | undefined) ?? [] };
}

const WAITING = /^waiting for /;
const DECIDABLE: ReadonlySet<WithdrawalState> = new Set(['awaitingApproval']);

function batchStateOf(states: readonly WithdrawalState[]): PayoutBatchState {
  const all = (state: WithdrawalState): boolean => states.every((each) => each === state);
  if (all('rejected')) return 'rejected';
  if (all('cancelled')) return 'cancelled';
  if (states.some((state) => state === 'awaitingApproval')) return 'awaitingApproval';
  if (all('approved')) return 'approved';
  return states.every((state) => WITHDRAWAL_STATE_TRAITS[state].payoutLineFinished) ? 'done' : 'inProgress';
}

/** Problems every line shares once; a line's own problems with its number. */
function batchProblems(judged: readonly JudgedLine[]): string[] {
  const perLine = judged.map((line) => line.evidence.verification.problems.filter((problem) => !(WAITING.test(problem) && !DECIDABLE.has(line.request.state))));
  const shared = (perLine[0] ?? []).filter((problem) => perLine.every((problems) => problems.includes(problem)));
  const own = judged.flatMap((line, index) => (perLine[index] ?? []).filter((problem) => !shared.includes(problem)).map((problem) => `line ${line.line}: ${problem}`));
  return [...shared, ...own];
}

function lineView(line: JudgedLine, estimatedFee: string, payeeOf: (currency: string, address: string) => string | null): PayoutLineView {
  const { request } = line;
  const unsupported = line.evidence.verification.problems.filter((problem) => !WAITING.test(problem));
  return {
    line: line.line,
    requestId: String(request.id),
    currency: request.currency,
    amount: request.amount,
    fee: request.fee ?? estimatedFee,
    toAddress: request.toAddress,
    payee: payeeOf(request.currency, request.toAddress),
    memo: request.memo,
    userOrder: request.userOrder,
    state: request.state,
    orderStatus: request.orderStatus,
    apiOrder: request.apiOrder,
    txid: request.txid,
    error: request.lastError ?? (unsupported.length > 0 ? unsupported.join('; ') : null),
  };
}

/** The batch as the faces show it, from its lines already judged (so a caller that needs the judgements too judges once). */
export function batchViewOf(context: DeskParts, batch: PayoutBatch, judged: readonly JudgedLine[]): PayoutBatchView {
  const roster = context.trail.roster(batch.profile, { cached: true });
  const payeeOf = (currency: string, address: string): string | null => (isCurrencySymbol(currency) ? payeeNameOf(roster, CURRENCIES[currency].chain, address) : null);
  const signed = signedBatchOf(context, batch, judged);
  const first = judged[0]?.evidence;
  const counts: Partial<Record<WithdrawalState, number>> = {};
  for (const line of judged) counts[line.request.state] = (counts[line.request.state] ?? 0) + 1;
  const problems = signed === null ? ['no signed request statement verifies for this batch: it cannot be approved or sent', ...batchProblems(judged)] : batchProblems(judged);
  // Estimated fees are the signed totals' split per line: the service's own fee replaces them once known.
  const fees = estimatedFees(context, signed?.intent ?? null);
  return {
    id: String(batch.id),
    fingerprint: signed === null ? batch.fingerprint : batchFingerprint(signed.intent),
    source: batch.sourceName,
    initiator: first?.initiator ?? batch.initiator,
    requestedAt: signed?.intent.requestedAt ?? batch.createdAt,
    lineCount: judged.length,
    totals: signed === null ? [] : Object.entries(signed.intent.totals).map(([currency, total]) => ({ currency, ...total })),
    policies: signed?.policies ?? [],
    flags: signed?.flags ?? [],
    requiredApprovals: first?.verification.requiredApprovals ?? 1,
    countedApprovals: first?.verification.countedApprovals ?? 0,
    approvals: first?.approvals ?? [],
    verified: problems.length === 0,
    problems,
    state: batchStateOf(judged.map((line) => line.request.state)),
    stateCounts: counts,
    lines: judged.map((line) => lineView(line, fees[line.line - 1] ?? '', payeeOf)),
  };
}

/** Each line's fee as estimated at import from the cached schedule (what the signed totals sum). */
function estimatedFees(context: DeskParts, intent: BatchIntent | null): string[] {
  if (intent === null) return [];
  return intent.lines.map((line) => {
    const currency = isCurrencySymbol(line.currency) ? getCurrency(context.db, context.activeProfile().name, line.currency) : undefined;
    const schedule = currency ? feeScheduleOf(currency.record) : undefined;
    return schedule && isCurrencySymbol(line.currency) ? formatMoney(computeFee(schedule, 'withdraw', parseMoney(line.amount), CURRENCIES[line.currency].decimals)) : '';
  });
}

export function payoutBatchView(context: DeskParts, batch: PayoutBatch, roster: Roster = context.trail.roster(batch.profile, { cached: true })): PayoutBatchView {
  return batchViewOf(context, batch, judgeBatchLines(context, batch, roster));
}

export function getPayoutBatchView(context: DeskParts, id: string): PayoutBatchView {
  return payoutBatchView(context, loadBatch(context, id));
}

/** A batch's state from its lines' local rows (what their verified statements applied): the summary's and the team projection's. */
export function payoutBatchState(context: DeskParts, batch: PayoutBatch): PayoutBatchState {
  return batchStateOf(listPayoutLines(context.db, batch.id).map(({ requestId }) => getWithdrawalRequest(context.db, requestId)?.state ?? 'cancelled'));
}

export function listPayoutBatchSummaries(context: DeskParts, limit: number, cursor: string | null): { rows: PayoutBatchSummary[]; nextCursor: string | null } {
  const profile = context.activeProfile().name;
  const page = listPayoutBatches(context.db, profile, limit, cursor);
  return {
    rows: page.rows.map((batch) => {
      return { id: String(batch.id), fingerprint: batch.fingerprint, source: batch.sourceName, initiator: batch.initiator, requestedAt: batch.createdAt, lineCount: batch.lineCount, state: payoutBatchState(context, batch) };
    }),
    nextCursor: page.nextCursor,
  };
}

// ---- decisions on the whole batch -----------------------------------------------------------------------------

/** A decision refused because of what the statements say: audited by the desk key, then thrown. */
function refuse(context: DeskParts, batch: PayoutBatch, action: string, problems: readonly string[], operator: string): never {
  context.audit({ profile: batch.profile, action, subject: batch.batchHash, details: { batch: batch.id, operator, problems: problems.slice(0, 50) } });
  throw new DeskError('unverified', `batch ${batch.id} cannot be decided: ${problems.join('; ')}`);
}

function decisionContext(context: DeskParts, id: string, acting: ActingOperator): { batch: PayoutBatch; judged: JudgedLine[] } {
  const batch = loadBatch(context, id);
  const judged = judgeBatchLines(context, batch, acting.roster);
  const initiator = judged[0]?.evidence.initiator ?? batch.initiator;
  if (initiator.toLowerCase() === acting.name.toLowerCase() || batch.initiator.toLowerCase() === acting.name.toLowerCase()) {
    throw new DeskError('forbidden', 'the initiator of a batch can never approve or reject it: another approver must (the initiator may cancel it)');
  }
  // Approved lines whose approvals expired (issue 20) are approved again, by the same approver or another.
  const renewing = (line: JudgedLine): boolean => line.request.state === 'approved' && line.evidence.approvals.some((approval) => approval.expired === true);
  const undecidable = judged.filter((line) => line.request.state !== 'awaitingApproval' && !renewing(line));
  if (undecidable.length > 0) {
    throw new DeskError('conflict', `batch ${id} is not awaiting approval (line ${undecidable[0]?.line} is ${undecidable[0]?.request.state})`);
  }
  const earlier = judged[0]?.evidence.approvals.find((approval) => approval.operator.toLowerCase() === acting.name.toLowerCase() && approval.expired !== true);
  if (earlier) throw new DeskError('conflict', `${acting.name} already ${earlier.decision === 'approve' ? 'approved' : 'rejected'} batch ${id}`);
  return { batch, judged };
}

/** Lines whose row no longer shows what was signed, or whose statements do not hold: an approver is never asked to sign those. */
function alteredLines(context: DeskParts, judged: readonly JudgedLine[]): string[] {
  const merchantId = context.activeProfile().merchantId;
  return judged.flatMap((line) => {
    if (line.evidence.intent === null) return [`line ${line.line}: ${line.evidence.verification.problems.join('; ')}`];
    const shown = alteredFields(line.request, merchantId, line.evidence.intent);
    return shown.length > 0 ? [`line ${line.line} shows ${shown.join(', ')} other than ${line.evidence.initiator ?? 'the initiator'} signed: the line was altered after it was made`] : [];
  });
}

/**
 * After an approval of the batch is appended (inside its transaction): every line whose statements now carry enough
 * approvals becomes approved. The approval here, and a team workstation applying one pulled from another.
 */
export function settleBatchApprovals(context: DeskParts, batch: PayoutBatch): void {
  const roster = context.trail.roster(batch.profile);
  for (const line of judgeBatchLines(context, batch, roster)) {
    const { verification } = line.evidence;
    if (verification.ok && verification.countedApprovals >= verification.requiredApprovals) batchLineApproved(context.db, line.request.id, context.now());
  }
}

/** Moves every line the event applies to (a rejection or cancellation of the batch); answers how many moved. */
export function moveBatchLines(context: DeskParts, batch: PayoutBatch, event: 'reject' | 'cancel'): number {
  let moved = 0;
  for (const { requestId } of listPayoutLines(context.db, batch.id)) {
    if (batchLineClosed(context.db, requestId, event, context.now())) moved += 1;
  }
  return moved;
}

export async function approvePayoutBatch(context: DeskParts, id: string, credentials: OperatorCredentials): Promise<PayoutBatchView> {
  const acting = await actingAs(context, credentials, 'approveWithdrawal');
  const { batch, judged } = decisionContext(context, id, acting);
  const altered = alteredLines(context, judged);
  if (altered.length > 0) refuse(context, batch, 'payouts/approveRefused', altered, acting.name);
  await acting.sign({ kind: 'approve', subject: batch.batchHash, body: { fingerprint: batch.fingerprint } }, () => settleBatchApprovals(context, batch));
  context.emit({ type: 'withdrawals/changed', id: null });
  return payoutBatchView(context, batch);
}

export async function rejectPayoutBatch(context: DeskParts, id: string, reason: string, credentials: OperatorCredentials): Promise<PayoutBatchView> {
  const acting = await actingAs(context, credentials, 'rejectWithdrawal');
  const { batch, judged } = decisionContext(context, id, acting);
  await acting.sign({ kind: 'reject', subject: batch.batchHash, body: { fingerprint: batch.fingerprint, reason } }, () => {
    if (moveBatchLines(context, batch, 'reject') !== judged.length) throw new DeskError('conflict', `batch ${id} changed meanwhile; look at it again`);
  });
  context.emit({ type: 'withdrawals/changed', id: null });
  return payoutBatchView(context, batch);
}

/** Cancels every line not yet sent (its initiator or an admin); refused while a line may be at the service. */
export async function cancelPayoutBatch(context: DeskParts, id: string, reason: string | undefined, credentials: OperatorCredentials): Promise<PayoutBatchView> {
  const acting = await actingAs(context, credentials, 'cancelWithdrawal');
  const batch = loadBatch(context, id);
  const judged = judgeBatchLines(context, batch, acting.roster);
  const initiator = judged[0]?.evidence.initiator ?? batch.initiator;
  if (initiator.toLowerCase() !== acting.name.toLowerCase() && acting.role !== 'admin') throw new DeskError('forbidden', 'only the initiator of a batch or an admin may cancel it');
  const cancellable = statesAllowing('cancel');
  const inFlight = judged.filter((line) => isInFlight(line.request.state) && line.request.state !== 'submitted');
  if (inFlight.length > 0) {
    throw new DeskError('conflict', `batch ${id} has lines that may be at the service (line ${inFlight.map((line) => line.line).join(', ')}): run "payouts submit ${id}" to settle them first`);
  }
  const open = judged.filter((line) => cancellable.includes(line.request.state));
  if (open.length === 0) throw new DeskError('conflict', `batch ${id} has no line left to cancel`);
  await acting.sign({ kind: 'cancel', subject: batch.batchHash, body: { fingerprint: batch.fingerprint, reason: reason ?? null } }, () => {
    moveBatchLines(context, batch, 'cancel');
  });
  context.emit({ type: 'withdrawals/changed', id: null });
  return payoutBatchView(context, batch);
}

// ---- submission -----------------------------------------------------------------------------------------------

const SENDABLE: ReadonlySet<WithdrawalState> = new Set(PAYOUT_SENDABLE_STATES);

/**
 * Sends the batch's approved lines one by one through the single withdrawal's submit path (verified from the batch's
 * statements before each line, the userOrder from the signed intent, a submit statement per line committed before its
 * first byte) and resumes lines a crash left in flight with checkWithdrawOrder. A line that cannot go is recorded by
 * its number and the others still go; repeating the command sends nothing twice.
 */
export async function submitPayoutBatch(context: DeskParts, id: string, credentials: OperatorCredentials): Promise<PayoutSubmitResult> {
  const acting = await actingAs(context, credentials, 'submitWithdrawal');
  const batch = loadBatch(context, id);
  const lines = listPayoutLines(context.db, batch.id);
  const pending = lines.filter(({ requestId }) => SENDABLE.has(getWithdrawalRequest(context.db, requestId)?.state ?? 'cancelled'));
  if (pending.length === 0) {
    const view = payoutBatchView(context, batch);
    throw new DeskError('conflict', `batch ${id} has no line to submit: it is ${view.state}${view.state === 'awaitingApproval' ? ` (${view.countedApprovals} of ${view.requiredApprovals} approvals)` : ''}`);
  }
  const failures: { line: number; error: string }[] = [];
  let sent = 0;
  for (const { line, requestId } of pending) {
    const request = getWithdrawalRequest(context.db, requestId);
    if (!request || request.batchHash !== batch.batchHash) {
      failures.push({ line, error: 'its withdrawal request is missing or names another batch: the desk database was altered' });
      continue;
    }
    try {
      await submitAs(context, request, acting);
      sent += 1;
    } catch (error) {
      failures.push({ line, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { batch: payoutBatchView(context, batch), sent, failures };
}

// ---- results export -------------------------------------------------------------------------------------------

/** Writes one CSV row per line (PAYOUT_EXPORT_COLUMNS), whole or not at all. */
export function exportPayoutBatchCsv(context: DeskParts, id: string, path: string): { rows: number; path: string } {
  const view = getPayoutBatchView(context, id);
  writeFileAtomically(path, (append) => {
    append(csvLine(PAYOUT_EXPORT_COLUMNS));
    for (const line of view.lines) {
      append(csvLine([line.line, line.currency, line.amount, line.fee, line.toAddress, line.memo, line.userOrder, line.state, line.apiOrder, line.txid, line.orderStatus, line.error]));
    }
  });
  return { rows: view.lines.length, path };
}
