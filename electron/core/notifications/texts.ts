// What each notice says. Titles name the kind of event only; bodies carry the details: amounts exactly as stored
// (decimal strings, never a number), the currency's name, who acted, the fingerprint to compare. Every piece of text
// that came from a person or the network (names, memos, reasons, order numbers) is escaped (escapeUnsafeText) and
// shortened; no address, key, secret or balance is ever part of a notice. A discreet body says the same without
// amounts, names or reasons: what a locked desk shows on a screen anyone may be looking at.
import { CURRENCIES, isCurrencySymbol } from '../../chains';
import { duration, escapeUnsafeText, type ConnectionState, type OfflineReason, type PayoutBatchView, type ScheduledChangeView, utcMinuteText } from '../../contract';
import { bookEntryName, type Deposit, lookAlikeWords, type PoisoningAlert } from '../deposits';
import type { WithdrawalRequest } from '../withdrawals';

export { duration } from '../../contract';

export interface NotificationText {
  readonly title: string;
  readonly body: string;
  readonly discreetBody: string;
}

const UNLOCK = 'Unlock Treasury Desk to see the details.';
const QUOTE_LIMIT = 120;

/** Text from a person or the network, safe to show: unsafe characters as visible marks, at most `limit` characters. */
export function quoted(text: string, limit = QUOTE_LIMIT): string {
  const safe = escapeUnsafeText(text.replace(/\s+/g, ' ').trim());
  return safe.length > limit ? `${safe.slice(0, limit - 1)}…` : safe;
}

/** "25.5 USDT on Ethereum": the amount exactly as stored, and the currency's name (an unknown symbol escaped). */
export function money(amount: string, currency: string): string {
  const name = isCurrencySymbol(currency) ? CURRENCIES[currency].displayName : quoted(currency, 40);
  return `${quoted(amount, 60)} ${name}`;
}

export function approvalWaitingText(
  request: WithdrawalRequest,
  facts: { readonly initiator: string; readonly fingerprint: string; readonly counted: number; readonly required: number },
): NotificationText {
  const memo = request.memo === null || request.memo === '' ? '' : ` Memo: "${quoted(request.memo)}".`;
  return {
    title: 'A withdrawal is waiting for your approval',
    body:
      `${quoted(facts.initiator, 64)} requests ${money(request.amount, request.currency)} (request ${request.id}).` +
      ` Fingerprint ${quoted(facts.fingerprint, 40)}. Approvals: ${facts.counted} of ${facts.required}.${memo}`,
    discreetBody: `A withdrawal request is waiting for your approval. ${UNLOCK}`,
  };
}

/** One notice for a whole batch payout (never one per line): its fingerprint, line count, file, totals with fees. */
export function batchApprovalWaitingText(
  batch: Pick<PayoutBatchView, 'id' | 'fingerprint' | 'lineCount' | 'source' | 'initiator' | 'totals' | 'countedApprovals' | 'requiredApprovals'>,
): NotificationText {
  const payouts = `${batch.lineCount} payout${batch.lineCount === 1 ? '' : 's'}`;
  const totals = batch.totals.map((total) => money(total.total, total.currency)).join(', ');
  return {
    title: 'A batch payout is waiting for your approval',
    body:
      `Batch ${quoted(batch.fingerprint, 40)}: ${payouts} waits for your approval. ${quoted(batch.initiator, 64)} imported "${quoted(batch.source, 80)}" (batch ${batch.id})` +
      `${totals === '' ? '' : `: ${totals} with fees`}. Approvals: ${batch.countedApprovals} of ${batch.requiredApprovals}.`,
    discreetBody: `A batch payout is waiting for your approval. ${UNLOCK}`,
  };
}

export function orderFinalText(request: WithdrawalRequest, rejection: { readonly by: string; readonly reason: string | null } | null): NotificationText {
  const what = `${money(request.amount, request.currency)} (request ${request.id})`;
  if (rejection !== null) {
    return {
      title: 'A withdrawal request was rejected',
      body: `${quoted(rejection.by, 64)} rejected ${what}${rejection.reason === null ? '.' : `: "${quoted(rejection.reason)}"`}`,
      discreetBody: `A withdrawal request was rejected. ${UNLOCK}`,
    };
  }
  switch (request.orderStatus) {
    case 'success':
      return { title: 'A withdrawal was paid out', body: `${what} was paid out.`, discreetBody: `A withdrawal was paid out. ${UNLOCK}` };
    case 'WithdrawRefund':
      return {
        title: 'A withdrawal was refunded',
        body: `${what} was not paid out: the platform refunded it to the balance.`,
        discreetBody: `A withdrawal was refunded. ${UNLOCK}`,
      };
    default:
      return {
        title: 'A withdrawal failed',
        body: `${what} failed at the platform${request.orderStatus === null ? '' : ` (${quoted(request.orderStatus, 40)})`}.`,
        discreetBody: `A withdrawal failed. ${UNLOCK}`,
      };
  }
}

/** How the lines of a batch payout ended: rejected or cancelled before sending, or the platform's final status. */
export type BatchLineOutcome = 'rejected' | 'cancelled' | 'success' | 'WithdrawRefund' | 'fail';

/** Each outcome as the notices say it, in the order they list them. */
const BATCH_OUTCOMES: readonly (readonly [BatchLineOutcome, string, string])[] = [
  ['success', 'paid out', 'A batch payout was paid out'],
  ['WithdrawRefund', 'refunded', 'A batch payout was refunded'],
  ['fail', 'failed at the platform', 'A batch payout failed'],
  ['rejected', 'rejected', 'A batch payout was rejected'],
  ['cancelled', 'cancelled', 'A batch payout was cancelled'],
];

/**
 * One notice when every line of a batch payout has ended (never one per line): "Batch <fingerprint>: 3 payouts paid
 * out", or the count of each outcome when its lines ended differently; who rejected it, and why. No fingerprint when
 * the stored batch no longer matches what was signed.
 */
export function batchFinalText(
  batch: { readonly id: string; readonly fingerprint: string | null },
  outcomes: readonly BatchLineOutcome[],
  rejection: { readonly by: string; readonly reason: string | null } | null,
): NotificationText {
  const counted = BATCH_OUTCOMES.map(([outcome, said, title]) => ({ count: outcomes.filter((each) => each === outcome).length, outcome, said, title })).filter(
    (entry) => entry.count > 0,
  );
  const rejectedBy = rejection === null ? '' : ` by ${quoted(rejection.by, 64)}${rejection.reason === null ? '' : `: "${quoted(rejection.reason)}"`}`;
  const said = (entry: (typeof counted)[number]): string => `${entry.said}${entry.outcome === 'rejected' ? rejectedBy : ''}`;
  const payouts = `${outcomes.length} payout${outcomes.length === 1 ? '' : 's'}`;
  const only = counted.length === 1 ? counted[0] : undefined;
  const what = only !== undefined ? `${payouts} ${said(only)}` : `${payouts} ended: ${counted.map((entry) => `${entry.count} ${said(entry)}`).join(', ')}`;
  const title = only?.title ?? 'A batch payout has ended';
  const fingerprint = batch.fingerprint === null ? '(no verified fingerprint: its stored row was altered)' : quoted(batch.fingerprint, 40);
  return { title, body: `Batch ${fingerprint}: ${what} (batch ${quoted(batch.id, 20)}).`, discreetBody: `${title}. ${UNLOCK}` };
}

/**
 * A stuck order: which status, for how long against what is usual, and what to do next (`nextSteps`: the watchdog's
 * steps after the status's own explanation, e.g. checkTransfer on the txid, the platform with the apiOrder).
 */
export function orderStuckText(
  request: WithdrawalRequest,
  stuck: { readonly status: string; readonly stuckForMs: number; readonly thresholdMs: number },
  nextSteps: readonly string[] = ['Check it with the platform.'],
): NotificationText {
  return {
    title: 'A withdrawal seems stuck',
    body:
      `${money(request.amount, request.currency)} (request ${request.id}, order ${quoted(request.userOrder, 64)}) has been ${stuck.status}` +
      ` for ${duration(stuck.stuckForMs)}; it usually moves on within ${duration(stuck.thresholdMs)}. ${nextSteps.map((step) => quoted(step, 200)).join(' ')}`,
    discreetBody: `A withdrawal has been waiting at the platform longer than usual. ${UNLOCK}`,
  };
}

export function depositText(deposit: Deposit): NotificationText {
  const reference = deposit.userOrder === '' ? '' : ` for ${quoted(deposit.userOrder, 64)}`;
  return {
    title: 'A deposit arrived',
    body: `${money(deposit.amount, deposit.currency)} received${reference}.`,
    discreetBody: `A deposit above your notification threshold arrived. ${UNLOCK}`,
  };
}

/** To every operator: a deposit came from a look-alike of a book address (the poisoning radar); never the address in the title. */
export function poisoningSuspectedText(alert: PoisoningAlert): NotificationText {
  const deposit = alert.firstDeposit;
  return {
    title: 'A deposit looks like address poisoning',
    body:
      `${money(deposit.amount, deposit.currency)} came from ${quoted(alert.sender)}, which looks like address-book entry ${quoted(bookEntryName(alert.lookAlike.entry))} ` +
      `(${lookAlikeWords(alert.lookAlike)}). Never copy an address from the deposit history: paying this one is refused until two admins clear it (treasury-desk radar clear).`,
    discreetBody: `A deposit came from an address that looks like one in the address book: paying it is refused until two admins clear it. ${UNLOCK}`,
  };
}

/** Why the desk is offline, in the desk's own words (never the raw network message, which may name hosts). */
const OFFLINE_REASONS: Readonly<Record<OfflineReason, string>> = {
  network: 'The payment service cannot be reached from this workstation.',
  notWhitelisted: "The payment service refuses this workstation's IP address (not on the merchant's whitelist).",
  clockDrift: "This computer's clock differs too much from the payment service's: every signed request is refused.",
  credentials: 'The payment service refuses the merchant credentials.',
  service: 'The payment service refuses requests.',
};

export function offlineText(connection: ConnectionState, now: number): NotificationText {
  const reason = connection.reason === null ? 'The payment service cannot be reached.' : OFFLINE_REASONS[connection.reason];
  const since = connection.since === null ? '' : ` Offline for ${duration(now - connection.since)}.`;
  const body = `${reason}${since} Balances, deposits and withdrawals are not updated until it is back.`;
  return { title: 'Treasury Desk is offline', body, discreetBody: body };
}

export function onlineText(offlineSince: number, now: number): NotificationText {
  const body = `The payment service answers again, after ${duration(now - offlineSince)} offline.`;
  return { title: 'Treasury Desk is back online', body, discreetBody: body };
}

/** What a scheduled change is, without an address (a book addition is named as such, not by its address). */
function changeWhat(change: ScheduledChangeView): string {
  switch (change.kind) {
    case 'policy':
      return `the ${quoted(change.subject)} withdrawal policy`;
    case 'book':
      return 'an address-book addition';
    case 'unfreeze':
      return 'the lift of the freeze on sending';
    case 'governance':
      return "the desk's governance";
    case 'radar-clear':
      return 'the clearance of an address the poisoning radar flagged';
    case 'payees':
      return 'new payees and their addresses in the address book';
    default:
      return quoted(change.kind);
  }
}

/** To every admin: a loosening change is scheduled; what, who, when it takes effect, and how to veto it. */
export function looseningScheduledText(change: ScheduledChangeView): NotificationText {
  const who = change.confirmedBy === null ? quoted(change.proposer) : `${quoted(change.proposer)} and ${quoted(change.confirmedBy)}`;
  const veto = `Any admin may veto it before then: Settings, Governance, or "treasury-desk governance veto ${change.id.slice(0, 12)} --as ADMIN".`;
  return {
    title: 'A change that loosens the rules is scheduled',
    body: `${changeWhat(change)} changes (${change.loosens.map((reason) => quoted(reason)).join('; ')}), by ${who}; it takes effect ${utcMinuteText(change.effectiveAt)}. ${veto}`,
    discreetBody: `A change that loosens the rules takes effect ${utcMinuteText(change.effectiveAt)} unless an admin vetoes it. ${UNLOCK}`,
  };
}
