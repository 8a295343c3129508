// The contract: one map of methods named `domain/verb`, each with the zod schema its request must pass and the
// type it answers. The engine implements it, IPC and the test harness carry it, the renderer and CLI call it.
import { z } from 'zod';
import { ADDRESS_TYPES, CHAINS, CURRENCY_SYMBOL_MAX_LENGTH, CURRENCY_SYMBOL_PATTERN, serviceBaseUrlProblem, WITHDRAWAL_CURRENCIES } from '../chains';
import { unsafeTextProblem } from './display-text';
import type { DESKTOP_CONTRACT } from './desktop';
import type * as Dto from './dto';
import { WITHDRAWAL_STATES } from './dto';
import { LABEL_MAX_LENGTH, LABEL_TYPES, MEMO_MAX_LENGTH, NOTE_MAX_LENGTH } from './limits';
import { canonicalTimeZone, timeZoneProblem } from './time-zone';
import { ORDER_FINAL_SCOPES, type ApprovalsWaitingView, type NotificationPreferencesView } from './notifications';
import type { AssetTotalsView, BalanceHistoryView } from './balance-totals';
import type { CallbackRefusalsView } from './callback-refusals';
import type { ConnectionPanelView } from './connection-panel';
import type { ApprovalsQueueView, PayoutBatchSummary, PayoutBatchView, PayoutSubmitResult } from './payouts';
import type { ApproverView } from './approver-view';
import type { ControlProofView } from './control-proof';
import type { PoisoningAlertView, RadarView } from './radar';
import type { AuditorPackWritten, PeriodStatement } from './period-statement';
import { accountingFormat, accountMappingText, type AccountingExport } from './accounting';
import type { ReconciliationReport } from './reconciliation';
import { WEBHOOK_EVENT_TYPES, type WebhookDeliveryView, type WebhookEndpointAdded, type WebhookEndpointView } from './webhooks';
import { STUCK_THRESHOLD_RANGE_MS, WATCHED_ORDER_STATUSES, type StuckThresholdsView } from './stuck-orders';

// ---- field schemas shared by requests ---------------------------------------------------------------------------
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/;
export const profileName = z.string().regex(PROFILE_NAME, 'a profile name is 1 to 64 letters, digits, spaces, "_", "." or "-"');
/** Text people type (memos, reasons, names): control and text-direction characters are refused (issue 9, item 10). */
export function safeText(what: string) {
  return z.string().superRefine((text, context) => {
    const problem = unsafeTextProblem(text, what);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });
}
export const operatorName = safeText('the operator name').pipe(
  z.string().trim().min(1, 'enter the operator name').max(64, 'at most 64 characters').refine((name) => !name.includes('\n'), 'an operator name is one line'),
);
export const passphrase = z.string().min(1, 'enter the passphrase').max(1024);
/** Who is acting: the engine checks the passphrase and the role on every privileged action. */
export const actingOperator = z.strictObject({ operator: operatorName, passphrase });
/** A policy tier's approval groups (issue 20): alternatives (OR) of groups that must all approve (AND), with counts. */
const approvalGroupTiers = z
  .array(z.array(z.strictObject({ group: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'a group name is lower-case letters, digits and dashes'), count: z.number().int().min(1).max(5) })).min(1).max(4))
  .min(1)
  .max(4);
/** A team database URL (its password is moved to the keychain, never stored with the URL). */
const teamDatabaseUrl = z.string().min(1).max(2000);
/** How this workstation is named in the team (shown to the others). */
/** The desk's genesis fingerprint the joiner confirms (compared out of band with a workstation already on the desk). */
const genesisFingerprint = z.string().trim().min(1, 'give the desk genesis fingerprint (ABCD-EFGH-IJKL-MNOP) an admin on the desk reads you').max(64);
const workstationName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/, 'a workstation name is 1 to 64 letters, digits, spaces, dots, dashes or underscores');
export const currency = z.enum(WITHDRAWAL_CURRENCIES, { error: 'unknown currency symbol' });
/**
 * A currency this desk can withdraw in: one of the 13 it has address rules for (§11). Any other symbol, a currency the
 * service added later included, is refused before anything else happens (no passphrase is asked), saying why.
 */
export const withdrawalCurrency = z.enum(WITHDRAWAL_CURRENCIES, {
  error: (issue) =>
    `this desk has no address rules for ${typeof issue.input === 'string' ? JSON.stringify(issue.input.slice(0, CURRENCY_SYMBOL_MAX_LENGTH)) : 'that currency'}, ` +
    `so it cannot withdraw in it: it withdraws in ${WITHDRAWAL_CURRENCIES.join(', ')} (a currency the service added later is shown in balances and deposits)`,
});
/**
 * Any currency symbol the service may list, including one added after this desk was built (spec "Supported chains"
 * rule 4): deposits and balances in it are shown; the engine refuses withdrawals in it, saying why.
 */
export const reportedCurrency = z
  .string()
  .max(CURRENCY_SYMBOL_MAX_LENGTH, `a currency symbol is at most ${CURRENCY_SYMBOL_MAX_LENGTH} characters`)
  .regex(CURRENCY_SYMBOL_PATTERN, 'a currency symbol looks like "trx.usdt": lower-case letters, digits and "_", with at most one "."');
export const chain = z.enum(CHAINS, { error: 'unknown chain' });
export const addressType = z.enum(ADDRESS_TYPES, { error: 'address type must be trx, eth_bnb, solana or ton' });
/** Amount text is checked for syntax and decimals by the engine, which can name the currency's precision. */
export const amountText = z.string().max(100);
export const destination = z.string().max(200);
export const userOrder = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'userOrder is 1 to 64 letters, digits, "_" or "-" (PROTOCOL §8)');
export const withdrawType = z.enum(['normal', 'financialConfirmation']);
export const pageLimit = z.number().int().min(1).max(1000);
export const cursor = z.string().max(200);
export const epochMs = z.number().int().nonnegative();
export const filePath = z.string().min(1).max(4096);
export const payoutBatchId = z.string().regex(/^[0-9]{1,15}$/, 'a batch id is a number, as "payouts list" shows it');
export const proposalId = z.string().regex(/^[0-9a-f]{64}$/, 'a proposal id is 64 hexadecimal characters');
export const operatorRole = z.enum(['viewer', 'initiator', 'approver', 'admin']);
export const withdrawalState = z.enum(WITHDRAWAL_STATES);
/** An IANA time zone name, checked with Intl and stored in its usual spelling ("europe/berlin" → "Europe/Berlin"). */
export const timeZoneName = z
  .string()
  .max(100)
  .superRefine((text, context) => {
    const problem = timeZoneProblem(text);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .transform((text) => canonicalTimeZone(text) ?? text);
export const credentialsText = z.strictObject({
  baseUrl: z
    .string()
    .max(2048)
    .superRefine((text, context) => {
      const problem = serviceBaseUrlProblem(text);
      if (problem !== null) context.addIssue({ code: 'custom', message: `the base URL ${problem}` });
    }),
  merchantId: z.string().min(1).max(128),
  secret: z.string().min(1).max(1024),
  platformPublicKey: z.string().min(1).max(16384),
  /** Omitted when the key was generated on this desk (`profiles/generateKey`): the kept key is used. */
  merchantPrivateKey: z.string().min(1).max(16384).optional(),
});

export const labelType = z.enum(LABEL_TYPES, { error: `a label type is ${LABEL_TYPES.join(', ')}` });
/** A label: one line without control or text-direction characters (refused, never stripped). */
export const labelText = safeText('the label').pipe(z.string().max(LABEL_MAX_LENGTH, `a label is at most ${LABEL_MAX_LENGTH} characters`));
export const noteText = safeText('the note').pipe(z.string().max(NOTE_MAX_LENGTH, `a note is at most ${NOTE_MAX_LENGTH} characters`));
export const labelRef = safeText('the reference').pipe(z.string().min(1, 'name the record').max(200));
/** Text a record's label or note must contain (case-insensitive) for a list to show it; empty: no label filter. */
export const labelFilter = z.string().max(LABEL_MAX_LENGTH, `a label search is at most ${LABEL_MAX_LENGTH} characters`);

export const none = z.strictObject({});

/** A withdrawal policy as an admin writes it (policies/set without who signs; the editor's draft for policies/preview). */
export const policyDraft = z.strictObject({
  currency,
  thresholds: z.array(z.strictObject({ above: amountText, approvals: z.number().int().min(1).max(5), groups: approvalGroupTiers.optional() })).max(10),
  dailyLimit: amountText.nullable(),
  useFinancialConfirmation: z.boolean(),
  /** "Only addresses from the book" (issue 13); left out: off. */
  onlyFromBook: z.boolean().optional(),
  /** "A new destination waits N hours" (issue 13); left out or 0: no wait. */
  newDestinationWaitHours: z.number().int().min(0).max(720, 'at most 720 hours (30 days)').optional(),
  /** An approval counts for this many hours, then must be given again (issue 20); left out: never expires. */
  approvalValidHours: z.number().int().min(1).max(720, 'at most 720 hours (30 days)').optional(),
  /** Rolling velocity windows (issue 20); left out: none. */
  windows: z
    .array(
      z.strictObject({
        hours: z.number().int().min(1, 'a window is 1 to 720 hours').max(720, 'a window is 1 to 720 hours'),
        scope: z.enum(['currency', 'initiator', 'destination'], { error: 'a window is per currency, initiator or destination' }),
        maxAmount: amountText.optional(),
        maxCount: z.number().int().min(1).optional(),
      }),
    )
    .max(20)
    .optional(),
  /** Per-destination caps for named addresses (issue 20); left out: none. */
  destinationCaps: z
    .array(z.strictObject({ address: destination, maxAmount: amountText, hours: z.number().int().min(1, 'a cap is per 1 to 720 hours').max(720, 'a cap is per 1 to 720 hours') }))
    .max(20)
    .optional(),
  /** One approval more above factor × the destination's median paid amount, or for a first payment (issue 21); left out: none. */
  unusualAmount: z.strictObject({ factor: amountText, firstPayment: z.boolean() }).optional(),
  /** Above this amount pay only addresses whose control is proven (issue 21 item 2); left out: off. */
  provenControlAbove: amountText.optional(),
});

/** Which deposits a list or an export covers. */
export const depositsFilter = z.strictObject({
  currency: reportedCurrency.optional(),
  from: epochMs.optional(),
  to: epochMs.optional(),
  search: z.string().max(200).optional(),
  label: labelFilter.optional(),
});
/**
 * Which audit rows a list or an export covers (the audit viewer): who signed, which action, which withdrawal request
 * (its id or fingerprint), when ([from, to)), and text the row's sentence or details contain (case-insensitive).
 */
export const auditFilter = z.strictObject({
  operator: operatorName.optional(),
  action: z.string().regex(/^[a-z][A-Za-z-]*(\/[A-Za-z-]+)?$/, 'an action is written domain/verb, as the audit log shows it: withdrawals/approve').max(64).optional(),
  request: z.string().trim().min(1, 'give a withdrawal request id or its fingerprint (ABCD-EFGH-IJKL-MNOP)').max(64).optional(),
  from: epochMs.optional(),
  to: epochMs.optional(),
  search: safeText('the search').pipe(z.string().max(200, 'a search is at most 200 characters')).optional(),
});
/** The file formats an audit export writes: JSON lines (with statements and signatures) or CSV (the sentences). */
export const AUDIT_EXPORT_FORMATS = ['jsonl', 'csv'] as const;
/** A printed statement is tens of kilobytes; this bounds what statements/savePdf accepts (base64 of 30 MB). */
export const STATEMENT_PDF_MAX_BASE64 = 40_000_000;
/** A period statement's period, [from, to), and the zone its times are shown in (default: the reporting zone). */
export const statementPeriod = z.strictObject({ from: epochMs, to: epochMs, timeZone: timeZoneName.optional() });
/** Which withdrawal requests an export writes (every one, or those in one state). */
/** Which withdrawals an export holds: by state, and (like the orders list) those whose label or note contains `label`. */
export const withdrawalsFilter = z.strictObject({ state: withdrawalState.optional(), label: labelFilter.optional() });
/** An operator's notification preferences; the engine checks each threshold against its currency's decimals. */
export const notificationPreferences = z.strictObject({
  approvalWaiting: z.boolean(),
  orderFinal: z.enum(ORDER_FINAL_SCOPES, { error: 'orderFinal is off, mine or all' }),
  orderStuck: z.boolean(),
  connection: z.boolean(),
  depositThresholds: z.partialRecord(currency, amountText),
});

/** A method: its request schema, plus its answer type carried as a phantom. */
export interface MethodSpec<Request extends z.ZodType, Response> {
  readonly request: Request;
  readonly response?: Response;
}
export function method<Request extends z.ZodType>(request: Request) {
  return <Response>(): MethodSpec<Request, Response> => ({ request });
}

export const CONTRACT = {
  'session/state': method(none)<Dto.SessionState>(),
  'session/unlock': method(actingOperator)<Dto.SessionState>(),
  'session/lock': method(none)<Dto.SessionState>(),
  /** A person used the desk (keyboard, pointer): postpones the idle lock; answers whether the desk is locked. */
  'session/activity': method(none)<{ readonly locked: boolean }>(),

  'profiles/list': method(none)<readonly Dto.ProfileSummary[]>(),
  'profiles/add': method(z.strictObject({ name: profileName, credentials: credentialsText }))<Dto.ProfileSummary>(),
  'profiles/importFile': method(z.strictObject({ name: profileName, path: filePath }))<Dto.ProfileSummary>(),
  'profiles/generateKey': method(z.strictObject({ name: profileName }))<Dto.GeneratedMerchantKey>(),
  'profiles/select': method(z.strictObject({ name: profileName }))<Dto.ProfileSummary>(),
  'profiles/remove': method(z.strictObject({ name: profileName, as: actingOperator.optional() }))<{ readonly removed: string }>(),
  /**
   * Proposes adding a profile (imported here) to a team desk: an admin of the active profile signs, naming its merchant
   * ID and its founders, who choose their new passphrases now; a second independent admin confirms (operators/confirm).
   */
  'profiles/proposeAdd': method(
    z.strictObject({ name: profileName, merchantId: z.string().trim().min(1).max(128), founders: z.array(actingOperator).min(1).max(2), as: actingOperator }),
  )<Dto.ProfileChangeView>(),
  /** Proposes removing a founded profile: one of its admins signs; a second independent admin confirms (operators/confirm). */
  'profiles/proposeRemove': method(z.strictObject({ name: profileName, as: actingOperator }))<Dto.ProfileChangeView>(),

  'demo/start': method(none)<Dto.ProfileSummary>(),
  'selfcheck/run': method(none)<Dto.SelfcheckReport>(),

  'sync/run': method(z.strictObject({ full: z.boolean().optional() }))<Dto.SyncReport>(),
  'sync/status': method(none)<Dto.SyncStatus>(),
  /** Stops the sync under way after the page or request in hand (what was read stays stored; the next sync resumes). */
  'sync/cancel': method(none)<{ readonly cancelled: boolean }>(),
  /** Walks the service's whole deposit list and compares it with the desk's; stores nothing new (sync --full does). */
  'sync/verify': method(none)<Dto.DepositVerification>(),
  'currencies/list': method(none)<readonly Dto.CurrencyView[]>(),
  'balances/list': method(none)<readonly Dto.BalanceView[]>(),
  /** The merchant account as merchantInfo last answered (cached; null before it ever answered for this profile). */
  'merchant/info': method(none)<{ readonly merchant: Dto.MerchantInfoView | null }>(),
  /** Whether the connection can be trusted, in one answer (docs/connection-and-dashboard.md); never a key, secret or token. */
  'connection/panel': method(none)<ConnectionPanelView>(),
  /** Each asset's latest balance summed across its chains, exact decimal strings. */
  'balances/totals': method(none)<AssetTotalsView>(),
  /** One currency's balance snapshots between `from` (default: the first) and `to` (default: now), oldest first. */
  'balances/history': method(
    z
      .strictObject({ currency: reportedCurrency, from: epochMs.optional(), to: epochMs.optional() })
      .refine((period) => period.from === undefined || period.to === undefined || period.from < period.to, 'the period must end after it starts (from < to)'),
  )<BalanceHistoryView>(),

  /** A page of deposits, newest first; `label` keeps those whose label or note contains it (docs/labels.md). */
  'deposits/list': method(
    z.strictObject({
      currency: reportedCurrency.optional(),
      from: epochMs.optional(),
      to: epochMs.optional(),
      search: z.string().max(200).optional(),
      label: labelFilter.optional(),
      limit: pageLimit.optional(),
      cursor: cursor.optional(),
    }),
  )<Dto.Page<Dto.DepositView>>(),
  'deposits/exportCsv': method(depositsFilter.extend({ path: filePath }))<{ readonly rows: number; readonly path: string }>(),

  'addresses/create': method(z.strictObject({ addressType, userOrder: userOrder.optional(), as: actingOperator }))<Dto.DepositAddressView>(),
  'addresses/list': method(none)<readonly Dto.DepositAddressView[]>(),
  'addresses/qr': method(z.strictObject({ address: destination, format: z.enum(['png', 'svg']) }))<Dto.QrCodeView>(),

  'operators/list': method(none)<Dto.RosterView>(),
  /** The first one or two admins of a profile, each typing their own passphrase at this desk. */
  'operators/found': method(z.strictObject({ admins: z.array(actingOperator).min(1).max(2) }))<Dto.RosterView>(),
  'operators/invite': method(z.strictObject({ name: operatorName, role: operatorRole, as: actingOperator }))<Dto.InvitationView>(),
  /** The invited operator completes the invitation with its code and their own new passphrase. */
  'operators/accept': method(
    z.strictObject({ name: operatorName, code: z.string().trim().min(1, 'enter the invitation code').max(64), passphrase }),
  )<Dto.OperatorView>(),
  /** Approval groups (issue 20): those in force, and an admin's proposal of a group's whole member list ([] dissolves it). */
  'operators/groups': method(none)<Dto.ApprovalGroupsView>(),
  'operators/setGroup': method(
    z.strictObject({
      group: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'a group name is lower-case letters, digits and dashes, at most 40 characters'),
      members: z.array(operatorName).max(50, 'a group has at most 50 members'),
      as: actingOperator,
    }),
  )<Dto.ApprovalGroupChangeView>(),
  'operators/confirm': method(z.strictObject({ proposal: proposalId, as: actingOperator }))<Dto.RosterView>(),
  'operators/withdrawProposal': method(z.strictObject({ proposal: proposalId, as: actingOperator }))<Dto.RosterView>(),
  'operators/setRole': method(z.strictObject({ name: operatorName, role: operatorRole, as: actingOperator }))<Dto.RosterView>(),
  'operators/disable': method(z.strictObject({ name: operatorName, as: actingOperator }))<Dto.RosterView>(),
  /** A new key for an operator who lost their passphrase: an invitation like enrolment. */
  'operators/rekey': method(z.strictObject({ name: operatorName, as: actingOperator }))<Dto.InvitationView>(),
  /** At a team workstation where the operator has no key: a new key sealed by the passphrase typed here, proposed. */
  'operators/addDevice': method(z.strictObject({ operator: operatorName, passphrase }))<Dto.PendingDeviceView>(),
  /** The operator (with their key at this workstation) or an admin confirms a device key proposed elsewhere. */
  'operators/confirmDevice': method(z.strictObject({ proposal: proposalId, as: actingOperator }))<Dto.RosterView>(),
  /** Re-seals one's own key under a new passphrase (no roster change). */
  'operators/changePassphrase': method(z.strictObject({ operator: operatorName, passphrase, newPassphrase: passphrase }))<Dto.OperatorView>(),

  'policies/list': method(none)<readonly Dto.PolicyView[]>(),
  /** Whether sending is frozen (issue 20): by one admin at once; lifted by two (sending/unfreeze, then operators/confirm). */
  'sending/state': method(none)<Dto.SendingStateView>(),
  'sending/freeze': method(z.strictObject({ reason: z.string().min(1).max(500), as: actingOperator }))<Dto.SendingStateView>(),
  'sending/unfreeze': method(z.strictObject({ as: actingOperator }))<Dto.SendingStateView>(),
  /** Time-locked loosening (issue 20 part 4): the delay, the freeze-lift rule, and the loosening changes any admin may still veto. */
  'governance/state': method(none)<Dto.GovernanceView>(),
  'governance/set': method(
    z.strictObject({
      looseningDelayHours: z.number().int().min(0).max(720),
      freezeLift: z.enum(['four-eyes', 'time-lock']),
      freezeLockHours: z.number().int().min(0).max(720),
      as: actingOperator,
    }),
  )<Dto.GovernanceView>(),
  'governance/veto': method(z.strictObject({ change: z.string().min(8).max(64), reason: z.string().max(500).optional(), as: actingOperator }))<Dto.GovernanceView>(),
  /** The poisoning radar (issue 21): deposit senders that look like a book entry, their evidence and clearance. */
  'radar/list': method(none)<RadarView>(),
  /** An admin proposes clearing a flagged address, or confirms another admin's proposal: then it may be paid. */
  'radar/clear': method(z.strictObject({ address: destination.pipe(z.string().trim().min(1, 'name the flagged address')), as: actingOperator }))<PoisoningAlertView>(),
  'policies/set': method(policyDraft.extend({ as: actingOperator }))<Dto.PolicyChangeView>(),
  /** The policy simulator (issue 20, part 6): which rules apply to this request and what they require; nothing is signed. */
  'policies/test': method(
    z.strictObject({
      currency,
      amount: amountText,
      toAddress: destination,
      /** Who would request it (per-initiator rules, and whether they may); left out: nobody in particular. */
      initiator: operatorName.optional(),
      /** A policy to try instead of the one in force (the editor's draft); left out: the policy in force. */
      draft: policyDraft.omit({ currency: true }).optional(),
    }),
  )<Dto.PolicyTestView>(),
  /** What a policy change would do to the requests now waiting (approval or sending), before it is proposed. */
  'policies/preview': method(policyDraft)<Dto.PolicyPreviewView>(),

  'withdrawals/preflight': method(
    z.strictObject({ currency: reportedCurrency, amount: amountText, toAddress: destination, withdrawType: withdrawType.optional() }),
  )<Dto.WithdrawalPreflight>(),
  'withdrawals/request': method(
    z.strictObject({
      currency: withdrawalCurrency,
      amount: amountText,
      toAddress: destination,
      withdrawType: withdrawType.optional(),
      memo: safeText('the memo').pipe(z.string().max(MEMO_MAX_LENGTH, `a memo is at most ${MEMO_MAX_LENGTH} characters (the order's remark also carries the fingerprint)`)).optional(),
      as: actingOperator,
    }),
  )<{ readonly withdrawal: Dto.WithdrawalView; readonly preflight: Dto.WithdrawalPreflight }>(),
  'withdrawals/approve': method(z.strictObject({ id: z.string().min(1).max(64), as: actingOperator }))<Dto.WithdrawalView>(),
  'withdrawals/reject': method(
    z.strictObject({ id: z.string().min(1).max(64), reason: safeText('the reason').pipe(z.string().trim().min(1, 'say why').max(500)), as: actingOperator }),
  )<Dto.WithdrawalView>(),
  'withdrawals/cancel': method(
    z.strictObject({ id: z.string().min(1).max(64), reason: safeText('the reason').pipe(z.string().max(500)).optional(), as: actingOperator }),
  )<Dto.WithdrawalView>(),
  /** Submitting is a decision of a named operator with the submit permission, passphrase-checked. */
  'withdrawals/submit': method(z.strictObject({ id: z.string().min(1).max(64), as: actingOperator }))<Dto.WithdrawalView>(),
  'withdrawals/get': method(z.strictObject({ id: z.string().min(1).max(64) }))<Dto.WithdrawalView>(),
  /** Everything an approver is shown before signing, from the signed intent and verified statements (issue 20, part 5). */
  'withdrawals/review': method(z.strictObject({ id: z.string().min(1).max(64) }))<ApproverView>(),

  /** The approvals queue: single requests someone still has to act on, and each such batch payout once (never its lines). */
  'withdrawals/queue': method(none)<ApprovalsQueueView>(),

  /** Imports a payout CSV the CLI names (the app: desktop/importPayouts): every line preflighted; refused whole, naming lines. */
  'payouts/import': method(z.strictObject({ path: filePath, as: actingOperator }))<PayoutBatchView>(),
  'payouts/list': method(z.strictObject({ limit: pageLimit.optional(), cursor: cursor.optional() }))<Dto.Page<PayoutBatchSummary>>(),
  'payouts/get': method(z.strictObject({ id: payoutBatchId }))<PayoutBatchView>(),
  /** One approval of the whole batch, signed over its intent (never by its initiator). */
  'payouts/approve': method(z.strictObject({ id: payoutBatchId, as: actingOperator }))<PayoutBatchView>(),
  'payouts/reject': method(
    z.strictObject({ id: payoutBatchId, reason: safeText('the reason').pipe(z.string().trim().min(1, 'say why').max(500)), as: actingOperator }),
  )<PayoutBatchView>(),
  'payouts/cancel': method(
    z.strictObject({ id: payoutBatchId, reason: safeText('the reason').pipe(z.string().max(500)).optional(), as: actingOperator }),
  )<PayoutBatchView>(),
  /** Sends the approved lines one by one, exactly once each (safe to repeat: resumes after a crash). */
  'payouts/submit': method(z.strictObject({ id: payoutBatchId, as: actingOperator }))<PayoutSubmitResult>(),
  /** Writes the batch's results as CSV to a file the CLI names (the app: desktop/exportPayoutsCsv). */
  'payouts/exportCsv': method(z.strictObject({ id: payoutBatchId, path: filePath }))<{ readonly rows: number; readonly path: string }>(),
  /** A page of requests, newest first (with `label`: those whose label or note contains it); or, with `stuck`, every request whose order is stuck now (recorded in the audit once). */
  'withdrawals/list': method(
    z
      .strictObject({ state: withdrawalState.optional(), label: labelFilter.optional(), limit: pageLimit.optional(), cursor: cursor.optional(), stuck: z.boolean().optional() })
      .refine((request) => request.stuck !== true || (request.state === undefined && request.cursor === undefined && request.label === undefined), {
        message: 'stuck lists every stuck order at once: give it without state, label or cursor',
        path: ['stuck'],
      }),
  )<Dto.Page<Dto.WithdrawalView>>(),

  /**
   * The three-way reconciliation of the active profile from the cache (offline too): per currency (one, or all with
   * records), over [from, to) (from the beginning, to now, when left out). Changes nothing.
   */
  'reconcile/run': method(z.strictObject({ currency: reportedCurrency.optional(), from: epochMs.optional(), to: epochMs.optional() }))<ReconciliationReport>(),

  /** The period statement of the active profile from the cache (offline too): balances, movements, differences. Changes nothing. */
  'statements/build': method(statementPeriod)<PeriodStatement>(),
  /** The period statement as CSV, written to `path` (the CLI's; a window uses desktop/exportStatementCsv). */
  'statements/exportCsv': method(statementPeriod.extend({ path: filePath }))<{ readonly currencies: number; readonly path: string; readonly statement: PeriodStatement }>(),
  /** The period statement as one self-contained HTML page (no script, no external resource) for printing to PDF. */
  'statements/html': method(statementPeriod)<{ readonly html: string; readonly statement: PeriodStatement }>(),
  /**
   * Writes a statement the face printed from statements/html (base64 PDF bytes) to `path`, whole or not at all, and
   * records the export in the audit log like the CSV's (the CLI's and main's; a window uses desktop/exportStatementPdf).
   */
  'statements/savePdf': method(statementPeriod.extend({ path: filePath, pdf: z.base64().max(STATEMENT_PDF_MAX_BASE64, 'the PDF is larger than a statement can be') }))<{ readonly bytes: number; readonly path: string }>(),
  /**
   * The period's journals for Xero or QuickBooks Online (docs/accounting.md) from the verified records, accounts from
   * `mapping` (the mapping file's text), written to `path` whole or not at all (a window uses desktop/exportAccounting).
   */
  'accounting/export': method(statementPeriod.extend({ format: accountingFormat, mapping: accountMappingText, path: filePath }))<AccountingExport>(),
  /**
   * The offline auditor pack of the period (docs/auditor-pack.md): the statement, the audit chain from its first row
   * through the head, the desk and operator keys, a signed checkpoint, written to `path` whole or not at all (a window
   * uses desktop/exportAuditPack). Answers the pack's size and head.
   */
  'audit/pack': method(statementPeriod.extend({ path: filePath }))<AuditorPackWritten>(),
  /** Every withdrawal request (or those in one state) as CSV, written to `path` (a window uses desktop/exportWithdrawalsCsv). */
  'withdrawals/exportCsv': method(withdrawalsFilter.extend({ path: filePath }))<{ readonly rows: number; readonly path: string }>(),

  /** Newest rows first, of those the filter selects, each with its sentence and whether it verifies. */
  'audit/list': method(auditFilter.extend({ limit: pageLimit.optional(), cursor: cursor.optional() }))<Dto.Page<Dto.AuditEntryView>>(),
  'audit/verify': method(z.strictObject({ against: filePath.optional() }))<Dto.AuditVerification>(),
  'audit/head': method(none)<{ readonly head: Dto.AuditHeadView | null }>(),
  /** Writes a checkpoint (the head, signed by the desk key) for the team to keep elsewhere. */
  'audit/checkpoint': method(z.strictObject({ path: filePath }))<Dto.CheckpointView>(),
  /** The rows the filter selects (all without one), oldest first, as JSON lines (default) or CSV; recorded in the log. */
  'audit/export': method(auditFilter.extend({ path: filePath, format: z.enum(AUDIT_EXPORT_FORMATS).optional() }))<{ readonly rows: number; readonly path: string }>(),
  /**
   * Moves this desk's key and audit anchor between the OS keychain and the file beside the database: explicit and signed
   * by an admin (`audit/anchorMoved`), never automatic.
   */
  'audit/moveAnchor': method(z.strictObject({ to: z.enum(['keychain', 'file']), as: actingOperator }))<Dto.AnchorMoveView>(),

  'callbacks/state': method(none)<Dto.CallbackListenerState>(),
  'callbacks/start': method(
    z.strictObject({ host: z.string().max(255).optional(), port: z.number().int().min(0).max(65535).optional(), as: actingOperator.optional() }),
  )<Dto.CallbackListenerState>(),
  'callbacks/stop': method(none)<Dto.CallbackListenerState>(),
  /** The listener's most recent refusals (at most CALLBACK_REFUSALS_KEPT, newest first, this process only) with counts per code. */
  'callbacks/refusals': method(none)<CallbackRefusalsView>(),

  'tools/checkAddress': method(z.strictObject({ chain, address: destination }))<Dto.AddressCheckView>(),
  'tools/checkTransfer': method(z.strictObject({ txid: z.string().min(1).max(200), currency }))<Dto.TransferCheckView>(),

  /** An operator's notification preferences in the active profile (their choice, or their role's defaults). */
  'notifications/preferences': method(z.strictObject({ operator: operatorName }))<NotificationPreferencesView>(),
  /** Operators set their own preferences only, passphrase-checked. */
  'notifications/setPreferences': method(z.strictObject({ preferences: notificationPreferences, as: actingOperator }))<NotificationPreferencesView>(),
  /** How many requests `operator` may approve now (the tray and badge count; answered while the desk is locked too). */
  'notifications/waiting': method(z.strictObject({ operator: operatorName }))<ApprovalsWaitingView>(),

  /**
   * Outbound webhooks (docs/webhooks.md): an admin adds an endpoint (https, or http to loopback) for some event types;
   * the answer holds its signing secret, shown this once and kept only in the desk's secret store.
   */
  'webhooks/add': method(
    z.strictObject({
      url: z.string().trim().min(1, 'give the endpoint url').max(2000),
      events: z.array(z.enum(WEBHOOK_EVENT_TYPES, { error: `the events are ${WEBHOOK_EVENT_TYPES.join(', ')}` })).min(1, 'name at least one event').max(10),
      as: actingOperator,
    }),
  )<WebhookEndpointAdded>(),
  'webhooks/list': method(z.strictObject({ as: actingOperator }))<readonly WebhookEndpointView[]>(),
  'webhooks/remove': method(z.strictObject({ id: z.number().int().min(1), as: actingOperator }))<{ readonly removed: number }>(),
  /** The delivery log, newest first: each delivery with its attempts (one endpoint's when given). */
  'webhooks/deliveries': method(z.strictObject({ endpoint: z.number().int().min(1).optional(), limit: z.number().int().min(1).max(1000).optional() }))<
    readonly WebhookDeliveryView[]
  >(),
  /** Sends a delivery's event again (same event id and body) from this workstation, now. */
  'webhooks/redeliver': method(z.strictObject({ id: z.number().int().min(1) }))<WebhookDeliveryView>(),

  /** Team mode (issue 10): this workstation's connection to the team database. */
  'team/status': method(none)<Dto.TeamStatusView>(),
  /**
   * Moves this desk into an EMPTY team database (postgres://ROLE:PASSWORD@HOST/DB, this workstation's role); an admin
   * enrols this workstation. `ownerDatabase`: the owner role's URL, which runs the migrations once and is kept nowhere.
   */
  'team/init': method(
    z.strictObject({ database: teamDatabaseUrl, ownerDatabase: teamDatabaseUrl.optional(), workstation: workstationName, as: actingOperator }),
  )<Dto.TeamStatusView>(),
  /** Joins a team desk: pulls and verifies its whole chain; an admin enrols this workstation. */
  'team/join': method(z.strictObject({ database: teamDatabaseUrl, workstation: workstationName, as: actingOperator, genesis: genesisFingerprint }))<Dto.TeamStatusView>(),
  /** The genesis of the team desk a URL names, verified, before joining it (nothing is joined): what the joiner confirms. */
  'team/preview': method(z.strictObject({ database: teamDatabaseUrl }))<Dto.TeamPreviewView>(),
  /**
   * Catches up with the team database and checks its projection rows (requests, approvals) against the verified
   * statements: every refused row is named in the answer's `refused`.
   */
  'team/verify': method(none)<Dto.TeamStatusView>(),
  /**
   * After IT restored the team database from a backup older than this workstation's verified head: an admin proposes
   * republishing this workstation's verified rows the database lacks; a second admin confirms (`confirm: true`).
   */
  'team/reanchor': method(z.strictObject({ as: actingOperator, confirm: z.boolean().optional() }))<Dto.TeamReanchorView>(),
  /** Stops team mode here (the local copy stays); an admin decides. */
  'team/leave': method(z.strictObject({ as: actingOperator }))<Dto.TeamStatusView>(),

  'settings/setLockTimeout': method(
    z.strictObject({ seconds: z.number().int().min(0).max(86400), as: actingOperator }),
  )<Dto.SessionState>(),
  /** How long an order may stay in each pending status before the watchdog flags it stuck (desk-wide). */
  'settings/stuckThresholds': method(none)<StuckThresholdsView>(),
  /** An admin changes some thresholds (ms); a value equal to the default removes the override. Audited. */
  'settings/setStuckThresholds': method(
    z.strictObject({
      thresholds: z
        .partialRecord(
          z.enum(WATCHED_ORDER_STATUSES, { error: `a status the watchdog times: ${WATCHED_ORDER_STATUSES.join(', ')}` }),
          z.number().int().min(STUCK_THRESHOLD_RANGE_MS.min, 'at least a minute').max(STUCK_THRESHOLD_RANGE_MS.max, 'at most 30 days'),
        )
        .refine((thresholds) => Object.keys(thresholds).length > 0, 'name at least one status to change'),
      as: actingOperator,
    }),
  )<StuckThresholdsView>(),
  /** The zone every face shows and exports times in (UI, CLI, CSV): one desk-wide setting an admin changes. */
  'settings/setReportingTimeZone': method(z.strictObject({ timeZone: timeZoneName, as: actingOperator }))<Dto.SessionState>(),

  /** Sets (or, with an empty label and no note, removes) the label of a record; signed into the audit log. */
  /** Signed by `as`, or without it by the operator who unlocked the desk's session (SessionState.signsLabelsUntil). */
  'labels/set': method(
    z.strictObject({ type: labelType, ref: labelRef, label: labelText, note: noteText.nullable().optional(), as: actingOperator.optional() }),
  )<{ readonly label: Dto.LabelView | null }>(),
  /** Labels whose text or note contains `text` (case-insensitive); every label when `text` is empty. */
  'labels/search': method(z.strictObject({ text: z.string().max(200), type: labelType.optional() }))<readonly Dto.LabelView[]>(),
  /** Writes every label of the profile as JSON lines in the style of BIP-329 (docs/labels.md). */
  'labels/export': method(z.strictObject({ path: filePath }))<{ readonly rows: number; readonly path: string }>(),
  /** Reads labels in the export's format: every line is checked first; all are applied, or none. */
  'labels/import': method(z.strictObject({ path: filePath, as: actingOperator }))<{ readonly rows: number; readonly path: string }>(),

  'addressbook/list': method(none)<Dto.AddressBookView>(),
  /** Proposes an address for the book; it takes effect when an independent operator approves (at once on a desk without two independent admins). */
  'addressbook/add': method(
    z.strictObject({ chain, address: destination, label: labelText.optional(), as: actingOperator }),
  )<Dto.AddressBookView>(),
  'addressbook/approve': method(z.strictObject({ proposal: proposalId, as: actingOperator }))<Dto.AddressBookView>(),
  'addressbook/remove': method(z.strictObject({ chain, address: destination, as: actingOperator }))<Dto.AddressBookView>(),
  /** Starts (or retries) a proof that the payee controls a book address: a reverse micro-deposit to an address made for it. */
  'addressbook/prove': method(z.strictObject({ chain, address: destination, as: actingOperator }))<ControlProofView>(),
  /** Where the proof of control of an address stands: proven (a verified desk-signed statement), waiting, or why not. */
  'addressbook/proof': method(z.strictObject({ chain, address: destination }))<ControlProofView>(),
  /** The payees of the active profile (issue 21): each with its addresses from the signed book, and batches waiting for approval. */
  'payees/list': method(none)<Dto.PayeesView>(),
  /** One payee by id or by name (any letter case). */
  'payees/show': method(z.strictObject({ payee: z.string().trim().min(1, 'name the payee (its id or its name)').max(120) }))<Dto.PayeeView>(),
  /** Proposes one payee with its addresses (a batch of one); like a book addition it waits for an independent operator's approval (addressbook/approve). */
  'payees/add': method(
    z.strictObject({
      name: z.string().trim().min(1, 'give the payee a name').max(120),
      note: z.string().max(500).optional(),
      addresses: z.array(z.strictObject({ chain, address: destination })).min(1, 'give the payee at least one address').max(50),
      as: actingOperator,
    }),
  )<Dto.PayeesView>(),
  /** Proposes one more address for an existing payee: a book addition naming the payee, approved on its own. */
  'payees/addAddress': method(z.strictObject({ payee: z.string().trim().min(1).max(120), chain, address: destination, as: actingOperator }))<Dto.PayeesView>(),
  /** Reads a payee CSV (name,note,chain,address; docs/approvals.md "Payees") and proposes all of it as one signed batch, or nothing. */
  'payees/import': method(z.strictObject({ path: filePath, as: actingOperator }))<Dto.PayeesView>(),
  'addressbook/label': method(
    z.strictObject({ chain, address: destination, label: labelText, note: noteText.nullable().optional(), as: actingOperator }),
  )<Dto.AddressBookView>(),

  /**
   * Writes the diagnostics file for support (docs/desktop.md "The log and diagnostics"): versions, desk and sync state, and the
   * end of the log, all redacted; refused (nothing written) if a secret the engine holds would appear in it.
   */
  'diagnostics/export': method(z.strictObject({ path: filePath }))<{ readonly path: string; readonly bytes: number }>(),
} as const;

export type MethodName = keyof typeof CONTRACT;
export const METHOD_NAMES = Object.keys(CONTRACT) as MethodName[];

/** Engine methods and desktop methods (desktop.ts) together: the request and answer types of any method by name. */
type AnyContract = typeof CONTRACT & typeof DESKTOP_CONTRACT;
type AnyMethodName = keyof AnyContract;

/** What a caller passes (before zod defaults/transforms). */
export type RequestOf<M extends AnyMethodName> = z.input<AnyContract[M]['request']>;
/** What the handler receives after parsing. */
export type ParsedRequestOf<M extends AnyMethodName> = z.output<AnyContract[M]['request']>;
export type ResponseOf<M extends AnyMethodName> = NonNullable<AnyContract[M]['response']>;
