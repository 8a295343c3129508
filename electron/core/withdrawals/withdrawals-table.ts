// Withdrawal requests and every platform status observed for them. Invariant: the current orderStatus only moves
// forward (pendingConfirm < pendingTransfer | pendingFinancialConfirmation | unknown pending < pendingCallback <
// final) and never leaves a final state (PROTOCOL §10.5, ARCHITECTURE rule 6); each (request, status) is kept once.
import { AMOUNT_SYNTAX, Money } from '../../chains/amounts';
import { unsafeTextProblem } from '../../contract/display-text';
import { FINAL_ORDER_STATUSES, REMARK_MAX_LENGTH, USER_ORDER_PATTERN } from '../../protocol/profile';
import { perDatabase, statementCache, writeTransaction, type ReadableDB, type WritableDB } from '../store/database';
import { invalidArgument, isForeignKeyViolation, isUniqueViolation, StoreError } from '../store/errors';
import { canonicalJson, parseObjectColumn } from '../store/json';
import { checkPageSize, decodeCursor, toPage, type Page } from '../store/pagination';

/** The desk's own workflow state of a request; its moves are the lifecycle module's (contract/withdrawal-lifecycle). */
export { WITHDRAWAL_STATES as WITHDRAWAL_REQUEST_STATES, isWithdrawalState as isWithdrawalRequestState } from '../../contract/withdrawal-lifecycle';
export type { WithdrawalState as WithdrawalRequestState } from '../../contract/withdrawal-lifecycle';
import {
  IN_FLIGHT_STATES,
  isWithdrawalState as isWithdrawalRequestState,
  statesAllowing,
  statesWhere,
  WITHDRAWAL_TRANSITIONS,
  type WithdrawalEvent,
  type WithdrawalState as WithdrawalRequestState,
} from '../../contract/withdrawal-lifecycle';

/** States as an SQL list of literals (the lifecycle's own names: never text from outside). */
const sqlList = (states: readonly WithdrawalRequestState[]): string => states.map((state) => `'${state}'`).join(', ');

/** Where an orderStatus was observed: the createWithdrawOrder response, checkWithdrawOrder, or the callback. */
export type OrderStatusSource = 'create' | 'query' | 'callback';

export interface NewWithdrawalRequest {
  readonly profile: string;
  readonly currency: string;
  readonly amount: string;
  readonly toAddress: string;
  readonly withdrawType: string;
  readonly memo?: string | null;
  /** Generated and committed before the first byte is sent (ARCHITECTURE rule 5); 1–64 of [A-Za-z0-9_-] (§8). */
  readonly userOrder: string;
  /** The initiating operator's name. */
  readonly initiator: string;
  readonly state?: WithdrawalRequestState;
  /** Approvals the policy required when the request was made (1–5). */
  readonly requiredApprovals?: number;
  /** The signed intent (canonical text), its hash and fingerprint, and the audit row of its request statement. */
  readonly intentJson?: string | null;
  readonly intentHash?: string | null;
  readonly fingerprint?: string | null;
  readonly requestSeq?: number | null;
  /** A batch payout line: the hash of its batch intent, under which its decisions are signed (core/payouts). */
  readonly batchHash?: string | null;
}

export interface WithdrawalRequest {
  readonly id: number;
  readonly profile: string;
  readonly currency: string;
  readonly amount: string;
  readonly toAddress: string;
  readonly withdrawType: string;
  readonly memo: string | null;
  readonly userOrder: string;
  /** The initiating operator's name (a cache: the signed request statement says who it really was). */
  readonly initiator: string;
  readonly state: WithdrawalRequestState;
  readonly requiredApprovals: number;
  /** The canonical intent the request statement signed; null for a request made before signed approvals. */
  readonly intentJson: string | null;
  readonly intentHash: string | null;
  readonly fingerprint: string | null;
  readonly requestSeq: number | null;
  /** A batch payout line's batch intent hash (its decisions are signed under it), or null for a single withdrawal. */
  readonly batchHash: string | null;
  /** Why the last submission failed, or null. */
  readonly lastError: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Platform order fields, once known. */
  readonly apiOrder: string | null;
  readonly orderStatus: string | null;
  readonly orderStatusAt: number | null;
  readonly fee: string | null;
  readonly txid: string | null;
  /** The last withdrawal order record of the current status (the one that advanced it, or a later one of the same status). */
  readonly raw: Readonly<Record<string, unknown>> | null;
}

interface RequestRow {
  id: number;
  profile: string;
  currency: string;
  amount: string;
  to_address: string;
  withdraw_type: string;
  memo: string | null;
  user_order: string;
  initiator: string;
  state: string;
  created_at: number;
  updated_at: number;
  api_order: string | null;
  order_status: string | null;
  order_status_at: number | null;
  fee: string | null;
  txid: string | null;
  raw_json: string | null;
  required_approvals: number;
  last_error: string | null;
  intent_json: string | null;
  intent_hash: string | null;
  fingerprint: string | null;
  request_seq: number | null;
  batch_hash: string | null;
}

const COLUMNS =
  'id, profile, currency, amount, to_address, withdraw_type, memo, user_order, initiator, state, created_at, updated_at, ' +
  'api_order, order_status, order_status_at, fee, txid, raw_json, required_approvals, last_error, intent_json, intent_hash, fingerprint, request_seq, batch_hash';

function toRequest(row: RequestRow): WithdrawalRequest {
  if (!isWithdrawalRequestState(row.state)) throw new Error(`withdrawal request ${row.id} has an unknown state ${row.state}`);
  return {
    id: row.id,
    profile: row.profile,
    currency: row.currency,
    amount: row.amount,
    toAddress: row.to_address,
    withdrawType: row.withdraw_type,
    memo: row.memo,
    userOrder: row.user_order,
    initiator: row.initiator,
    state: row.state,
    requiredApprovals: row.required_approvals,
    intentJson: row.intent_json,
    intentHash: row.intent_hash,
    fingerprint: row.fingerprint,
    requestSeq: row.request_seq,
    batchHash: row.batch_hash,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    apiOrder: row.api_order,
    orderStatus: row.order_status,
    orderStatusAt: row.order_status_at,
    fee: row.fee,
    txid: row.txid,
    raw: row.raw_json === null ? null : parseObjectColumn(row.raw_json),
  };
}

const statements = perDatabase((db) => ({
  insert: db.prepare(
    `INSERT INTO withdrawal_requests (profile, currency, amount, to_address, withdraw_type, memo, user_order, initiator,
       state, created_at, updated_at, required_approvals, intent_json, intent_hash, fingerprint, request_seq, batch_hash)
     VALUES (@profile, @currency, @amount, @toAddress, @withdrawType, @memo, @userOrder, @initiator, @state, @now, @now,
       @requiredApprovals, @intentJson, @intentHash, @fingerprint, @requestSeq, @batchHash)
     RETURNING ${COLUMNS}`,
  ),
  byId: db.prepare(`SELECT ${COLUMNS} FROM withdrawal_requests WHERE id = ?`),
  byUserOrder: db.prepare(`SELECT ${COLUMNS} FROM withdrawal_requests WHERE user_order = ?`),
  byIntentHash: db.prepare(`SELECT ${COLUMNS} FROM withdrawal_requests WHERE profile = ? AND intent_hash = ?`),
  byFingerprint: db.prepare(`SELECT ${COLUMNS} FROM withdrawal_requests WHERE profile = ? AND fingerprint = ? ORDER BY id LIMIT 1`),
  setError: db.prepare('UPDATE withdrawal_requests SET last_error = @error, updated_at = @now WHERE id = @id'),
  unsettled: db.prepare(
    `SELECT ${COLUMNS} FROM withdrawal_requests
     WHERE profile = ? AND state IN (${sqlList(IN_FLIGHT_STATES)})
       AND (order_status IS NULL OR order_status NOT IN (${FINAL_ORDER_STATUSES.map((status) => `'${status}'`).join(', ')}))
     ORDER BY created_at, id`,
  ),
  addHistory: db.prepare(
    `INSERT INTO withdrawal_status_history (request_id, status, observed_at, source, raw_json)
     VALUES (@requestId, @status, @now, @source, @raw)
     ON CONFLICT (request_id, status) DO NOTHING`,
  ),
  history: db.prepare('SELECT id, status, observed_at, source, raw_json FROM withdrawal_status_history WHERE request_id = ? ORDER BY observed_at, id'),
  // Every request of a currency that reached (or may have reached) the platform, with its first status observed.
  forReconciliation: db.prepare(
    `SELECT ${COLUMNS.split(', ').map((column) => `r.${column}`).join(', ')},
       (SELECT MIN(h.observed_at) FROM withdrawal_status_history h WHERE h.request_id = r.id) AS first_status_at,
       (SELECT h.status FROM withdrawal_status_history h WHERE h.request_id = r.id AND h.status IN (${FINAL_ORDER_STATUSES.map((status) => `'${status}'`).join(', ')})
         ORDER BY h.observed_at, h.id LIMIT 1) AS final_status,
       (SELECT MIN(h.observed_at) FROM withdrawal_status_history h WHERE h.request_id = r.id AND h.status IN (${FINAL_ORDER_STATUSES.map((status) => `'${status}'`).join(', ')})) AS final_status_at
     FROM withdrawal_requests r
     WHERE r.profile = ? AND r.currency = ? AND r.state IN (${sqlList(statesWhere('mayHaveReachedService'))})
     ORDER BY r.id`,
  ),
  currencies: db.prepare('SELECT DISTINCT currency FROM withdrawal_requests WHERE profile = ? ORDER BY currency').pluck(),
  firstCallback: db.prepare(
    `SELECT MIN(h.observed_at) FROM withdrawal_status_history h JOIN withdrawal_requests r ON r.id = h.request_id
     WHERE r.profile = ? AND h.source = 'callback'`,
  ).pluck(),
  advance: db.prepare(
    `UPDATE withdrawal_requests SET order_status = @status, order_status_at = @now, updated_at = @now,
       api_order = COALESCE(@apiOrder, api_order), fee = COALESCE(@fee, fee),
       txid = CASE WHEN @txid IS NOT NULL AND @txid <> '' THEN @txid ELSE txid END, raw_json = @raw
     WHERE id = @id`,
  ),
  // The same status observed again: fill in what was missing, and keep this newer record (its remark may have changed).
  fillIn: db.prepare(
    `UPDATE withdrawal_requests SET api_order = COALESCE(api_order, @apiOrder), fee = COALESCE(fee, @fee),
       txid = CASE WHEN COALESCE(txid, '') = '' AND @txid IS NOT NULL AND @txid <> '' THEN @txid ELSE txid END,
       raw_json = @raw
     WHERE id = @id`,
  ),
}));
const dynamic = statementCache();

/** Creates a request; the userOrder is unique across the desk. */
export function createWithdrawalRequest(db: WritableDB, input: NewWithdrawalRequest, now: number = Date.now()): WithdrawalRequest {
  if (!AMOUNT_SYNTAX.test(input.amount)) throw invalidArgument(`amount ${JSON.stringify(input.amount)} is not a decimal string`);
  if (!USER_ORDER_PATTERN.test(input.userOrder)) throw invalidArgument('userOrder must be 1 to 64 characters from A-Z, a-z, 0-9, _ and - (PROTOCOL §8)');
  const memo = input.memo ?? null;
  if (memo !== null && memo.length > REMARK_MAX_LENGTH) throw invalidArgument(`memo is longer than ${REMARK_MAX_LENGTH} characters`);
  const memoProblem = memo === null ? null : unsafeTextProblem(memo, 'the memo');
  if (memoProblem) throw invalidArgument(memoProblem);
  let row: RequestRow;
  try {
    row = statements(db).insert.get({
      profile: input.profile,
      currency: input.currency,
      amount: input.amount,
      toAddress: input.toAddress,
      withdrawType: input.withdrawType,
      memo,
      userOrder: input.userOrder,
      initiator: input.initiator,
      state: input.state ?? 'awaitingApproval',
      requiredApprovals: input.requiredApprovals ?? 1,
      intentJson: input.intentJson ?? null,
      intentHash: input.intentHash ?? null,
      fingerprint: input.fingerprint ?? null,
      requestSeq: input.requestSeq ?? null,
      batchHash: input.batchHash ?? null,
      now,
    }) as RequestRow;
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidArgument(`a withdrawal request with userOrder ${input.userOrder} already exists`);
    if (isForeignKeyViolation(error)) throw invalidArgument(`unknown profile ${input.profile}`);
    throw error;
  }
  return toRequest(row);
}

/** Records why the last submission failed (null clears it). */
export function setWithdrawalRequestError(db: WritableDB, id: number, error: string | null, now: number = Date.now()): boolean {
  return statements(db).setError.run({ id, error, now }).changes === 1;
}

export function getWithdrawalRequest(db: ReadableDB, id: number): WithdrawalRequest | undefined {
  const row = statements(db).byId.get(id) as RequestRow | undefined;
  return row === undefined ? undefined : toRequest(row);
}

export function getWithdrawalRequestByUserOrder(db: ReadableDB, userOrder: string): WithdrawalRequest | undefined {
  const row = statements(db).byUserOrder.get(userOrder) as RequestRow | undefined;
  return row === undefined ? undefined : toRequest(row);
}

/** The request whose signed intent has this hash (a decision statement's subject). */
export function getWithdrawalRequestByIntentHash(db: ReadableDB, profile: string, intentHash: string): WithdrawalRequest | undefined {
  const row = statements(db).byIntentHash.get(profile, intentHash) as RequestRow | undefined;
  return row === undefined ? undefined : toRequest(row);
}

/** The request whose signed intent has this fingerprint (`ABCD-EFGH-IJKL-MNOP`, what approvers read). */
export function getWithdrawalRequestByFingerprint(db: ReadableDB, profile: string, fingerprint: string): WithdrawalRequest | undefined {
  const row = statements(db).byFingerprint.get(profile, fingerprint) as RequestRow | undefined;
  return row === undefined ? undefined : toRequest(row);
}

/**
 * Moves a request's workflow state by a lifecycle event (contract/withdrawal-lifecycle: the one transition table), as
 * a compare-and-set on the states the event is legal from, so two windows or processes cannot both move one request.
 * Returns whether the state changed.
 */
export function moveWithdrawalRequest(db: WritableDB, id: number, event: WithdrawalEvent, now: number = Date.now()): boolean {
  const from = statesAllowing(event);
  const to = WITHDRAWAL_TRANSITIONS[event].to;
  const sql = `UPDATE withdrawal_requests SET state = ?, updated_at = ? WHERE id = ? AND state IN (${from.map(() => '?').join(', ')})`;
  return dynamic(db, sql).run(to, now, id, ...from).changes === 1;
}

export interface WithdrawalRequestQuery {
  readonly profile: string;
  readonly state?: WithdrawalRequestState;
  /** Only requests with one of these userOrders (a label filter's matches). */
  readonly userOrders?: readonly string[];
  /** Only single withdrawals, not the lines of batch payouts (which are decided on as a whole). */
  readonly singleOnly?: boolean;
  readonly limit: number;
  readonly after?: string | null;
}

/** Requests newest first by (created_at, id), keyset-paged. */
export function listWithdrawalRequests(db: ReadableDB, query: WithdrawalRequestQuery): Page<WithdrawalRequest> {
  const limit = checkPageSize(query.limit);
  const where = ['profile = @profile'];
  const params: Record<string, string | number> = { profile: query.profile, fetch: limit + 1 };
  if (query.state !== undefined) {
    where.push('state = @state');
    params.state = query.state;
  }
  if (query.userOrders !== undefined) {
    where.push('user_order IN (SELECT value FROM json_each(@userOrders))');
    params.userOrders = JSON.stringify(query.userOrders);
  }
  if (query.singleOnly === true) where.push('batch_hash IS NULL');
  if (query.after !== undefined && query.after !== null) {
    const position = decodeCursor(query.after);
    where.push('(created_at, id) < (@afterAt, @afterId)');
    params.afterAt = position.at;
    params.afterId = position.id;
  }
  const sql = `SELECT ${COLUMNS} FROM withdrawal_requests WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @fetch`;
  const rows = (dynamic(db, sql).all(params) as RequestRow[]).map(toRequest);
  return toPage(rows, limit, (request) => ({ at: request.createdAt, id: request.id }));
}

/**
 * A profile's requests changed at or after `since` (ms), oldest change first, keyset-paged by (updated_at, id): what
 * the notifications look through for orders that became final.
 */
export function listWithdrawalRequestsChangedSince(
  db: ReadableDB,
  profile: string,
  since: number,
  limit: number,
  after: { readonly at: number; readonly id: number } | null = null,
): WithdrawalRequest[] {
  const fetch = checkPageSize(limit);
  const sql = after === null
    ? `SELECT ${COLUMNS} FROM withdrawal_requests WHERE profile = @profile AND updated_at >= @since ORDER BY updated_at, id LIMIT @fetch`
    : `SELECT ${COLUMNS} FROM withdrawal_requests WHERE profile = @profile AND updated_at >= @since AND (updated_at, id) > (@afterAt, @afterId)
       ORDER BY updated_at, id LIMIT @fetch`;
  const params = after === null ? { profile, since, fetch } : { profile, since, fetch, afterAt: after.at, afterId: after.id };
  return (dynamic(db, sql).all(params) as RequestRow[]).map(toRequest);
}

/** Requests handed to the platform whose outcome is not final yet: what the tracker must poll (oldest first). */
export function listUnsettledWithdrawalRequests(db: ReadableDB, profile: string): WithdrawalRequest[] {
  return (statements(db).unsettled.all(profile) as RequestRow[]).map(toRequest);
}

// ---- platform order status ----

const FINAL: ReadonlySet<string> = new Set(FINAL_ORDER_STATUSES);

/**
 * Order of the spec's states (spec "States and transitions"): pendingConfirm 1; pendingTransfer,
 * pendingFinancialConfirmation and any pending name the desk does not know 2 (spec rule 1: pending names may change);
 * pendingCallback 3; success, WithdrawRefund, fail 4.
 */
export function orderStatusRank(status: string): number {
  if (FINAL.has(status)) return 4;
  if (status === 'pendingConfirm') return 1;
  if (status === 'pendingCallback') return 3;
  return 2;
}

export type OrderStatusOutcome = 'advanced' | 'unchanged' | 'ignoredBackward' | 'ignoredAfterFinal';

export interface OrderStatusResult {
  /**
   * advanced: the current status moved to `status`. unchanged: it already was `status`, or `status` ranks level
   * with it (two pending names, order unknown: the first kept). ignoredBackward: `status` ranks below the current
   * one. ignoredAfterFinal: the current status is final and `status` differs (worth an audit entry).
   */
  readonly outcome: OrderStatusOutcome;
  readonly previous: string | null;
  readonly current: string | null;
  /** False when this (request, status) pair had been observed before (a duplicate delivery). */
  readonly historyAdded: boolean;
  /** Fields of the platform record that disagree with the request (amount compared as a decimal). */
  readonly mismatches: readonly string[];
}

export interface OrderStatusObservation {
  readonly id: number;
  readonly status: string;
  readonly observedAt: number;
  readonly source: OrderStatusSource;
  readonly raw: Readonly<Record<string, unknown>>;
}

function stringField(raw: Readonly<Record<string, unknown>>, key: string): string | null {
  const value = raw[key];
  return typeof value === 'string' ? value : null;
}

function decideOutcome(previous: string | null, status: string): OrderStatusOutcome {
  if (previous === null) return 'advanced';
  if (previous === status) return 'unchanged';
  if (FINAL.has(previous)) return 'ignoredAfterFinal';
  const difference = orderStatusRank(status) - orderStatusRank(previous);
  if (difference > 0) return 'advanced';
  if (difference < 0) return 'ignoredBackward';
  return 'unchanged';
}

function recordMismatches(request: RequestRow, raw: Readonly<Record<string, unknown>>): string[] {
  const mismatches: string[] = [];
  const amount = stringField(raw, 'amount');
  if (amount !== null && (!AMOUNT_SYNTAX.test(amount) || !new Money(amount).equals(new Money(request.amount)))) mismatches.push('amount');
  const compare: [string, string][] = [
    ['currency', request.currency],
    ['toAddress', request.to_address],
    ['withdrawType', request.withdraw_type],
  ];
  for (const [key, expected] of compare) {
    const value = stringField(raw, key);
    if (value !== null && value !== expected) mismatches.push(key);
  }
  return mismatches;
}

/**
 * Records an observed orderStatus of a request: appends it to the history (once per request and status, §10.5) and
 * moves the current status only forward, never out of a final state. `raw` is the verified withdrawal order record.
 */
export function recordOrderStatus(
  db: WritableDB,
  requestId: number,
  status: string,
  source: OrderStatusSource,
  raw: Readonly<Record<string, unknown>>,
  now: number = Date.now(),
): OrderStatusResult {
  if (status === '') throw invalidArgument('orderStatus is empty');
  return writeTransaction(db, () => {
    const s = statements(db);
    const request = s.byId.get(requestId) as RequestRow | undefined;
    if (request === undefined) throw new StoreError('notFound', `no withdrawal request ${requestId}`);
    const rawUserOrder = stringField(raw, 'userOrder');
    if (rawUserOrder !== null && rawUserOrder !== request.user_order) {
      throw invalidArgument(`the record's userOrder ${rawUserOrder} is not request ${requestId}'s (${request.user_order})`);
    }
    const rawStatus = stringField(raw, 'orderStatus');
    if (rawStatus !== null && rawStatus !== status) throw invalidArgument(`the record's orderStatus ${rawStatus} is not ${status}`);

    const rawJson = canonicalJson(raw);
    const historyAdded = s.addHistory.run({ requestId, status, now, source, raw: rawJson }).changes === 1;
    const previous = request.order_status;
    const outcome = decideOutcome(previous, status);
    const feeText = stringField(raw, 'fee');
    const fields = {
      id: requestId,
      apiOrder: stringField(raw, 'apiOrder'),
      fee: feeText !== null && AMOUNT_SYNTAX.test(feeText) ? feeText : null,
      txid: stringField(raw, 'txid'),
    };
    if (outcome === 'advanced') {
      s.advance.run({ ...fields, status, now, raw: rawJson });
    } else if (outcome === 'unchanged' && previous === status) {
      s.fillIn.run({ ...fields, raw: rawJson });
    }
    return {
      outcome,
      previous,
      current: outcome === 'advanced' ? status : previous,
      historyAdded,
      mismatches: recordMismatches(request, raw),
    };
  });
}

/**
 * A request as reconciliation sees it, its order's life from the verified order records of its status history (never
 * from the request row's cached status): when the desk first saw the order exist at the platform, and its final status
 * with when the desk first saw it (null: never).
 */
export interface ReconciledRequest {
  readonly request: WithdrawalRequest;
  readonly firstStatusAt: number | null;
  readonly finalStatus: { readonly status: (typeof FINAL_ORDER_STATUSES)[number]; readonly at: number } | null;
}

/**
 * A profile's requests in a currency that reached, or may have reached, the platform (every state but those before
 * sending and those that ended without it), oldest first.
 */
export function requestsForReconciliation(db: ReadableDB, profile: string, currency: string): ReconciledRequest[] {
  type Row = RequestRow & { first_status_at: number | null; final_status: (typeof FINAL_ORDER_STATUSES)[number] | null; final_status_at: number | null };
  const rows = statements(db).forReconciliation.all(profile, currency) as Row[];
  return rows.map((row) => ({
    request: toRequest(row),
    firstStatusAt: row.first_status_at,
    finalStatus: row.final_status === null || row.final_status_at === null ? null : { status: row.final_status, at: row.final_status_at },
  }));
}

/** The currencies a profile has withdrawal requests in. */
export function withdrawalCurrencies(db: ReadableDB, profile: string): string[] {
  return statements(db).currencies.all(profile) as string[];
}

/** When the desk first recorded an order status from a verified callback for this profile, or null: never. */
export function firstOrderCallbackAt(db: ReadableDB, profile: string): number | null {
  return (statements(db).firstCallback.get(profile) as number | null | undefined) ?? null;
}

/** Every status observed for a request, in the order first observed. */
export function listOrderStatusHistory(db: ReadableDB, requestId: number): OrderStatusObservation[] {
  const rows = statements(db).history.all(requestId) as { id: number; status: string; observed_at: number; source: OrderStatusSource; raw_json: string }[];
  return rows.map((row) => ({ id: row.id, status: row.status, observedAt: row.observed_at, source: row.source, raw: parseObjectColumn(row.raw_json) }));
}
