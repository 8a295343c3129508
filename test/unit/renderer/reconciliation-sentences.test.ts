// Reconciliation findings in the window's language (contract/reconciliation-sentences.ts, i18n/sentences findingTextFor):
// for every sentence and every branch, the catalogue's English says exactly what the contract's English (the engine's
// summary and explanation) says, the German says all of it with no English word left, a few German findings read as
// written, and the function the screens call follows the language in force, English byte for byte the engine's.
import { afterEach, describe, expect, it } from 'vitest';
import type { ReconciliationFinding } from '../../../electron/contract/reconciliation';
import { findingText, PLAIN_FINDING_FORMAT, type FindingFormat, type FindingSentence, type FindingSentenceName } from '../../../electron/contract/reconciliation-sentences';
import { groupAmount } from '../../../electron/contract/amount-text';
import { intlFor, useLanguageStore } from '../../../renderer/src/i18n';
import { findingTextFor, findingWordsIn } from '../../../renderer/src/i18n/sentences';

const EN = intlFor('en-US');
const DE = intlFor('de-DE');
const T0 = Date.UTC(2026, 10, 23, 20, 5);

afterEach(() => {
  useLanguageStore.getState().apply('system');
});

const waitingOne = [{ userOrder: 'td-9', sentAt: T0 }];
const waitingTwo = [...waitingOne, { userOrder: 'td-10', sentAt: T0 + 61_000 }];
const unconfirmed = { id: '12', userOrder: 'td-12', amount: '-1250.5' };

/** Every sentence with values taking each of its branches: a sentence the contract adds without a case here does not compile. */
const SENTENCES: { readonly [S in FindingSentenceName]: readonly Extract<FindingSentence, { says: S }>[] } = {
  callbackOnly: [true, false].map((listedSince) => ({ says: 'callbackOnly', apiOrder: 'DEP-77', amount: '1250.000001', listedSince })),
  queryOnly: [true, false].map((retrying) => ({ says: 'queryOnly', apiOrder: 'DEP-78', amount: '0.5', retrying })),
  queryOnlyWithoutCallbacks: [1, 3, 12345].flatMap((count) => [true, false].map((anyCallback) => ({ says: 'queryOnlyWithoutCallbacks' as const, count, amount: '7300.3', anyCallback }))),
  depositFeeDiffers: ['0.5', '-0.25', '0'].map((difference) => ({ says: 'depositFeeDiffers', apiOrder: 'DEP-79', fee: '1', received: '1000', expected: '0.5', difference })),
  withdrawalFeeDiffers: ['1.725', '-1'].map((difference) => ({ says: 'withdrawalFeeDiffers', userOrder: 'td-7', fee: '2.75', amount: '25000', expected: '1.025', difference })),
  orderReturned: [true, false].map((refunded) => ({ says: 'orderReturned', userOrder: 'td-8', refunded, returned: '26.025', amount: '25', fee: '1.025' })),
  recordedAfterReading: [
    { says: 'recordedAfterReading', count: 1, amount: '30' },
    { says: 'recordedAfterReading', count: 2, amount: '-1030.5' },
    { says: 'recordedAfterReading', count: 4321, amount: '0' },
  ],
  balanceChange: [
    { waitingFor: [], unconfirmed: null },
    { waitingFor: [], unconfirmed },
    { waitingFor: waitingOne, unconfirmed: null },
    { waitingFor: waitingTwo, unconfirmed: null },
  ].map((difference) => ({ says: 'balanceChange', from: '1000', to: '1055.000001', change: '55.000001', accounted: '-3', left: '58.000001', ...difference })),
  frozenMismatch: [
    { openOrders: 0, waitingFor: [], unconfirmed: null },
    { openOrders: 1, waitingFor: [], unconfirmed },
    { openOrders: 2, waitingFor: waitingOne, unconfirmed: null },
    { openOrders: 1234, waitingFor: waitingTwo, unconfirmed: null },
  ].map((difference) => ({ says: 'frozenMismatch', frozen: '3000', held: '0', difference: '3000', ...difference })),
};
const ALL: readonly FindingSentence[] = Object.values(SENTENCES).flat();

/** How a German window writes the values: amounts grouped the German way, times as the screen writes them (here a stand-in). */
const GERMAN_FORMAT: FindingFormat = { number: (value) => groupAmount(value, 'de-DE'), time: (ms) => `T${ms}` };

/** Words German never uses (the German desk's end-to-end check uses the same list). */
const ENGLISH_WORD =
  /\b(the|and|of|with|from|this|your|you|not|is|are|has|have|been|by|which|when|what|who|there|their|before|after|only|each|every|none|than|should|would|could|must|does|for|to|on|or|no|yet|shown|seen|loading|deposit|withdrawal|balance|order|orders|records?|fee|sent|waiting|unexplained|accounted)\b/i;

describe('reconciliation findings in words', () => {
  it("the catalogue's English says exactly what the contract's English says, for every sentence and branch", () => {
    const english = findingWordsIn(EN);
    for (const sentence of ALL) {
      expect(findingText('trx.usdt', sentence, english), JSON.stringify(sentence)).toEqual(findingText('trx.usdt', sentence));
    }
    expect(ALL.length).toBeGreaterThan(25);
  });

  it('says every sentence and branch in German, with no English word or ICU syntax left', () => {
    const german = findingWordsIn(DE);
    for (const sentence of ALL) {
      const text = findingText('trx.usdt', sentence, german, GERMAN_FORMAT);
      const english = findingText('trx.usdt', sentence);
      for (const part of ['summary', 'explanation'] as const) {
        expect(text[part], `${sentence.says} ${part}`).not.toBe(english[part]);
        expect(text[part], `${sentence.says} ${part}: ${text[part]}`).not.toMatch(ENGLISH_WORD);
        expect(text[part], `${sentence.says} ${part}`).not.toMatch(/[{}]|undefined|null|NaN/);
      }
    }
  });

  it('says a few findings in German, amounts grouped the German way and signed where a change can go either way', () => {
    const german = findingWordsIn(DE);
    const say = (sentence: FindingSentence): ReturnType<typeof findingText> => findingText('trx.usdt', sentence, german, GERMAN_FORMAT);
    expect(say(SENTENCES.callbackOnly[0] as FindingSentence).summary).toBe(
      'Einzahlung DEP-77 über 1.250,000001 trx.usdt wurde von einem verifizierten Callback gemeldet, steht aber nicht in der Einzahlungsliste des Dienstes.',
    );
    expect(say(SENTENCES.queryOnlyWithoutCallbacks[4] as FindingSentence).summary).toBe(
      '12.345 Einzahlungen (7.300,3 trx.usdt) standen nur in der Einzahlungsliste des Dienstes (keine Benachrichtigung eingegangen).',
    );
    expect(say(SENTENCES.withdrawalFeeDiffers[0] as FindingSentence).summary).toBe(
      'Auszahlung td-7: Die Plattform hat auf 25.000 trx.usdt eine Gebühr von 2,75 trx.usdt berechnet; laut Währungstabelle sind es 1,025 trx.usdt (+1,725).',
    );
    const unexplained = say(SENTENCES.balanceChange[1] as FindingSentence);
    expect(unexplained.summary).toBe(
      'Der verfügbare Saldo ging zwischen zwei Ablesungen von 1.000 trx.usdt auf 1.055,000001 trx.usdt (+55,000001); die Datensätze erklären -3, +58,000001 trx.usdt bleiben unerklärt.',
    );
    expect(unexplained.explanation).toMatch(/Fragen Sie die Plattform danach\. Auszahlungsanfrage 12 \(Auftrag td-12\) wurde gerade gesendet.*erklärt sie -1\.250,5 trx\.usdt/);
    expect(say(SENTENCES.frozenMismatch[3] as FindingSentence).summary).toBe(
      `Wartet auf Aufträge td-9 (gesendet am T${T0}), td-10 (gesendet am T${T0 + 61_000}): Der gesperrte Saldo beträgt 3.000 trx.usdt, aber die 1.234 offenen Aufträge, die dieser Desk kennt, halten 0 trx.usdt (Betrag + Gebühr): +3.000 trx.usdt sind noch nicht zugeordnet.`,
    );
  });

  it('the English keeps what the engine printed: pending and unexplained differences, plural and singular', () => {
    const pending = findingText('eth.usdt', SENTENCES.balanceChange[2] as FindingSentence);
    expect(pending.summary).toBe(
      `Waiting for order td-9 (sent at 2026-11-23T20:05:00.000Z): the available balance went from 1000 eth.usdt to 1055.000001 eth.usdt (+55.000001) between two readings; the records account for -3, leaving +58.000001 eth.usdt not accounted for yet.`,
    );
    expect(pending.explanation).toMatch(/^The desk sent this order/);
    const frozen = findingText('eth.usdt', SENTENCES.frozenMismatch[1] as FindingSentence);
    expect(frozen.summary).toBe('The frozen balance is 3000 eth.usdt, but the 1 open order this desk knows hold 0 eth.usdt (amount + fee): +3000 eth.usdt unexplained.');
    expect(frozen.explanation).toMatch(/about open orders\. Request 12 \(td-12\) was being sent .* it accounts for -1250\.5 eth\.usdt \(run a sync to confirm\)\.$/);
    expect(findingText('eth.usdt', SENTENCES.recordedAfterReading[2] as FindingSentence).summary).toBe('4321 records (0 eth.usdt) stored right after a balance reading were already in it.');
  });
});

describe('findingTextFor, which the screens call', () => {
  const sentence = SENTENCES.orderReturned[0] as FindingSentence;
  const finding: ReconciliationFinding = {
    kind: 'refund',
    explained: true,
    currency: 'trx.usdt',
    amount: '26.025',
    at: T0,
    ...findingText('trx.usdt', sentence, undefined, PLAIN_FINDING_FORMAT),
    sentence,
    reference: null,
  };

  it('in English says exactly the engine’s summary and explanation', () => {
    useLanguageStore.getState().apply('en');
    expect(findingTextFor(finding, String)).toEqual({ summary: finding.summary, explanation: finding.explanation, language: 'en' });
    expect(finding.summary).toBe('Withdrawal td-8 was refunded: 26.025 trx.usdt (amount 25 trx.usdt + fee 1.025 trx.usdt) returned to the available balance.');
  });

  it('in German says it in German, with the screen’s times', () => {
    useLanguageStore.getState().apply('de');
    expect(findingTextFor(finding, String)).toEqual({
      summary: 'Auszahlung td-8 wurde erstattet: 26,025 trx.usdt (Betrag 25 trx.usdt + Gebühr 1,025 trx.usdt) wurden dem verfügbaren Saldo wieder gutgeschrieben.',
      explanation: 'Die Plattform hat den Auftrag abgelehnt und Betrag und Gebühr zurückgebucht (WithdrawRefund).',
      language: 'de',
    });
    const waiting = SENTENCES.balanceChange[2] as FindingSentence;
    const pending: ReconciliationFinding = { ...finding, kind: 'awaitingOrder', ...findingText('trx.usdt', waiting), sentence: waiting };
    expect(findingTextFor(pending, (ms) => `T${ms}`).summary).toMatch(new RegExp(`^Wartet auf Auftrag td-9 \\(gesendet am T${T0}\\): Der verfügbare Saldo`));
  });

  it('keeps the engine’s English, marked as English, for a finding without its sentence’s values', () => {
    useLanguageStore.getState().apply('de');
    const { sentence: _left, ...bare } = finding;
    expect(findingTextFor(bare, String)).toEqual({ summary: finding.summary, explanation: finding.explanation, language: 'en' });
  });
});
