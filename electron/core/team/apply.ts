// What a verified team row changes in this workstation's local tables (the ones the engine reads), using the same
// store functions the withdrawal desk and the sync use, and the projection rows a decision writes to the team
// database beside its statement. Only rows the ChainVerifier passed reach here; a row's effect is derived from its
// signed statement, never from a projection row.
import { isFinalOrderStatus } from '../../protocol';
import type { DeskContext } from '../context';
import { encodeIntent, intentFingerprint, type WithdrawalIntent } from '../statements/intent';
import { WORKSTATION_ENROLMENT } from '../audit/trail';
import { parseStatement, type Statement } from '../statements/statement';
import {
  createProfile,
  createWithdrawalRequest,
  ensureOperator,
  getOperatorKey,
  getOperatorRecord,
  getProfile,
  getWithdrawalRequestByIntentHash,
  getWithdrawalRequestByUserOrder,
  moveWithdrawalRequest,
  recordOrderStatus,
  saveOperatorKey,
  type AuditRow,
  type WithdrawalRequest,
} from '../store';
import type { WithdrawalEvent } from '../../contract';
import { settleApprovals } from '../withdrawals/desk';
import type { ProjectionWrite } from './shared-store';

/** The desk-signed row that tells other workstations about a merchant profile (no credentials: those stay local). */
export const TEAM_PROFILE_ACTION = 'team/profile';

const DECISION_EVENTS: Readonly<Record<string, WithdrawalEvent>> = { reject: 'reject', cancel: 'cancel', submit: 'submit' };

function requestOf(context: DeskContext, statement: Statement): WithdrawalRequest | undefined {
  return statement.profile === null ? undefined : getWithdrawalRequestByIntentHash(context.db, statement.profile, statement.subject);
}

/**
 * Applies a verified row pulled from the team database to the local tables (inside the caller's transaction, with
 * the row itself). Returns the local request it changed, for the `withdrawals/changed` event.
 */
export function applyTeamRow(context: DeskContext, row: AuditRow): WithdrawalRequest | null {
  const statement = parseStatement(row.statement);
  if (!statement) return null;
  const now = context.now();
  if (statement.kind === 'request' && statement.profile !== null) {
    const intent = statement.body['intent'] as unknown as WithdrawalIntent;
    if (getWithdrawalRequestByUserOrder(context.db, intent.userOrder)) return null;
    return createWithdrawalRequest(
      context.db,
      {
        profile: statement.profile,
        currency: intent.currency,
        amount: intent.amount,
        toAddress: intent.toAddress,
        withdrawType: intent.withdrawType,
        memo: intent.memo,
        userOrder: intent.userOrder,
        initiator: statement.operator ?? '',
        requiredApprovals: intent.requiredApprovals,
        intentJson: encodeIntent(intent),
        intentHash: statement.subject,
        fingerprint: intentFingerprint(intent),
        requestSeq: row.seq,
      },
      now,
    );
  }
  if (statement.kind === 'approve') {
    const request = requestOf(context, statement);
    if (request) settleApprovals(context, request);
    return request ?? null;
  }
  const event = DECISION_EVENTS[statement.kind];
  if (event !== undefined) {
    const request = requestOf(context, statement);
    if (request) moveWithdrawalRequest(context.db, request.id, event, now);
    return request ?? null;
  }
  if (statement.kind === 'system') return applySystemRow(context, statement, now);
  return null;
}

/** The desk-signed events other workstations act on: a profile's public description, and order statuses. */
function applySystemRow(context: DeskContext, statement: Statement, now: number): WithdrawalRequest | null {
  const details = (statement.body['details'] ?? {}) as Record<string, unknown>;
  if (statement.body['action'] === TEAM_PROFILE_ACTION) {
    const { name, baseUrl, merchantId } = details;
    if (typeof name === 'string' && typeof baseUrl === 'string' && typeof merchantId === 'string' && !getProfile(context.db, name)) {
      createProfile(context.db, { name, baseUrl, merchantId }, now);
    }
    return null;
  }
  const status = reportedStatus(statement);
  if (status === null) return null;
  const request = getWithdrawalRequestByUserOrder(context.db, statement.subject);
  if (!request) return null;
  const raw = { userOrder: statement.subject, orderStatus: status, ...(typeof details['apiOrder'] === 'string' ? { apiOrder: details['apiOrder'] } : {}), ...(typeof details['txid'] === 'string' ? { txid: details['txid'] } : {}) };
  const result = recordOrderStatus(context.db, request.id, status, 'query', raw, now);
  moveWithdrawalRequest(context.db, request.id, 'accepted', now);
  if (result.current !== null && isFinalOrderStatus(result.current)) moveWithdrawalRequest(context.db, request.id, 'final', now);
  return request;
}

/** Statements that give an operator a new sealed key (or re-seal it): other workstations fetch it after applying them. */
export const SEALED_KEY_KINDS: ReadonlySet<string> = new Set(['found', 'accept', 'passphrase']);

/**
 * An operator's sealed key as the team database keeps it (sealed by their passphrase, which never leaves their
 * fingers): the row a workstation that never saw the operator's acceptance needs to let them sign there.
 */
export function operatorKeyProjection(context: DeskContext, profile: string, name: string, keyId: string): ProjectionWrite | null {
  const record = getOperatorRecord(context.db, profile, name);
  const key = record ? getOperatorKey(context.db, record.id, keyId) : undefined;
  if (!record || !key) return null;
  return { table: 'operators', key: `${profile}/${record.name}/${key.keyId}`, row: { profile, name: record.name, keyId: key.keyId, publicKey: key.publicKey, sealedKey: key.sealedKeyJson } };
}

/**
 * Saves the sealed keys of the team database's operators rows, each only where the verified roster enrolled that very
 * key for that operator (a row naming any other key is ignored); an unsealing still checks the key against the roster.
 */
export function saveSealedKeys(context: DeskContext, rows: readonly ProjectionWrite[]): void {
  for (const projected of rows) {
    const { profile, name, keyId, publicKey, sealedKey } = projected.row;
    if (typeof profile !== 'string' || typeof name !== 'string' || typeof keyId !== 'string' || typeof publicKey !== 'string' || typeof sealedKey !== 'string') continue;
    const snapshot = context.trail.roster(profile).at(name);
    if (!snapshot || snapshot.keyId !== keyId || snapshot.publicKey !== publicKey) continue;
    const record = ensureOperator(context.db, profile, name, context.now());
    if (getOperatorKey(context.db, record.id, keyId)?.sealedKeyJson !== sealedKey) saveOperatorKey(context.db, record.id, { keyId, publicKey, sealedKeyJson: sealedKey }, context.now());
  }
}

/** A request's row in the team database's withdrawal_requests table (checked against the statements on reading). */
export function requestProjection(request: WithdrawalRequest): ProjectionWrite {
  return {
    table: 'withdrawal_requests',
    key: request.userOrder,
    row: {
      userOrder: request.userOrder,
      profile: request.profile,
      state: request.state,
      currency: request.currency,
      amount: request.amount,
      toAddress: request.toAddress,
      initiator: request.initiator,
      intentHash: request.intentHash,
      requestSeq: request.requestSeq,
    },
  };
}

/** The status an order-status system row reports (`withdrawals/accepted` or `withdrawals/status`), or null. */
function reportedStatus(statement: Statement): string | null {
  const details = (statement.body['details'] ?? {}) as Record<string, unknown>;
  const action = statement.body['action'];
  const status = action === 'withdrawals/accepted' ? details['orderStatus'] : action === 'withdrawals/status' ? details['status'] : undefined;
  return typeof status === 'string' && status !== '' ? status : null;
}

/**
 * The projection rows a verified row implies: the request's state and amount, each approval, each order status, and
 * each enrolled workstation.
 */
export function projectionsFor(context: DeskContext, row: AuditRow): ProjectionWrite[] {
  const statement = parseStatement(row.statement);
  if (!statement || statement.profile === null) return [];
  if (SEALED_KEY_KINDS.has(statement.kind) && statement.operator !== null) {
    const sealed = operatorKeyProjection(context, statement.profile, statement.operator, statement.keyId);
    return sealed === null ? [] : [sealed];
  }
  if (statement.kind === 'action' && statement.body['action'] === WORKSTATION_ENROLMENT) {
    const details = statement.body['details'] as Record<string, unknown>;
    return [{ table: 'workstations', key: String(details['workstation']), row: { workstation: String(details['workstation']), publicKey: String(details['publicKey']), enrolledBy: statement.operator, seq: row.seq } }];
  }
  const request = statement.kind === 'system' ? getWithdrawalRequestByUserOrder(context.db, statement.subject) : requestOf(context, statement);
  if (!request || request.profile !== statement.profile) return [];
  const writes: ProjectionWrite[] = [requestProjection(request)];
  const status = statement.kind === 'system' ? reportedStatus(statement) : null;
  if (status !== null) writes.push({ table: 'order_statuses', key: `${request.userOrder}/${row.seq}`, row: { userOrder: request.userOrder, status, seq: row.seq } });
  if (statement.kind === 'approve' || statement.kind === 'reject') {
    writes.push({
      table: 'approvals',
      key: `${request.userOrder}/${statement.operator ?? ''}`,
      row: { userOrder: request.userOrder, operator: statement.operator, decision: statement.kind, seq: row.seq },
    });
  }
  return writes;
}
