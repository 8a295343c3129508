// A destination's payment history from this desk (issue 21 item 4) and the unusual-amount rule that reads it; invariant: both are counted from verified facts only, never from a request row's amount, state or address.
//
// A payment counts when all three hold, each read from the hash-chained audit log (the caller walked its linkage):
// - the intent: a verifying request statement (signed-intent-index.ts: signer checked under the roster, closed by no
//   verifying reject or cancel) whose signed intent's toAddress is the destination as its chain compares addresses;
// - the send: a verifying `submit` statement for that intent (for a batch line, naming its userOrder);
// - the outcome: an order-status statement for the intent's userOrder reporting `success` with the service's signed
//   answer attached; where this workstation knows the platform public key without the keychain (the team profile
//   event, audit/order-evidence.ts), the answer's signature must verify, and decrypt to this order with this status.
// A destination that belongs to a payee counts the payments to every address of that payee in the signed book (the
// payee's history, issue 21 item 4): `payeeDestinations`, applied in `verifiedPayments`, so every reader counts alike.
import { type Chain, formatMoney, isChain, Money, parseMoney } from '../../chains';
import type { ReviewPaidLine } from '../../contract';
import { type AuditRecorder, auditRowsBySubject, orderEvidenceProblem, reportedOrderStatus, sharedEvidenceKeys } from '../audit';
import type { Kernel } from '../kernel/kernel';
import { parsedStatement, type Roster } from '../ledger';
import type { WithdrawalPolicy } from './policy';
import { signedIntentIndex } from './signed-intent-index';
import { unreadableLog } from './signed-spending';
import { signer } from './verify';

type Parts = Pick<Kernel, 'db' | 'now'>;

export interface Destination {
  readonly chain: Chain;
  readonly address: string;
}

/** One verified payment: its intent key, currency, signed amount, and when the service's success was recorded. */
interface Paid {
  readonly key: string;
  readonly currency: string;
  readonly amount: Money;
  readonly at: number;
}

/** When the intent's order was reported `success` with the service's answer, after a verifying submit; null when not (yet). */
function paidAt(parts: Parts, roster: Roster, profile: string, key: string): number | null {
  const slash = key.indexOf('/');
  const subject = key.slice(0, slash);
  const userOrder = key.slice(slash + 1);
  const submitted = auditRowsBySubject(parts.db, profile, subject).some((row) => {
    const statement = parsedStatement({ hash: row.hash, text: row.statement });
    if (!statement || statement.kind !== 'submit' || statement.profile !== profile || statement.subject !== subject) return false;
    const named = statement.body['userOrder'];
    if (named !== undefined && named !== userOrder) return false;
    return typeof signer(roster, { seq: row.seq, hash: row.hash, text: row.statement, signature: row.signature, statement }, 'submitWithdrawal') !== 'string';
  });
  if (!submitted) return null;
  const keys = sharedEvidenceKeys(parts.db, profile);
  for (const row of auditRowsBySubject(parts.db, profile, userOrder)) {
    const statement = parsedStatement({ hash: row.hash, text: row.statement });
    if (!statement || statement.profile !== profile || statement.subject !== userOrder) continue;
    const reported = reportedOrderStatus(statement);
    if (reported === null || reported.status !== 'success' || reported.evidence === null) continue;
    if (keys !== null && orderEvidenceProblem(statement, keys) !== null) continue;
    return statement.at;
  }
  return null;
}

/**
 * `destinations` and, for each that the signed book attributes to a payee, every address of that payee in the book at
 * `now`: a payee is paid on any of its addresses.
 */
export function payeeDestinations(roster: Roster, destinations: readonly Destination[], now: number): Destination[] {
  const payees = new Set(destinations.flatMap((destination) => roster.bookEntry(destination.chain, destination.address, now)?.payee ?? []));
  if (payees.size === 0) return [...destinations];
  const theirs = roster.bookEntries(now).flatMap((entry) => (entry.payee !== null && payees.has(entry.payee) && isChain(entry.chain) ? [{ chain: entry.chain, address: entry.address }] : []));
  return [...destinations, ...theirs];
}

/** The verified payments to any of `destinations` (or their payees' addresses), oldest first; `exceptKey` leaves one intent out (the one being judged). */
function verifiedPayments(parts: Parts, roster: Roster, profile: string, destinations: readonly Destination[], exceptKey: string | null): Paid[] {
  // The index's destination buckets hold exactly the intents to each address (read by name, not by a walk of every intent).
  const index = signedIntentIndex(parts, roster, profile, 0);
  const intents = new Set(payeeDestinations(roster, destinations, parts.now()).flatMap((destination) => index.toDestination(destination.chain, destination.address)));
  const paid: Paid[] = [];
  for (const intent of [...intents].sort((a, b) => a.at - b.at)) {
    if (intent.key === exceptKey) continue;
    const at = paidAt(parts, roster, profile, intent.key);
    if (at !== null) paid.push({ key: intent.key, currency: intent.currency, amount: intent.amount, at });
  }
  return paid;
}

/** The median of amounts (the mean of the middle two for an even count). */
function median(amounts: readonly Money[]): Money {
  const sorted = [...amounts].sort((a, b) => a.comparedTo(b));
  const middle = Math.floor(sorted.length / 2);
  const high = sorted[middle] ?? new Money(0);
  return sorted.length % 2 === 1 ? high : (sorted[middle - 1] ?? high).plus(high).dividedBy(2);
}

/**
 * Times paid, last paid, median and largest amount per currency of the verified payments to `destinations` (and to
 * every address of their payees), currencies in name order; [] when never paid. Call after a linkage walk held.
 */
export function paymentHistory(parts: Parts, roster: Roster, profile: string, destinations: readonly Destination[], exceptKey: string | null = null): ReviewPaidLine[] {
  const byCurrency = new Map<string, Paid[]>();
  for (const payment of verifiedPayments(parts, roster, profile, destinations, exceptKey)) byCurrency.set(payment.currency, [...(byCurrency.get(payment.currency) ?? []), payment]);
  return [...byCurrency.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, payments]) => ({
      currency,
      timesPaid: payments.length,
      lastPaidAt: Math.max(...payments.map((payment) => payment.at)),
      median: formatMoney(median(payments.map((payment) => payment.amount))),
      largest: formatMoney(payments.reduce((largest, payment) => Money.max(largest, payment.amount), new Money(0))),
    }));
}

/** What the unusual-amount rule says of one amount: whether it adds an approval, and why in words; null when the policy has no such rule. */
export function unusualAmountJudgement(policy: WithdrawalPolicy, history: readonly ReviewPaidLine[], currency: string, amount: Money): { readonly adds: boolean; readonly text: string } | null {
  const rule = policy.unusualAmount;
  if (rule === undefined) return null;
  const line = history.find((entry) => entry.currency === currency);
  if (line === undefined && history.length > 0) {
    return { adds: false, text: `the unusual-amount rule adds none: this destination was paid before, never in ${currency}, so there is no median to compare with` };
  }
  if (line === undefined) {
    return rule.firstPayment
      ? { adds: true, text: `the unusual-amount rule adds one approval: this destination was never paid before from this desk (first payment)` }
      : { adds: false, text: `this destination was never paid before from this desk; the unusual-amount rule counts first payments only when asked to` };
  }
  const limit = parseMoney(line.median).times(parseMoney(rule.factor));
  const words = `${formatMoney(amount)} ${currency} against ${rule.factor} × the median paid ${line.median} ${currency} = ${formatMoney(limit)} ${currency}`;
  return amount.greaterThan(limit)
    ? { adds: true, text: `the unusual-amount rule adds one approval: ${words} (paid ${line.timesPaid} time${line.timesPaid === 1 ? '' : 's'} before)` }
    : { adds: false, text: `the unusual-amount rule adds none: ${words}` };
}

/** The unusual-amount rule for one destination, history read here; null when the policy has none. Call after a linkage walk held. */
export function unusualAmountFor(
  parts: Parts,
  roster: Roster,
  policy: WithdrawalPolicy,
  profile: string,
  candidate: { readonly currency: string; readonly amount: Money; readonly destination: Destination; readonly key: string | null },
): { readonly adds: boolean; readonly text: string } | null {
  if (policy.unusualAmount === undefined) return null;
  return unusualAmountJudgement(policy, paymentHistory(parts, roster, profile, [candidate.destination], candidate.key), candidate.currency, candidate.amount);
}

/** The preflight's side of unusualAmountFor: the linkage walked first (a broken log decides nothing, said as a string). */
export function unusualAmountAtRequest(
  parts: Parts & AuditRecorder,
  roster: Roster,
  policy: WithdrawalPolicy,
  profile: string,
  candidate: Parameters<typeof unusualAmountFor>[4],
): { readonly adds: boolean; readonly text: string } | string | null {
  if (policy.unusualAmount === undefined) return null;
  const walk = parts.trail.linkage();
  if (walk.problem) return unreadableLog(walk.problem, 'the payment history the unusual-amount rule reads');
  return unusualAmountFor(parts, roster, policy, profile, candidate);
}
