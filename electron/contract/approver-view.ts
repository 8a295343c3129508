// What an approver is shown before signing (issue 20, part 5), the same words on every face: the engine's review of a
// request (withdrawals/review, computed from the signed intent and verified statements) and its items as label/value
// lines, which the app's approve dialog, the queue's detail, `withdraw show` and the CLI's approve prompt all print.
// Invariant: every label and word lives here (English, ENGLISH_REVIEW_WORDS) or in the app's catalogue (another language,
// given as ReviewWords) and the logic of what is said once, here; amounts are shown grouped (1,250.5), never converted to numbers.
import { groupAmount } from './amount-text';
import { type PoisoningFlag, poisoningFlagText } from './radar';
import { type ControlStanding, controlStandingText } from './control-proof';
import { escapeSingleLine } from './display-text';

/** The units a duration is written in. */
export interface DurationWords {
  readonly underAMinute: string;
  days(days: number): string;
  hours(hours: number): string;
  minutes(minutes: number): string;
}

export const ENGLISH_DURATION_WORDS: DurationWords = {
  underAMinute: 'under a minute',
  days: (days) => `${days} d`,
  hours: (hours) => `${hours} h`,
  minutes: (minutes) => `${minutes} min`,
};

/** "2 h 5 min", "45 min", "under a minute". */
export function duration(ms: number, words: DurationWords = ENGLISH_DURATION_WORDS): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return words.underAMinute;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  return [days > 0 ? words.days(days) : '', hours > 0 ? words.hours(hours) : '', rest > 0 ? words.minutes(rest) : ''].filter(Boolean).join(' ');
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

/** The one place the approver's labels are written in English (ReviewWords.labels in another language). */
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

/** The words of the review in one language: the labels, and each phrase with the values it takes (null: left out). */
export interface ReviewWords {
  readonly labels: Readonly<Record<ReviewItem, string>>;
  readonly duration: DurationWords;
  /** "3 approvals". */
  approvals(count: number): string;
  /** "the default USDT on TRON policy (none was ever set)". */
  policyDefault(values: { readonly currency: string }): string;
  /** "the USDT on TRON policy 1a2b3c4d5e6f". */
  policyNamed(values: { readonly currency: string; readonly policy: string }): string;
  /** "no amount tier applies to 12.5, so 1 approval". */
  tierNone(values: { readonly amount: string; readonly approvals: string }): string;
  /** "1,250.5 is above 1,000: that tier needs 2 approvals". */
  tierAbove(values: { readonly amount: string; readonly above: string; readonly approvals: string }): string;
  /** "the signed request asks for 3 approvals". */
  intentAsks(values: { readonly approvals: string }): string;
  dailyLimit(values: { readonly limit: string }): string;
  readonly onlyFromBook: string;
  newDestinationWait(values: { readonly hours: number }): string;
  approvalGroups(values: { readonly groups: string }): string;
  approvalValid(values: { readonly hours: number }): string;
  provenControlAbove(values: { readonly amount: string }): string;
  readonly feeSource: Readonly<Record<ReviewFeeSource, string>>;
  /** "a and b": names or groups joined into one list. */
  and(items: readonly string[]): string;
  /** "; expired, to be given again: alice, bob" (the leading separator included). */
  expiredAgain(values: { readonly names: string }): string;
  /** "; from the approval groups: 1 of finance and 1 of cfo". */
  fromGroups(values: { readonly groups: string }): string;
  neededNone(values: { readonly counted: number; readonly required: number; readonly again: string }): string;
  neededGroups(values: { readonly groups: string; readonly counted: number; readonly required: number; readonly again: string }): string;
  neededMore(values: { readonly more: number; readonly counted: number; readonly required: number; readonly fromGroups: string; readonly again: string }): string;
  /** "payee Acme, in the address book since …" (payee and since null when unknown). */
  inBook(values: { readonly payee: string | null; readonly since: string | null }): string;
  readonly notInBook: string;
  readonly noLabel: string;
  labelled(values: { readonly label: string }): string;
  readonly neverPaid: string;
  paidTimes(values: { readonly times: number }): string;
  lookAlike(values: { readonly address: string; readonly label: string | null; readonly positions: string }): string;
  /** The poisoning radar's flag (radar.ts poisoningFlagText in English). */
  poisoning(flag: PoisoningFlag): string;
  /** Whether control of the address is proven (control-proof.ts controlStandingText in English). */
  control(standing: ControlStanding, time: (ms: number) => string): string;
  readonly historyNever: string;
  historyLine(values: { readonly currency: string; readonly times: number; readonly last: string; readonly median: string; readonly largest: string }): string;
  readonly notKnown: string;
  givenLine(values: { readonly operator: string; readonly at: string; readonly counts: boolean; readonly note: string | null }): string;
  feeLine(values: { readonly fee: string; readonly source: string; readonly now: string | null }): string;
  currencyLine(values: { readonly name: string; readonly currency: string; readonly chain: string }): string;
  readonly typeFinancial: string;
  readonly typeNormal: string;
  memoLine(values: { readonly memo: string | null; readonly remark: string | null }): string;
  readonly noneYet: string;
  readonly heldNone: string;
  held(values: { readonly holds: string }): string;
  readonly ageUnknown: string;
  ageLine(values: { readonly ago: string; readonly at: string; readonly by: string | null }): string;
  readonly noFingerprint: string;
  readonly unsignedWarning: string;
  alteredWarning(values: { readonly fields: string; readonly initiator: string | null }): string;
}

/** The English words: what the CLI and the app in English show. */
export const ENGLISH_REVIEW_WORDS: ReviewWords = {
  labels: REVIEW_LABELS,
  duration: ENGLISH_DURATION_WORDS,
  approvals: (count) => `${count} approval${count === 1 ? '' : 's'}`,
  policyDefault: (v) => `the default ${v.currency} policy (none was ever set)`,
  policyNamed: (v) => `the ${v.currency} policy ${v.policy}`,
  tierNone: (v) => `no amount tier applies to ${v.amount}, so ${v.approvals}`,
  tierAbove: (v) => `${v.amount} is above ${v.above}: that tier needs ${v.approvals}`,
  intentAsks: (v) => `the signed request asks for ${v.approvals}`,
  dailyLimit: (v) => `daily limit ${v.limit}`,
  onlyFromBook: 'only addresses from the book',
  newDestinationWait: (v) => `a new destination waits ${v.hours} h`,
  approvalGroups: (v) => `approval groups: ${v.groups}`,
  approvalValid: (v) => `an approval counts for ${v.hours} h, then must be given again`,
  provenControlAbove: (v) => `above ${v.amount} only addresses whose control is proven`,
  feeSource: {
    signedAtRequest: 'as preflight computed it, signed by the initiator',
    currencyListNow: 'from the currency list now; the request predates signed fees',
    unknown: 'not known: the currency list holds no fee schedule, run a sync',
  },
  and: (items) => items.join(' and '),
  expiredAgain: (v) => `; expired, to be given again: ${v.names}`,
  fromGroups: (v) => `; from the approval groups: ${v.groups}`,
  neededNone: (v) => `none: ${v.counted} of ${v.required} independent approval${v.required === 1 ? '' : 's'} given${v.again}`,
  neededGroups: (v) => `the groups: ${v.groups} (${v.counted} of ${v.required} independent approvals given, each approver standing for one group)${v.again}`,
  neededMore: (v) => `${v.more} more, from operators independent of the initiator and of each other (${v.counted} of ${v.required} given)${v.fromGroups}${v.again}`,
  inBook: (v) => `${v.payee === null ? '' : `payee ${v.payee}, `}in the address book${v.since === null ? '' : ` since ${v.since}`}`,
  notInBook: 'not in the address book',
  noLabel: 'no label',
  labelled: (v) => `labelled "${v.label}"`,
  neverPaid: 'NEW: never paid from this desk',
  paidTimes: (v) => `paid ${v.times} time${v.times === 1 ? '' : 's'} before from this desk`,
  lookAlike: (v) => `LOOK-ALIKE of ${v.address}${v.label === null ? '' : ` ("${v.label}")`}, differing at positions ${v.positions}`,
  poisoning: poisoningFlagText,
  control: controlStandingText,
  historyNever: 'never paid before from this desk',
  historyLine: (v) => `${v.currency}: paid ${v.times} time${v.times === 1 ? '' : 's'}, last ${v.last}, median ${v.median}, largest ${v.largest}`,
  notKnown: 'not known',
  givenLine: (v) => `${v.operator} at ${v.at}${v.counts ? '' : ` (does not count${v.note === null ? '' : `: ${v.note}`})`}`,
  feeLine: (v) => `${v.fee} (${v.source})${v.now === null ? '' : `; the currency list now says ${v.now}`}`,
  currencyLine: (v) => `${v.name} (${v.currency}), on the ${v.chain} chain`,
  typeFinancial: "financialConfirmation (the platform's finance side confirms before paying out)",
  typeNormal: 'normal',
  memoLine: (v) => `${v.memo === null ? 'none' : `"${v.memo}"`}; the order's remark will read "${v.remark ?? 'not known: no signed intent'}"`,
  noneYet: 'none yet',
  heldNone: 'no other rule in force now would hold it',
  held: (v) => `HELD by the rules in force now: ${v.holds}`,
  ageUnknown: 'not known: no signed intent',
  ageLine: (v) => `${v.ago} ago, at ${v.at}, by ${v.by ?? 'nobody verified'}`,
  noFingerprint: 'none: no signed intent verifies',
  unsignedWarning: 'No signed intent verifies for this request: what is shown comes from its row and must not be approved.',
  alteredWarning: (v) => `The request row was altered after it was made (${v.fields}): shown here is what ${v.initiator ?? 'the initiator'} signed.`,
};

/** The rule that matched and why, in words: the tier the amount falls in, and the policy's other conditions. */
export function ruleText(view: Pick<ApproverView, 'rule' | 'amount' | 'currencyName'>, locale: string, words: ReviewWords = ENGLISH_REVIEW_WORDS): string {
  const { rule } = view;
  const amount = groupAmount(view.amount, locale);
  const policy = rule.policy === 'default' ? words.policyDefault({ currency: view.currencyName }) : words.policyNamed({ currency: view.currencyName, policy: rule.policy.slice(0, 12) });
  const tier =
    rule.tierAbove === null
      ? words.tierNone({ amount, approvals: words.approvals(rule.tierApprovals) })
      : words.tierAbove({ amount, above: groupAmount(rule.tierAbove, locale), approvals: words.approvals(rule.tierApprovals) });
  const parts = [
    tier,
    rule.intentApprovals > rule.tierApprovals ? words.intentAsks({ approvals: words.approvals(rule.intentApprovals) }) : null,
    rule.dailyLimit === null ? null : words.dailyLimit({ limit: groupAmount(rule.dailyLimit, locale) }),
    rule.onlyFromBook ? words.onlyFromBook : null,
    rule.newDestinationWaitHours > 0 ? words.newDestinationWait({ hours: rule.newDestinationWaitHours }) : null,
    rule.groups ? words.approvalGroups({ groups: rule.groups }) : null,
    rule.approvalValidHours ? words.approvalValid({ hours: rule.approvalValidHours }) : null,
    rule.unusualAmount ?? null,
    rule.provenControlAbove ? words.provenControlAbove({ amount: groupAmount(rule.provenControlAbove, locale) }) : null,
  ].filter((part): part is string => part !== null);
  return `${policy}: ${parts.join('; ')}`;
}

/** Who still has to approve, in words: how many more, from which approval groups, and whose approvals expired. */
export function stillNeededText(approvals: ReviewApprovals, words: ReviewWords = ENGLISH_REVIEW_WORDS): string {
  const groups = approvals.groupsStillNeeded ?? [];
  const expired = approvals.given.filter((approval) => approval.expired === true).map((approval) => approval.operator);
  const again = expired.length === 0 ? '' : words.expiredAgain({ names: [...new Set(expired)].join(', ') });
  const { counted, required } = approvals;
  if (approvals.stillNeeded === 0 && groups.length === 0) return words.neededNone({ counted, required, again });
  if (approvals.stillNeeded === 0) return words.neededGroups({ groups: words.and(groups), counted, required, again });
  const fromGroups = groups.length === 0 ? '' : words.fromGroups({ groups: words.and(groups) });
  return words.neededMore({ more: approvals.stillNeeded, counted, required, fromGroups, again });
}

/** The standing of the destination in words: book entry and label, new or paid before, look-alikes, the radar's flag. */
export function standingText(destination: ReviewDestination, time: (ms: number) => string, words: ReviewWords = ENGLISH_REVIEW_WORDS): string {
  const payee = destination.payee ?? null;
  const book = destination.inBook
    ? words.inBook({ payee: payee === null ? null : escapeSingleLine(payee), since: destination.bookSince === null ? null : time(destination.bookSince) })
    : words.notInBook;
  const label = destination.label === null ? words.noLabel : words.labelled({ label: destination.label });
  const paid = destination.isNew ? words.neverPaid : words.paidTimes({ times: destination.timesPaid });
  const alike = destination.lookAlikes.map((entry) =>
    words.lookAlike({ address: entry.address, label: entry.label, positions: entry.differingPositions.map((position) => position + 1).join(', ') }),
  );
  const flag = destination.poisoning ?? null;
  const flagged = flag === null ? [] : [words.poisoning(flag)];
  const control = words.control(destination.control ?? { proven: false, at: null, txid: null }, time);
  return [book, label, paid, control, ...alike, ...flagged].join('; ');
}

/** The destination's verified payment history in words, per currency (the same on every face). */
export function historyText(history: readonly ReviewPaidLine[], locale: string, time: (ms: number) => string, words: ReviewWords = ENGLISH_REVIEW_WORDS): string {
  if (history.length === 0) return words.historyNever;
  return history
    .map((line) =>
      words.historyLine({ currency: line.currency, times: line.timesPaid, last: time(line.lastPaidAt), median: groupAmount(line.median, locale), largest: groupAmount(line.largest, locale) }),
    )
    .join('; ');
}

/** Every item of the review as a label and a value in words, the same on every face. */
export function reviewLines(view: ApproverView, format: ReviewFormat, words: ReviewWords = ENGLISH_REVIEW_WORDS): ReviewLine[] {
  const money = (value: string | null): string => (value === null ? words.notKnown : `${groupAmount(value, format.locale)} ${view.currency}`);
  const given = view.approvals.given.map((approval) => words.givenLine({ operator: approval.operator, at: format.time(approval.at), counts: approval.counts, note: approval.note }));
  const values: Readonly<Record<ReviewItem, { value: string; warn: boolean }>> = {
    amount: { value: money(view.amount), warn: view.altered.includes('amount') },
    fee: {
      value: words.feeLine({ fee: money(view.fee), source: words.feeSource[view.feeSource], now: view.feeNow === null ? null : money(view.feeNow) }),
      warn: view.feeSource !== 'signedAtRequest' || view.feeNow !== null,
    },
    total: { value: money(view.totalDebited), warn: view.totalDebited === null },
    currency: { value: words.currencyLine({ name: view.currencyName, currency: view.currency, chain: view.chainName }), warn: view.altered.includes('currency') },
    type: {
      value: view.withdrawType === 'financialConfirmation' ? words.typeFinancial : words.typeNormal,
      warn: view.altered.includes('withdrawType'),
    },
    memo: { value: words.memoLine({ memo: view.memo, remark: view.remark }), warn: view.altered.includes('memo') },
    destination: { value: view.destination.address, warn: view.altered.includes('toAddress') },
    standing: {
      value: standingText(view.destination, format.time, words),
      warn: view.destination.isNew || view.destination.lookAlikes.length > 0 || !view.destination.inBook || (view.destination.poisoning ?? null) !== null,
    },
    history: { value: historyText(view.destination.history, format.locale, format.time, words), warn: view.destination.history.length === 0 },
    rule: { value: ruleText(view, format.locale, words), warn: false },
    given: { value: given.length === 0 ? words.noneYet : given.join('; '), warn: view.approvals.given.some((approval) => approval.expired === true) },
    needed: { value: stillNeededText(view.approvals, words), warn: view.approvals.stillNeeded > 0 || (view.approvals.groupsStillNeeded ?? []).length > 0 },
    heldNow: {
      value: view.holdsNow.length === 0 ? words.heldNone : words.held({ holds: view.holdsNow.join('; ') }),
      warn: view.holdsNow.length > 0,
    },
    age: {
      value:
        view.requestedAt === null ? words.ageUnknown : words.ageLine({ ago: duration(view.ageMs, words.duration), at: format.time(view.requestedAt), by: view.initiator }),
      warn: false,
    },
    fingerprint: { value: view.fingerprint ?? words.noFingerprint, warn: view.fingerprint === null },
  };
  return REVIEW_ITEMS.map((item) => ({ item, label: words.labels[item], ...values[item] }));
}

/** What the approver is told first when the row was altered or no intent verifies (null when all is in order). */
export function reviewWarning(view: ApproverView, words: ReviewWords = ENGLISH_REVIEW_WORDS): string | null {
  if (!view.signed) return words.unsignedWarning;
  if (view.altered.length > 0) return words.alteredWarning({ fields: view.altered.join(', '), initiator: view.initiator });
  return null;
}
