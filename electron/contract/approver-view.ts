// What an approver is shown before signing (issue 20, part 5), the same words on every face: the engine's review of a
// request (withdrawals/review, computed from the signed intent and verified statements) and its items as label/value
// lines, which the app's approve dialog, the queue's detail, `withdraw show` and the CLI's approve prompt all print.
// Invariant: every label lives here and nowhere else; amounts are shown grouped (1,250.5), never converted to numbers.
import { groupAmount } from './amount-text';
import { type PoisoningFlag, poisoningFlagText } from './radar';
import { type ControlStanding, controlStandingText } from './control-proof';
import { escapeSingleLine } from './display-text';

/** "2 h 5 min", "45 min", "under a minute". */
export function duration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'under a minute';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  return [days > 0 ? `${days} d` : '', hours > 0 ? `${hours} h` : '', rest > 0 ? `${rest} min` : ''].filter(Boolean).join(' ');
}

/** Where the fee shown comes from. */
export type ReviewFeeSource =
  /** The initiator signed it in the request statement, as preflight computed it from the currency list. */
  | 'signedAtRequest'
  /** A request made before fees were signed: computed now from the cached currency list, as preflight does. */
  | 'currencyListNow'
  /** The currency list holds no fee schedule for the currency (run a sync). */
  | 'unknown';

export interface ReviewLookAlike {
  readonly address: string;
  readonly label: string | null;
  /** 0-based positions where the destination differs from this entry. */
  readonly differingPositions: readonly number[];
}

export interface ReviewDestination {
  readonly address: string;
  /** In the address book by signed statements (an addition applied), and since when. */
  readonly inBook: boolean;
  readonly bookSince: number | null;
  /** The payee the book entry belongs to (its name, display text), from the signed roster; null/absent when none (issue 21). */
  readonly payee?: string | null;
  /** The desk's label of the address (address book), if any. */
  readonly label: string | null;
  /** Never paid from this desk (no earlier request to it was sent on a verifying submit statement). */
  readonly isNew: boolean;
  /** Entries of the book it looks like (the address-poisoning trick). */
  readonly lookAlikes: readonly ReviewLookAlike[];
  /** Earlier requests of this desk to this address that were sent (a verifying submit statement). */
  readonly timesPaid: number;
  /** The poisoning radar's flag (it looks like a book entry and sent a verified deposit), or null/absent when none. */
  readonly poisoning?: PoisoningFlag | null;
  /** Proof of control (issue 21 item 2): from a verified desk-signed statement; absent or null: not proven. */
  readonly control?: ControlStanding | null;
  /** Per currency, the verified payments to this address: signed intent, verifying submit, the service's `success` (payment-history.ts). */
  readonly history: readonly ReviewPaidLine[];
}

/** One currency's verified payments to a destination: times paid, last paid (epoch ms), median and largest (decimal strings). */
export interface ReviewPaidLine {
  readonly currency: string;
  readonly timesPaid: number;
  readonly lastPaidAt: number;
  readonly median: string;
  readonly largest: string;
}

export interface ReviewApproval {
  readonly operator: string;
  readonly at: number;
  readonly counts: boolean;
  readonly note: string | null;
  /** Signed longer ago than the policy's approval validity: it no longer counts and must be given again. */
  readonly expired?: boolean;
}

/** The approvals the matched rule asks for, given and still needed: the count, the approval groups, and their expiry. */
export interface ReviewApprovals {
  readonly required: number;
  readonly counted: number;
  readonly stillNeeded: number;
  readonly given: readonly ReviewApproval[];
  /** What the tier's approval groups still lack, in words ("1 of treasury-leads"); absent or []: nothing. */
  readonly groupsStillNeeded?: readonly string[];
}

export interface ReviewRule {
  /** The signed policy statement's id the intent cites, or `default` when no policy was ever set. */
  readonly policy: string;
  /** The amount threshold that matched ("above 1000" needs `tierApprovals`), or null when none does (one approval). */
  readonly tierAbove: string | null;
  readonly tierApprovals: number;
  /** The approvals the signed intent asks for (at least the tier's). */
  readonly intentApprovals: number;
  readonly dailyLimit: string | null;
  readonly onlyFromBook: boolean;
  readonly newDestinationWaitHours: number;
  /** The tier's approval groups in words ("(1 of finance and 1 of treasury-leads) or 1 of cfo"); absent or null: none. */
  readonly groups?: string | null;
  /** How many hours an approval counts; absent or null: approvals never expire. */
  readonly approvalValidHours?: number | null;
  /** What the policy's unusual-amount rule says of this amount and destination now, in words; absent or null: the policy has none. */
  readonly unusualAmount?: string | null;
  /** "Above this amount pay only addresses whose control is proven"; absent or null: off. */
  readonly provenControlAbove?: string | null;
}

export interface ApproverView {
  readonly id: string;
  /** The intent's fingerprint, or null when no signed intent verifies. */
  readonly fingerprint: string | null;
  /** A signed intent verifies: every field below comes from it. False: the fields are the row's, and must not be trusted. */
  readonly signed: boolean;
  /** Fields where the request row differs from the signed intent (the intent's values are shown). */
  readonly altered: readonly string[];
  /** What the statements say against sending it now (a rejection, missing approvals, a tampered row...). */
  readonly problems: readonly string[];
  readonly initiator: string | null;
  readonly currency: string;
  /** "USDT on TRON". */
  readonly currencyName: string;
  /** "TRON". */
  readonly chainName: string;
  readonly amount: string;
  readonly fee: string | null;
  readonly feeSource: ReviewFeeSource;
  /** Set when the currency list now gives another fee than the one signed. */
  readonly feeNow: string | null;
  readonly totalDebited: string | null;
  readonly withdrawType: 'normal' | 'financialConfirmation';
  readonly memo: string | null;
  /** Exactly what the service receives as the order's remark (the fingerprint, then the memo). */
  readonly remark: string | null;
  readonly destination: ReviewDestination;
  readonly rule: ReviewRule;
  readonly approvals: ReviewApprovals;
  /** The signed request time, and how long ago that was when the review was made. */
  readonly requestedAt: number | null;
  readonly ageMs: number;
  /** What would hold it if it were sent now, apart from approvals still needed: the rules in force now ([] for none). */
  readonly holdsNow: readonly string[];
}

/** The items an approver is shown, in order. */
export const REVIEW_ITEMS = ['amount', 'fee', 'total', 'currency', 'type', 'memo', 'destination', 'standing', 'history', 'rule', 'given', 'needed', 'heldNow', 'age', 'fingerprint'] as const;
export type ReviewItem = (typeof REVIEW_ITEMS)[number];

/** The one place the approver's labels are written. */
export const REVIEW_LABELS: Readonly<Record<ReviewItem, string>> = {
  amount: 'Amount (the recipient receives)',
  fee: 'Fee',
  total: 'Total debited',
  currency: 'Currency and chain',
  type: 'Withdrawal type',
  memo: "Memo (the service receives it as the order's remark)",
  destination: 'Destination',
  standing: "Destination's standing",
  history: 'Paid before to this address',
  rule: 'Rule that applies',
  given: 'Approvals given',
  needed: 'Approvals still needed',
  heldNow: 'If sent now',
  age: 'Requested',
  fingerprint: 'Request fingerprint',
};

export interface ReviewLine {
  readonly item: ReviewItem;
  readonly label: string;
  readonly value: string;
  /** Something the approver must look at twice (a look-alike, a new destination, a fee that changed, an altered row). */
  readonly warn: boolean;
}

export interface ReviewFormat {
  /** The locale amounts are grouped for ('en-US' on the CLI, the person's on the app). */
  readonly locale: string;
  /** An instant as the face shows it (the reporting time zone). */
  readonly time: (ms: number) => string;
}

/** The rule that matched and why, in words: the tier the amount falls in, and the policy's other conditions. */
export function ruleText(view: Pick<ApproverView, 'rule' | 'amount' | 'currencyName'>, locale: string): string {
  const { rule } = view;
  const amount = groupAmount(view.amount, locale);
  const plural = (count: number): string => `${count} approval${count === 1 ? '' : 's'}`;
  const policy = rule.policy === 'default' ? `the default ${view.currencyName} policy (none was ever set)` : `the ${view.currencyName} policy ${rule.policy.slice(0, 12)}`;
  const tier =
    rule.tierAbove === null
      ? `no amount tier applies to ${amount}, so ${plural(rule.tierApprovals)}`
      : `${amount} is above ${groupAmount(rule.tierAbove, locale)}: that tier needs ${plural(rule.tierApprovals)}`;
  const asked = rule.intentApprovals > rule.tierApprovals ? `; the signed request asks for ${plural(rule.intentApprovals)}` : '';
  const extras = [
    rule.dailyLimit === null ? null : `daily limit ${groupAmount(rule.dailyLimit, locale)}`,
    rule.onlyFromBook ? 'only addresses from the book' : null,
    rule.newDestinationWaitHours > 0 ? `a new destination waits ${rule.newDestinationWaitHours} h` : null,
    rule.groups ? `approval groups: ${rule.groups}` : null,
    rule.approvalValidHours ? `an approval counts for ${rule.approvalValidHours} h, then must be given again` : null,
    rule.unusualAmount ?? null,
    rule.provenControlAbove ? `above ${groupAmount(rule.provenControlAbove, locale)} only addresses whose control is proven` : null,
  ].filter((extra): extra is string => extra !== null);
  return `${policy}: ${tier}${asked}${extras.length === 0 ? '' : `; ${extras.join('; ')}`}`;
}

function feeSourceText(view: ApproverView): string {
  switch (view.feeSource) {
    case 'signedAtRequest':
      return 'as preflight computed it, signed by the initiator';
    case 'currencyListNow':
      return 'from the currency list now; the request predates signed fees';
    case 'unknown':
      return 'not known: the currency list holds no fee schedule, run a sync';
    default: {
      const never: never = view.feeSource;
      return never;
    }
  }
}

/** Who still has to approve, in words: how many more, from which approval groups, and whose approvals expired. */
export function stillNeededText(approvals: ReviewApprovals): string {
  const groups = approvals.groupsStillNeeded ?? [];
  const expired = approvals.given.filter((approval) => approval.expired === true).map((approval) => approval.operator);
  const again = expired.length === 0 ? '' : `; expired, to be given again: ${[...new Set(expired)].join(', ')}`;
  const fromGroups = groups.length === 0 ? '' : `; from the approval groups: ${groups.join(' and ')}`;
  if (approvals.stillNeeded === 0 && groups.length === 0) return `none: ${approvals.counted} of ${approvals.required} independent approval${approvals.required === 1 ? '' : 's'} given${again}`;
  if (approvals.stillNeeded === 0) return `the groups: ${groups.join(' and ')} (${approvals.counted} of ${approvals.required} independent approvals given, each approver standing for one group)${again}`;
  return `${approvals.stillNeeded} more, from operators independent of the initiator and of each other (${approvals.counted} of ${approvals.required} given)${fromGroups}${again}`;
}

/** The standing of the destination in words: book entry and label, new or paid before, look-alikes, the radar's flag. */
export function standingText(destination: ReviewDestination, time: (ms: number) => string): string {
  const book = destination.inBook
    ? `${(destination.payee ?? null) === null ? '' : `payee ${escapeSingleLine(destination.payee ?? '')}, `}in the address book${destination.bookSince === null ? '' : ` since ${time(destination.bookSince)}`}`
    : 'not in the address book';
  const label = destination.label === null ? 'no label' : `labelled "${destination.label}"`;
  const paid = destination.isNew ? 'NEW: never paid from this desk' : `paid ${destination.timesPaid} time${destination.timesPaid === 1 ? '' : 's'} before from this desk`;
  const alike = destination.lookAlikes.map(
    (entry) =>
      `LOOK-ALIKE of ${entry.address}${entry.label === null ? '' : ` ("${entry.label}")`}, differing at positions ${entry.differingPositions.map((position) => position + 1).join(', ')}`,
  );
  const flag = destination.poisoning ?? null;
  const flagged = flag === null ? [] : [poisoningFlagText(flag)];
  const control = controlStandingText(destination.control ?? { proven: false, at: null, txid: null }, time);
  return [book, label, paid, control, ...alike, ...flagged].join('; ');
}

/** The destination's verified payment history in words, per currency (the same on every face). */
export function historyText(history: readonly ReviewPaidLine[], locale: string, time: (ms: number) => string): string {
  if (history.length === 0) return 'never paid before from this desk';
  return history
    .map(
      (line) =>
        `${line.currency}: paid ${line.timesPaid} time${line.timesPaid === 1 ? '' : 's'}, last ${time(line.lastPaidAt)}, median ${groupAmount(line.median, locale)}, largest ${groupAmount(line.largest, locale)}`,
    )
    .join('; ');
}

/** Every item of the review as a label and a value in words, the same on every face. */
export function reviewLines(view: ApproverView, format: ReviewFormat): ReviewLine[] {
  const money = (value: string | null): string => (value === null ? 'not known' : `${groupAmount(value, format.locale)} ${view.currency}`);
  const given = view.approvals.given.map(
    (approval) => `${approval.operator} at ${format.time(approval.at)}${approval.counts ? '' : ` (does not count${approval.note === null ? '' : `: ${approval.note}`})`}`,
  );
  const values: Readonly<Record<ReviewItem, { value: string; warn: boolean }>> = {
    amount: { value: money(view.amount), warn: view.altered.includes('amount') },
    fee: {
      value: `${money(view.fee)} (${feeSourceText(view)})${view.feeNow === null ? '' : `; the currency list now says ${money(view.feeNow)}`}`,
      warn: view.feeSource !== 'signedAtRequest' || view.feeNow !== null,
    },
    total: { value: money(view.totalDebited), warn: view.totalDebited === null },
    currency: { value: `${view.currencyName} (${view.currency}), on the ${view.chainName} chain`, warn: view.altered.includes('currency') },
    type: {
      value: view.withdrawType === 'financialConfirmation' ? "financialConfirmation (the platform's finance side confirms before paying out)" : 'normal',
      warn: view.altered.includes('withdrawType'),
    },
    memo: {
      value: `${view.memo === null ? 'none' : `"${view.memo}"`}; the order's remark will read "${view.remark ?? 'not known: no signed intent'}"`,
      warn: view.altered.includes('memo'),
    },
    destination: { value: view.destination.address, warn: view.altered.includes('toAddress') },
    standing: { value: standingText(view.destination, format.time), warn: view.destination.isNew || view.destination.lookAlikes.length > 0 || !view.destination.inBook || (view.destination.poisoning ?? null) !== null },
    history: { value: historyText(view.destination.history, format.locale, format.time), warn: view.destination.history.length === 0 },
    rule: { value: ruleText(view, format.locale), warn: false },
    given: { value: given.length === 0 ? 'none yet' : given.join('; '), warn: view.approvals.given.some((approval) => approval.expired === true) },
    needed: { value: stillNeededText(view.approvals), warn: view.approvals.stillNeeded > 0 || (view.approvals.groupsStillNeeded ?? []).length > 0 },
    heldNow: {
      value: view.holdsNow.length === 0 ? 'no other rule in force now would hold it' : `HELD by the rules in force now: ${view.holdsNow.join('; ')}`,
      warn: view.holdsNow.length > 0,
    },
    age: {
      value: view.requestedAt === null ? 'not known: no signed intent' : `${duration(view.ageMs)} ago, at ${format.time(view.requestedAt)}, by ${view.initiator ?? 'nobody verified'}`,
      warn: false,
    },
    fingerprint: { value: view.fingerprint ?? 'none: no signed intent verifies', warn: view.fingerprint === null },
  };
  return REVIEW_ITEMS.map((item) => ({ item, label: REVIEW_LABELS[item], ...values[item] }));
}

/** What the approver is told first when the row was altered or no intent verifies (null when all is in order). */
export function reviewWarning(view: ApproverView): string | null {
  if (!view.signed) return 'No signed intent verifies for this request: what is shown comes from its row and must not be approved.';
  if (view.altered.length > 0) {
    return `The request row was altered after it was made (${view.altered.join(', ')}): shown here is what ${view.initiator ?? 'the initiator'} signed.`;
  }
  return null;
}
