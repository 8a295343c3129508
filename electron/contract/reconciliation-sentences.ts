// A reconciliation finding's two sentences (summary and explanation) from the values they say, the same in every face
// (issue 22): the engine keeps the values on the finding (`sentence`) and prints this file's English as `summary` and
// `explanation` (the CLI, the CSVs and the statement PDF); the app says the same values in the window's language with
// the catalogue's words. What a sentence is made of, and when a part is left out, is decided here once; the words only
// arrange it. Pure: amounts are exact decimal strings ("-12.5" where a difference can go either way), times epoch ms.
import { Money } from '../chains/amounts';

/** An order the desk sent that was in flight at the reading: a pending difference waits for it. */
export interface WaitingOrder {
  readonly userOrder: string;
  /** When the desk first saw the order exist at the platform. */
  readonly sentAt: number;
}

/** A request still being sent (its creation not confirmed) that would account for an unexplained difference. */
export interface UnconfirmedRequest {
  readonly id: string;
  readonly userOrder: string;
  /** What it would account for (signed). */
  readonly amount: string;
}

/** A difference at a balance reading: pending while `waitingFor` names orders in flight, unexplained when it is empty. */
interface ReadingDifference {
  /** Orders the desk sent that were in flight at the reading; empty: nothing it knows accounts for the difference. */
  readonly waitingFor: readonly WaitingOrder[];
  /** Named only for an unexplained difference: the request being sent that would account for it, if one would. */
  readonly unconfirmed: UnconfirmedRequest | null;
}

/** Which sentence a finding says and with which values; the finding's currency is the unit of every amount. */
export type FindingSentence =
  /** A deposit only a callback reported; `listedSince`: a deposits sync finished after the callback without it. */
  | { readonly says: 'callbackOnly'; readonly apiOrder: string; readonly amount: string; readonly listedSince: boolean }
  /** A deposit only getDeposits listed; `retrying`: the platform may still deliver its callback. */
  | { readonly says: 'queryOnly'; readonly apiOrder: string; readonly amount: string; readonly retrying: boolean }
  /** Deposits only listed while the desk received no callbacks; `anyCallback`: the desk has received one since. */
  | { readonly says: 'queryOnlyWithoutCallbacks'; readonly count: number; readonly amount: string; readonly anyCallback: boolean }
  /** A deposit fee other than the table's, on `received` (amount + fee); `difference` = fee - expected. */
  | { readonly says: 'depositFeeDiffers'; readonly apiOrder: string; readonly fee: string; readonly received: string; readonly expected: string; readonly difference: string }
  /** A withdrawal fee other than the table's, on the order's amount; `difference` = fee - expected. */
  | { readonly says: 'withdrawalFeeDiffers'; readonly userOrder: string; readonly fee: string; readonly amount: string; readonly expected: string; readonly difference: string }
  /** An order refunded (`refunded`) or failed: `returned` = amount + fee came back. */
  | { readonly says: 'orderReturned'; readonly userOrder: string; readonly refunded: boolean; readonly returned: string; readonly amount: string; readonly fee: string }
  /** Records stored right after a reading that were already in it; `amount` is what they move (signed). */
  | { readonly says: 'recordedAfterReading'; readonly count: number; readonly amount: string }
  /** The available balance from `from` to `to` (`change`), the records accounting for `accounted`, leaving `left`. */
  | ({ readonly says: 'balanceChange'; readonly from: string; readonly to: string; readonly change: string; readonly accounted: string; readonly left: string } & ReadingDifference)
  /** The frozen balance against the `openOrders` open orders holding `held`: `difference` = frozen - held. */
  | ({ readonly says: 'frozenMismatch'; readonly frozen: string; readonly openOrders: number; readonly held: string; readonly difference: string } & ReadingDifference);

/** What a sentence can say. */
export type FindingSentenceName = FindingSentence['says'];

/** How a face writes values: the engine keeps amounts plain and times in ISO 8601 UTC; the app in the person's locale and zone. */
export interface FindingFormat {
  /** An exact decimal string ("-12.5" too) for reading, every digit kept. */
  number(value: string): string;
  /** An instant. */
  time(ms: number): string;
}

/** The engine's own format: "1250.5", "2026-11-23T21:05:00.000Z". */
export const PLAIN_FINDING_FORMAT: FindingFormat = {
  number: (value) => value,
  time: (ms) => new Date(ms).toISOString(),
};

/** A change as people read it: "+12.5" above zero, "-3" and "0" as they are (written in `format`). */
function signedNumber(value: string, format: FindingFormat): string {
  const above = !value.startsWith('-') && !new Money(value).isZero();
  return `${above ? '+' : ''}${format.number(value)}`;
}

// ---- the words: each sentence's template in one language (English here; the app's catalogue gives German) -------------
// A template takes values already written: amounts with their unit, times, counts as numbers, branches as booleans.

type Text = string;

/** The words findings are said in, in one language. */
export interface FindingWords {
  readonly summary: {
    callbackOnly(v: { readonly apiOrder: Text; readonly amount: Text }): string;
    queryOnly(v: { readonly apiOrder: Text; readonly amount: Text }): string;
    queryOnlyWithoutCallbacks(v: { readonly count: number; readonly amount: Text }): string;
    depositFeeDiffers(v: { readonly apiOrder: Text; readonly fee: Text; readonly received: Text; readonly expected: Text; readonly difference: Text }): string;
    withdrawalFeeDiffers(v: { readonly userOrder: Text; readonly fee: Text; readonly amount: Text; readonly expected: Text; readonly difference: Text }): string;
    orderReturned(v: { readonly userOrder: Text; readonly refunded: boolean; readonly returned: Text; readonly amount: Text; readonly fee: Text }): string;
    recordedAfterReading(v: { readonly count: number; readonly amount: Text }): string;
    /** `waiting`: the sentence follows waitingFor's colon (the difference is not accounted for yet), else it stands alone (unexplained). */
    balanceChange(v: { readonly from: Text; readonly to: Text; readonly change: Text; readonly accounted: Text; readonly left: Text; readonly waiting: boolean }): string;
    frozenMismatch(v: { readonly frozen: Text; readonly openOrders: number; readonly held: Text; readonly difference: Text; readonly waiting: boolean }): string;
    /** "Waiting for order td-1 (sent at …): " before a difference's sentence. */
    waitingFor(v: { readonly count: number; readonly orders: Text; readonly difference: Text }): string;
    /** One order of waitingFor's list, "td-1 (sent at …)". */
    waitingOrder(v: { readonly userOrder: Text; readonly sentAt: Text }): string;
  };
  readonly explanation: {
    callbackOnly(v: { readonly listedSince: boolean }): string;
    queryOnly(v: { readonly retrying: boolean }): string;
    queryOnlyWithoutCallbacks(v: { readonly anyCallback: boolean }): string;
    depositFeeDiffers(): string;
    withdrawalFeeDiffers(): string;
    orderReturned(v: { readonly refunded: boolean }): string;
    recordedAfterReading(): string;
    balanceChange(): string;
    frozenMismatch(): string;
    waitingFor(): string;
    /** Said after an unexplained difference's explanation when a request being sent would account for it. */
    unconfirmedRequest(v: { readonly id: Text; readonly userOrder: Text; readonly amount: Text }): string;
  };
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
const wasWere = (count: number): string => (count === 1 ? 'was' : 'were');

/** The English words: what the CLI, the CSVs, the statement PDF and the app in English say. */
export const ENGLISH_FINDING_WORDS: FindingWords = {
  summary: {
    callbackOnly: (v) => `Deposit ${v.apiOrder} of ${v.amount} was reported by a verified callback but is not in the service's deposit list.`,
    queryOnly: (v) => `Deposit ${v.apiOrder} of ${v.amount} is in the service's deposit list, but the service never sent its notice (callback).`,
    queryOnlyWithoutCallbacks: (v) => `${plural(v.count, 'deposit')} (${v.amount}) ${wasWere(v.count)} in the service's deposit list only (no notice arrived).`,
    depositFeeDiffers: (v) => `Deposit ${v.apiOrder}: the platform charged a fee of ${v.fee} on ${v.received} received; the currency table gives ${v.expected} (${v.difference}).`,
    withdrawalFeeDiffers: (v) => `Withdrawal ${v.userOrder}: the platform charged a fee of ${v.fee} on ${v.amount}; the currency table gives ${v.expected} (${v.difference}).`,
    orderReturned: (v) =>
      `Withdrawal ${v.userOrder} ${v.refunded ? 'was refunded' : 'failed'}: ${v.returned} (amount ${v.amount} + fee ${v.fee}) returned to the available balance.`,
    recordedAfterReading: (v) => `${plural(v.count, 'record')} (${v.amount}) stored right after a balance reading ${wasWere(v.count)} already in it.`,
    balanceChange: (v) =>
      `${v.waiting ? 'the' : 'The'} available balance went from ${v.from} to ${v.to} (${v.change}) between two readings; ` +
      `the records account for ${v.accounted}, leaving ${v.left} ${v.waiting ? 'not accounted for yet' : 'unexplained'}.`,
    frozenMismatch: (v) =>
      `${v.waiting ? 'the' : 'The'} frozen balance is ${v.frozen}, but the ${plural(v.openOrders, 'open order')} this desk knows hold ${v.held} (amount + fee): ` +
      `${v.difference} ${v.waiting ? 'not accounted for yet' : 'unexplained'}.`,
    waitingFor: (v) => `Waiting for ${v.count === 1 ? 'order' : 'orders'} ${v.orders}: ${v.difference}`,
    waitingOrder: (v) => `${v.userOrder} (sent at ${v.sentAt})`,
  },
  explanation: {
    callbackOnly: (v) =>
      v.listedSince
        ? 'A deposits sync finished after the callback and did not list it. Run a full deposits sync (every page) to be sure; if it is still not listed, ask the platform whether this deposit stands (give them its apiOrder and txid) and check the transaction with checkTransfer.'
        : 'No deposits sync has finished since the callback arrived: the next sync should list it.',
    queryOnly: (v) =>
      v.retrying
        ? 'The platform may still deliver its callback: it retries for 6 hours after the deposit (PROTOCOL §10.3).'
        : 'The platform’s callback retries are over: the callback was lost. Check that the callback receiver was reachable at the time, and tell the platform (give them the apiOrder).',
    queryOnlyWithoutCallbacks: (v) =>
      v.anyCallback
        ? 'They arrived before this desk received its first callback.'
        : 'This desk has not received any callback: it learns of deposits by sync alone (start the callback receiver in Settings to compare both).',
    depositFeeDiffers: () => 'Ask the platform which fee applies; the currency table was fetched at the time shown with the table (run a sync to fetch it again).',
    withdrawalFeeDiffers: () =>
      'Ask the platform which fee applies (give them the apiOrder); the currency table was fetched at the time shown with the table (run a sync to fetch it again).',
    orderReturned: (v) => (v.refunded ? 'The platform rejected the order and returned amount and fee (WithdrawRefund).' : 'The order failed and the platform returned amount and fee (fail).'),
    recordedAfterReading: () => 'A sync reads the balances first and the deposits and orders after: records of the same run can be in the balance it read.',
    balanceChange: () =>
      'No deposit, withdrawal or refund this desk knows of accounts for it: a change made outside the desk (by the platform, or an order or deposit the desk never saw). Ask the platform about it.',
    frozenMismatch: () =>
      'Frozen funds are the amount + fee of orders not yet final: an order made outside this desk, or one whose outcome the desk has not seen, would explain it. Run a sync, then ask the platform about open orders.',
    waitingFor: () =>
      'The desk sent this order and had not seen its final status when the balance was read: the platform may have moved it on in between. ' +
      'Run a sync once the order is final (the next balance reading settles it), then reconcile again; a difference still left then is unexplained.',
    unconfirmedRequest: (v) =>
      `Request ${v.id} (${v.userOrder}) was being sent and its creation is not confirmed: if the platform created it, it accounts for ${v.amount} (run a sync to confirm).`,
  },
};

/** A finding's sentences. */
export interface FindingText {
  readonly summary: string;
  readonly explanation: string;
}

/** A difference at a reading: "Waiting for order … : …" while orders were in flight, else the sentence alone and what to do. */
function readingDifferenceText(
  difference: ReadingDifference,
  sentence: (waiting: boolean) => string,
  unexplained: string,
  unit: (value: string, signed: boolean) => string,
  words: FindingWords,
  format: FindingFormat,
): FindingText {
  if (difference.waitingFor.length === 0) {
    const { unconfirmed } = difference;
    const hint = unconfirmed === null ? null : words.explanation.unconfirmedRequest({ id: unconfirmed.id, userOrder: unconfirmed.userOrder, amount: unit(unconfirmed.amount, true) });
    return { summary: sentence(false), explanation: hint === null ? unexplained : `${unexplained} ${hint}` };
  }
  const orders = difference.waitingFor.map((order) => words.summary.waitingOrder({ userOrder: order.userOrder, sentAt: format.time(order.sentAt) })).join(', ');
  return {
    summary: words.summary.waitingFor({ count: difference.waitingFor.length, orders, difference: sentence(true) }),
    explanation: words.explanation.waitingFor(),
  };
}

/** A finding's summary and explanation from its values, in `words` (English unless given), written in `format`. */
export function findingText(currency: string, sentence: FindingSentence, words: FindingWords = ENGLISH_FINDING_WORDS, format: FindingFormat = PLAIN_FINDING_FORMAT): FindingText {
  const unit = (value: string, signed = false): string => `${signed ? signedNumber(value, format) : format.number(value)} ${currency}`;
  const { summary, explanation } = words;
  switch (sentence.says) {
    case 'callbackOnly':
      return { summary: summary.callbackOnly({ apiOrder: sentence.apiOrder, amount: unit(sentence.amount) }), explanation: explanation.callbackOnly({ listedSince: sentence.listedSince }) };
    case 'queryOnly':
      return { summary: summary.queryOnly({ apiOrder: sentence.apiOrder, amount: unit(sentence.amount) }), explanation: explanation.queryOnly({ retrying: sentence.retrying }) };
    case 'queryOnlyWithoutCallbacks':
      return { summary: summary.queryOnlyWithoutCallbacks({ count: sentence.count, amount: unit(sentence.amount) }), explanation: explanation.queryOnlyWithoutCallbacks({ anyCallback: sentence.anyCallback }) };
    case 'depositFeeDiffers':
      return {
        summary: summary.depositFeeDiffers({
          apiOrder: sentence.apiOrder,
          fee: unit(sentence.fee),
          received: unit(sentence.received),
          expected: unit(sentence.expected),
          difference: signedNumber(sentence.difference, format),
        }),
        explanation: explanation.depositFeeDiffers(),
      };
    case 'withdrawalFeeDiffers':
      return {
        summary: summary.withdrawalFeeDiffers({
          userOrder: sentence.userOrder,
          fee: unit(sentence.fee),
          amount: unit(sentence.amount),
          expected: unit(sentence.expected),
          difference: signedNumber(sentence.difference, format),
        }),
        explanation: explanation.withdrawalFeeDiffers(),
      };
    case 'orderReturned':
      return {
        summary: summary.orderReturned({ userOrder: sentence.userOrder, refunded: sentence.refunded, returned: unit(sentence.returned), amount: unit(sentence.amount), fee: unit(sentence.fee) }),
        explanation: explanation.orderReturned({ refunded: sentence.refunded }),
      };
    case 'recordedAfterReading':
      return { summary: summary.recordedAfterReading({ count: sentence.count, amount: unit(sentence.amount, true) }), explanation: explanation.recordedAfterReading() };
    case 'balanceChange':
      return readingDifferenceText(
        sentence,
        (waiting) =>
          summary.balanceChange({
            from: unit(sentence.from),
            to: unit(sentence.to),
            change: signedNumber(sentence.change, format),
            accounted: signedNumber(sentence.accounted, format),
            left: unit(sentence.left, true),
            waiting,
          }),
        explanation.balanceChange(),
        unit,
        words,
        format,
      );
    case 'frozenMismatch':
      return readingDifferenceText(
        sentence,
        (waiting) =>
          summary.frozenMismatch({ frozen: unit(sentence.frozen), openOrders: sentence.openOrders, held: unit(sentence.held), difference: unit(sentence.difference, true), waiting }),
        explanation.frozenMismatch(),
        unit,
        words,
        format,
      );
    default: {
      const never: never = sentence;
      throw new Error(`no words for finding sentence ${(never as FindingSentence).says}`);
    }
  }
}
