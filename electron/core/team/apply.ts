// What a verified team row changes in this workstation's local tables (the ones the engine reads), using the same
// store functions the withdrawal desk and the sync use, and the projection rows a decision writes to the team
// database beside its statement. Only rows the ChainVerifier passed reach here; a row's effect is derived from its
// signed statement, never from a projection row.
import type { Kernel } from '../kernel/kernel';
import {
  type AuditRecorder,
  type AuditRow,
  type OrderEvidenceKeys,
  orderEvidenceProblem,
  reportedOrderStatus,
  WORKSTATION_ENROLMENT,
} from '../audit';
import { createProfile, getProfile, type ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import {
  batchIntentHash,
  importPublicKey,
  intentHash,
  isBatchIntent,
  isWithdrawalKind,
  keyIdOf,
  parseStatement,
  type Statement,
  STATEMENT_VERSION,
  TEAM_PROFILE_ACTION,
  type WithdrawalIntent,
} from '../ledger';
import { z } from 'zod';
import { forgetBookRow, recordBookProposal } from '../address-book';
import { parseBookRef, signedImportLines, signedLabelSet, writeLabel } from '../labels';
import { moveBatchLines, settleBatchApprovals, storeBatchRequest } from '../payouts';
import {
  decisionReplayed,
  getPayoutBatchByHash,
  getWithdrawalRequestByIntentHash,
  getWithdrawalRequestByUserOrder,
  isReplayedDecision,
  orderReported,
  type PayoutBatch,
  recordOrderStatus,
  settleApprovals,
  storeIntentRequest,
  type WithdrawalRequest,
} from '../withdrawals';
import type { ContractEvent } from '../../contract';
import { deskStateProjectionsFor } from './desk-projections';
import type { ProjectionWrite } from './shared-store';

/** The parts of the desk this file's functions use (each its module's interface, built by that module; the engine passes them together: engine.ts deskParts). */
type DeskParts = Kernel & AuditRecorder & ProfileSelection & MerchantConnection;



/**
 * Action namespaces whose rows change shared state (every operator action of theirs is applied below; no desk event
 * is in them today): one this version does not know was written by a newer workstation and is reported. Other actions
 * and desk events are audit records only.
 */
const CARRIED_ACTION_NAMESPACES = ['labels/', 'addressbook/'];

/** What applying a verified row did: the events the faces need, or why nothing was applied. */
export interface AppliedTeamRow {
  readonly events: readonly ContractEvent[];
  /** Why this version applied nothing for the row (kept in the audit log all the same), or null. */
  readonly notApplied: string | null;
}

const NOTHING_TO_APPLY: AppliedTeamRow = { events: [], notApplied: null };

function changed(...events: ContractEvent[]): AppliedTeamRow {
  return { events, notApplied: null };
}

function notApplied(reason: string): AppliedTeamRow {
  return { events: [], notApplied: reason };
}

function requestChanged(request: WithdrawalRequest | undefined): AppliedTeamRow {
  return request ? changed({ type: 'withdrawals/changed', id: String(request.id) }) : NOTHING_TO_APPLY;
}

const BATCH_CHANGED = changed({ type: 'withdrawals/changed', id: null });

function requestOf(context: DeskParts, statement: Statement): WithdrawalRequest | undefined {
  return statement.profile === null ? undefined : getWithdrawalRequestByIntentHash(context.db, statement.profile, statement.subject);
}

/** The batch payout a decision is signed under (its subject is the batch hash), if this workstation holds it. */
function batchOf(context: DeskParts, statement: Statement): PayoutBatch | undefined {
  return statement.profile === null ? undefined : getPayoutBatchByHash(context.db, statement.profile, statement.subject);
}

/**
 * Applies a verified row pulled from the team database to the local tables (inside the caller's transaction, with
 * the row itself, in a savepoint of its own): a row this version does not understand, or whose effect fails, changes
 * nothing here and answers why, so replication goes on (a newer workstation may write rows an older one cannot read).
 */
export function applyTeamRow(context: DeskParts, row: AuditRow, orderKeys: OrderKeysFor = () => null): AppliedTeamRow {
  try {
    return context.trail.transaction(() => applyStatement(context, row, orderKeys));
  } catch (error) {
    return notApplied(`applying it failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The keys this workstation checks an order's signed evidence with, by profile (null: none). */
export type OrderKeysFor = (profile: string) => OrderEvidenceKeys | null;

function applyStatement(context: DeskParts, row: AuditRow, orderKeys: OrderKeysFor): AppliedTeamRow {
  const statement = parseStatement(row.statement);
  if (!statement) return notApplied('its statement is not one this version reads');
  if (statement.v > STATEMENT_VERSION) return notApplied(`it is a version ${statement.v} statement; this workstation reads version ${STATEMENT_VERSION}`);
  const now = context.now();
  if (statement.kind === 'request') return applyRequest(context, statement, row.seq, now);
  const batch = isWithdrawalKind(statement.kind) ? batchOf(context, statement) : undefined;
  if (batch) return applyBatchDecision(context, batch, statement, now);
  if (statement.kind === 'approve') {
    const request = requestOf(context, statement);
    if (request) settleApprovals(context, request);
    return requestChanged(request);
  }
  if (isReplayedDecision(statement.kind)) {
    const request = requestOf(context, statement);
    if (request) decisionReplayed(context.db, request.id, statement.kind, now);
    return requestChanged(request);
  }
  if (statement.kind === 'book' || statement.kind === 'unbook') return applyBookStatement(context, statement);
  if (statement.kind === 'action') return applyAction(context, statement);
  if (statement.kind === 'system') {
    const action = String(statement.body['action'] ?? '');
    return isCarriedAction(action) ? notApplied(`this version does not know the desk event ${action}`) : applySystemRow(context, statement, now, orderKeys);
  }
  return NOTHING_TO_APPLY;
}

function isCarriedAction(action: string): boolean {
  return CARRIED_ACTION_NAMESPACES.some((namespace) => action.startsWith(namespace));
}

/** A single withdrawal's request (body.intent) or a batch payout's (body.batch, stored as payouts/batch.ts stores it). */
function applyRequest(context: DeskParts, statement: Statement, seq: number, now: number): AppliedTeamRow {
  const { profile } = statement;
  if (profile === null) return notApplied('a request without a profile');
  const batch = statement.body['batch'];
  if (batch !== undefined) {
    if (!isBatchIntent(batch) || batchIntentHash(batch) !== statement.subject) return notApplied('its batch is not one this version reads (or does not hash to its subject)');
    if (getPayoutBatchByHash(context.db, profile, statement.subject)) return NOTHING_TO_APPLY;
    const source = typeof statement.body['source'] === 'string' ? statement.body['source'] : 'payouts.csv';
    storeBatchRequest(context, { profile, batchHash: statement.subject, batch, source, initiator: statement.operator ?? '', requestSeq: seq });
    return BATCH_CHANGED;
  }
  const intent = statement.body['intent'] as unknown as WithdrawalIntent | undefined;
  if (intent === null || typeof intent !== 'object' || typeof intent.userOrder !== 'string') return notApplied('a request that carries neither a withdrawal intent nor a batch');
  if (getWithdrawalRequestByUserOrder(context.db, intent.userOrder)) return NOTHING_TO_APPLY;
  if (intentHash(intent) !== statement.subject) return notApplied("a request whose subject is not its intent's hash");
  return requestChanged(storeIntentRequest(context.db, { profile, intent, initiator: statement.operator ?? '', requestSeq: seq }, now));
}

/** A decision about a whole batch moves its lines as payouts/batch.ts does; a line's submit names its userOrder. */
function applyBatchDecision(context: DeskParts, batch: PayoutBatch, statement: Statement, now: number): AppliedTeamRow {
  if (statement.kind === 'approve') settleBatchApprovals(context, batch);
  else if (statement.kind === 'reject' || statement.kind === 'cancel') moveBatchLines(context, batch, statement.kind);
  else if (statement.kind === 'submit') {
    const userOrder = statement.body['userOrder'];
    const line = typeof userOrder === 'string' ? getWithdrawalRequestByUserOrder(context.db, userOrder) : undefined;
    if (!line || line.batchHash !== batch.batchHash || line.profile !== batch.profile) return notApplied(`a submission of batch ${batch.id} naming no line of it`);
    decisionReplayed(context.db, line.id, 'submit', now);
    return requestChanged(line);
  }
  return BATCH_CHANGED;
}

/** The desk's address-book row a `book` proposal adds (with its label) or an `unbook` removes; the roster replays the rest. */
function applyBookStatement(context: DeskParts, statement: Statement): AppliedTeamRow {
  const book = parseBookRef(statement.subject);
  if (statement.profile === null || typeof book === 'string') return notApplied(`its address-book subject does not read: ${typeof book === 'string' ? book : 'no profile'}`);
  if (statement.kind === 'unbook') forgetBookRow(context, statement.profile, book.chain, book.address);
  else recordBookProposal(context, statement.profile, book.chain, book.address, typeof statement.body['label'] === 'string' ? statement.body['label'] : null);
  return changed({ type: 'labels/changed' });
}

/** Labels and address-book actions, applied from what their statements sign; other actions are audit records only. */
function applyAction(context: DeskParts, statement: Statement): AppliedTeamRow {
  const action = String(statement.body['action'] ?? '');
  const details = statement.body['details'];
  const { profile } = statement;
  const carried = isCarriedAction(action);
  if (carried && profile === null) return notApplied(`a ${action} action without a profile`);
  if (profile === null) return NOTHING_TO_APPLY;
  const by = statement.operator ?? '';
  switch (action) {
    case 'labels/set': {
      const line = signedLabelSet(statement.subject, details);
      if (typeof line === 'string') return notApplied(line);
      writeLabel(context, profile, line, by);
      return changed({ type: 'labels/changed' });
    }
    case 'labels/import': {
      const lines = signedImportLines(details);
      if (typeof lines === 'string') return notApplied(lines);
      for (const line of lines) writeLabel(context, profile, line, by);
      return changed({ type: 'labels/changed' });
    }
    case 'addressbook/label': {
      // Its label is null when cleared: the same line as `labels/set book` with an empty label.
      const fields = (details ?? {}) as Record<string, unknown>;
      const line = signedLabelSet(`book:${statement.subject}`, { label: fields['label'] ?? '', note: fields['note'] ?? null });
      if (typeof line === 'string') return notApplied(line);
      writeLabel(context, profile, line, by);
      return changed({ type: 'labels/changed' }, { type: 'operators/changed' });
    }
    case 'addressbook/forget': {
      const book = parseBookRef(statement.subject);
      if (typeof book === 'string') return notApplied(book);
      forgetBookRow(context, profile, book.chain, book.address);
      return changed({ type: 'operators/changed' });
    }
    default:
      return carried ? notApplied(`this version does not know the action ${action}`) : NOTHING_TO_APPLY;
  }
}

const orderFieldsSchema = z.object({ apiOrder: z.string().optional(), txid: z.string().nullable().optional() });

/**
 * The desk-signed events other workstations act on: a profile's public description, and order statuses, these only
 * with the service's signed evidence (audit/order-evidence.ts); without it the row stays in the audit log, not applied.
 */
function applySystemRow(context: DeskParts, statement: Statement, now: number, orderKeys: OrderKeysFor): AppliedTeamRow {
  const details = (statement.body['details'] ?? {}) as Record<string, unknown>;
  if (statement.body['action'] === TEAM_PROFILE_ACTION) {
    const { name, baseUrl, merchantId } = details;
    if (typeof name === 'string' && typeof baseUrl === 'string' && typeof merchantId === 'string' && !getProfile(context.db, name)) {
      // A description never creates a profile by itself: the profile comes with its verified founding (pinned in the
      // genesis or put in force by a profile addition), and under the merchant ID that founding signed.
      if (!describesFoundedProfile(context, name, merchantId)) return notApplied(`profile ${name} has no verified founding under merchant ${merchantId} at this workstation`);
      createProfile(context.db, { name, baseUrl, merchantId }, now);
    }
    return NOTHING_TO_APPLY;
  }
  const reported = reportedOrderStatus(statement);
  if (reported === null) return NOTHING_TO_APPLY;
  const { status } = reported;
  const request = getWithdrawalRequestByUserOrder(context.db, statement.subject);
  if (!request) return NOTHING_TO_APPLY;
  if (request.profile !== statement.profile) return notApplied(`it reports order ${statement.subject} under profile ${statement.profile ?? 'none'}, which is not the order's`);
  const problem = orderEvidenceProblem(statement, orderKeys(request.profile));
  if (problem !== null) return notApplied(problem);
  const fields = orderFieldsSchema.safeParse(details);
  const { apiOrder, txid } = fields.success ? fields.data : {};
  const raw = { userOrder: statement.subject, orderStatus: status, ...(apiOrder === undefined ? {} : { apiOrder }), ...(typeof txid === 'string' ? { txid } : {}) };
  const result = recordOrderStatus(context.db, request.id, status, 'query', raw, now);
  orderReported(context.db, request.id, result.current, now);
  return requestChanged(request);
}

/**
 * The public keys a roster row names, as rows of the team database's operators table (IT's view of who signs with
 * which key where; never a private key, sealed or not: each workstation keeps its own keys).
 */
function operatorKeyProjections(statement: Statement): ProjectionWrite[] {
  const profile = statement.profile ?? '';
  const row = (name: string, publicKey: unknown, workstation: unknown): ProjectionWrite[] =>
    typeof publicKey === 'string' && importPublicKey(publicKey) !== null
      ? [{ table: 'operators', key: `${profile}/${name}/${keyIdOf(publicKey)}`, row: { profile, name, keyId: keyIdOf(publicKey), publicKey, workstation: typeof workstation === 'string' ? workstation : null } }]
      : [];
  switch (statement.kind) {
    case 'found': {
      const admins = statement.body['admins'];
      return Array.isArray(admins) ? admins.flatMap((admin) => (admin !== null && typeof admin === 'object' && !Array.isArray(admin) && typeof admin['name'] === 'string' ? row(admin['name'], admin['publicKey'], null) : [])) : [];
    }
    case 'accept':
      return row(statement.subject, statement.body['publicKey'], null);
    case 'device':
      return row(statement.subject, statement.body['publicKey'], statement.body['workstation']);
    default:
      return [];
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

/**
 * The projection rows a verified row implies: the request's state and amount, each approval, each order status, each
 * enrolled workstation, and the batches, labels and address-book rows it changes (desk-projections.ts).
 */
export function projectionsFor(context: DeskParts, row: AuditRow): ProjectionWrite[] {
  const statement = parseStatement(row.statement);
  if (!statement || statement.profile === null) return [];
  if (statement.kind === 'found' || statement.kind === 'accept' || statement.kind === 'device') return operatorKeyProjections(statement);
  if (statement.kind === 'action' && statement.body['action'] === WORKSTATION_ENROLMENT) {
    const details = statement.body['details'] as Record<string, unknown>;
    return [{ table: 'workstations', key: String(details['workstation']), row: { workstation: String(details['workstation']), publicKey: String(details['publicKey']), enrolledBy: statement.operator, seq: row.seq } }];
  }
  const deskState = deskStateProjectionsFor(context, statement);
  const request = statement.kind === 'system' ? getWithdrawalRequestByUserOrder(context.db, statement.subject) : requestOf(context, statement);
  if (!request || request.profile !== statement.profile) return deskState;
  const writes: ProjectionWrite[] = [requestProjection(request), ...deskState];
  const status = statement.kind === 'system' ? (reportedOrderStatus(statement)?.status ?? null) : null;
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

/** Whether a `team/profile` description names a profile whose verified roster is founded under that merchant ID. */
function describesFoundedProfile(context: DeskParts, name: string, merchantId: string): boolean {
  const roster = context.trail.roster(name);
  return roster.founded && (roster.foundingMerchantId === null || roster.foundingMerchantId === merchantId);
}
