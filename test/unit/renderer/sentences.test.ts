// The contract's shared sentences in the window's language (renderer/src/i18n/sentences.ts): every audit action has a
// German sentence (a new action without one fails here), the catalogue's English says exactly what the contract's English
// defaults say (so the two cannot drift apart), a few German sentences read as written, and the functions screens call
// follow the language in force, English byte for byte the contract's.
import { afterEach, describe, expect, it } from 'vitest';
import { ENGLISH_REVIEW_WORDS, reviewLines, reviewWarning, type ApproverView } from '../../../electron/contract/approver-view';
import { AUDIT_ACTIONS, auditActionLabel, auditSentence, PLAIN_AMOUNTS, type AuditSentenceInput } from '../../../electron/contract/audit-sentences';
import { destinationHistoryWords, ENGLISH_PREFLIGHT_WORDS } from '../../../electron/contract/preflight-words';
import { ENGLISH_TIER_GROUPS_WORDS, parseTierGroupsSpec, tierGroupsText } from '../../../electron/contract/tier-groups';
import { intlFor, useLanguageStore } from '../../../renderer/src/i18n';
import {
  auditActionLabelFor,
  auditActionLabelsIn,
  auditSentenceFor,
  auditWordsIn,
  destinationHistoryFor,
  parseTierGroupsSpecFor,
  preflightWordsIn,
  reviewLinesFor,
  reviewWarningFor,
  reviewWordsIn,
  serviceAddressCheckFor,
  tierGroupsSyntaxFor,
  tierGroupsTextFor,
  tierGroupsWordsIn,
} from '../../../renderer/src/i18n/sentences';

const EN = intlFor('en-US');
const DE = intlFor('de-DE');

afterEach(() => {
  useLanguageStore.getState().apply('system');
});

const row = (input: Partial<AuditSentenceInput> & { action: string }): AuditSentenceInput => ({ kind: 'system', operator: null, subject: null, details: {}, ...input });

/** Details holding every key some sentence reads, and variants that leave parts out or take the other branch. */
const FULL = {
  reason: 'limit', role: 'approver', workstation: 'ws-2', label: 'Landlord', from: 'keychain', to: 'file', seconds: 300, timeZone: 'Europe/Berlin',
  address: 'TADDR', depositAddress: 'TDEP', rows: 1234, answered: 'TA1', stored: 'TS1', fingerprint: 'ABCD-EFGH', format: 'csv', notAudited: 1,
  beyondLoopback: true, fields: ['amount'], looksLike: 'TLOOK', similarity: 'same ends', txid: 'tx1', amount: '5', currency: 'trx', listedByService: 1,
  missingLocally: 2, notListed: 0, differing: 1, failures: 3, batch: 'b-1', merchantId: 'm-1', by: 'bob', journals: 1, apiOrder: 'api-1',
  status: 'pending', observed: 'fail', current: 'completed', holds: ['the daily limit is reached', 'a new destination waits'], id: 7,
};
const DETAILS = [{}, null, [1, 2], FULL, { ...FULL, rows: 1, reason: '', holds: [''], format: 'xero', beyondLoopback: false, journals: 2, differing: 0, missingLocally: 0, failures: 1 }];
const WITHDRAWALS = [
  undefined,
  { fingerprint: 'ABCD-EFGH-IJKL-MNOP', amount: '1250.5', currency: 'trx.usdt', toAddress: 'TXYZ', batchLines: null },
  { fingerprint: null, amount: null, currency: null, toAddress: null, batchLines: 1 },
  { fingerprint: null, amount: '2', currency: 'odd', toAddress: null, batchLines: null },
];
function* rows(): Generator<AuditSentenceInput> {
  for (const action of [...AUDIT_ACTIONS, 'labels/merge']) {
    for (const details of DETAILS) {
      for (const [operator, subject] of [[null, null], ['alice', 'subject-1234567890']] as const) {
        for (const withdrawal of WITHDRAWALS) yield row({ action, operator, subject, details, withdrawal, profile: subject === null ? null : 'main' });
      }
    }
  }
}

describe('audit sentences in German', () => {
  it('has a German sentence for every action the contract knows, not the English one and not the fallback', () => {
    const german = auditWordsIn(DE);
    expect(AUDIT_ACTIONS.length).toBeGreaterThan(60);
    for (const action of AUDIT_ACTIONS) {
      expect(Object.hasOwn(german.sentences, action), action).toBe(true);
      const input = row({ action, operator: 'alice', subject: 'subject-1', details: FULL });
      const sentence = auditSentence(input, PLAIN_AMOUNTS, german);
      expect(sentence, action).not.toBe(auditSentence(input));
      expect(sentence, action).not.toMatch(/ hat [a-z]+\/|[{}]|undefined|null/);
    }
  });

  it('names every action in German, and in English exactly as the contract does', () => {
    const german = auditActionLabelsIn(DE);
    const english = auditActionLabelsIn(EN);
    for (const action of AUDIT_ACTIONS) {
      expect(english[action as keyof typeof english], action).toBe(auditActionLabel(action));
      expect(german[action as keyof typeof german], action).not.toBe(auditActionLabel(action));
    }
    expect(german['withdrawals/submitRefused']).toBe('Auszahlungen: Senden verweigert');
  });

  it('says a few rows in German', () => {
    const german = auditWordsIn(DE);
    const amounts = { amount: (amount: string, currency: string) => `${amount.replace('.', ',')} ${currency}` };
    const approve = row({ kind: 'approve', action: 'withdrawals/approve', operator: 'alice', subject: 'x', withdrawal: WITHDRAWALS[1] ?? null });
    expect(auditSentence(approve, amounts, german)).toBe('alice hat Auszahlung ABCD-EFGH-IJKL-MNOP über 1250,5 trx.usdt an TXYZ freigegeben');
    expect(auditSentence(row({ action: 'deposits/export', details: { rows: 1234 } }), PLAIN_AMOUNTS, german)).toBe('Der Desk hat 1.234 Einzahlungen exportiert');
    expect(auditSentence(row({ action: 'deposits/export', details: { rows: 1 } }), PLAIN_AMOUNTS, german)).toBe('Der Desk hat 1 Einzahlung exportiert');
    expect(auditSentence(row({ action: 'withdrawals/reject', operator: 'bob', subject: 'ab', details: { reason: 'unbekannter Empfänger' } }), PLAIN_AMOUNTS, german)).toBe(
      'bob hat Auszahlung ab abgelehnt: unbekannter Empfänger',
    );
    expect(auditSentence(row({ action: 'withdrawals/sendHeld', subject: 'td-1', details: { id: 4, holds: ['the daily limit\u202E is reached'] } }), PLAIN_AMOUNTS, german)).toBe(
      'Der Desk hat Auszahlungsanfrage 4 (Auftrag td-1) zurückgehalten, statt sie zu senden: the daily limit⟨U+202E⟩ is reached',
    );
    expect(auditSentence(row({ action: 'operators/enrol', operator: 'carol', subject: 'dave', details: { role: 'approver' } }), PLAIN_AMOUNTS, german)).toBe(
      'carol hat vorgeschlagen, dave als approver aufzunehmen',
    );
    expect(auditSentence(row({ action: 'operators/enrol', operator: 'carol', subject: 'dave' }), PLAIN_AMOUNTS, german)).toBe('carol hat vorgeschlagen, dave aufzunehmen');
    expect(auditSentence(row({ action: 'policies/propose', operator: 'carol', subject: 'trx.usdt' }), PLAIN_AMOUNTS, german)).toBe(
      'carol hat eine neue Freigaberichtlinie für USDT auf TRON vorgeschlagen',
    );
    expect(auditSentence(row({ action: 'webhooks/sent', operator: 'carol', subject: 'ord-1', details: { to: 'x' } }), PLAIN_AMOUNTS, german)).toBe(
      'carol hat webhooks/sent zu ord-1 protokolliert: {"to":"x"}',
    );
  });

  it("the catalogue's English says exactly what the contract's English says, for every action and every branch", () => {
    const english = auditWordsIn(EN);
    let compared = 0;
    for (const input of rows()) {
      expect(auditSentence(input, PLAIN_AMOUNTS, english), input.action).toBe(auditSentence(input));
      compared += 1;
    }
    expect(compared).toBeGreaterThan(1000);
  });
});

const VIEW: ApproverView = {
  id: '7', fingerprint: 'ABCD-EFGH-JKLM-NPQR', signed: true, altered: [], problems: [], initiator: 'carol', currency: 'trx.usdt', currencyName: 'USDT on TRON',
  chainName: 'TRON', amount: '1250.5', fee: '1.5', feeSource: 'signedAtRequest', feeNow: null, totalDebited: '1252', withdrawType: 'normal', memo: 'rent',
  remark: 'TD ABCD-EFGH-JKLM-NPQR rent',
  destination: { address: 'TXYZ', inBook: true, bookSince: 0, label: 'landlord', isNew: false, lookAlikes: [], timesPaid: 3, history: [{ currency: 'trx.usdt', timesPaid: 3, lastPaidAt: 0, median: '1200', largest: '2500.5' }] },
  rule: { policy: 'abcdef0123456789', tierAbove: '1000', tierApprovals: 2, intentApprovals: 2, dailyLimit: '50000', onlyFromBook: true, newDestinationWaitHours: 24 },
  approvals: { required: 2, counted: 1, stillNeeded: 1, given: [{ operator: 'bob', at: 0, counts: true, note: null }] },
  requestedAt: 0, ageMs: 2 * 3_600_000 + 5 * 60_000, holdsNow: [],
};
const VIEWS: ApproverView[] = [
  VIEW,
  { ...VIEW, signed: false },
  { ...VIEW, altered: ['amount', 'memo'], initiator: null, fingerprint: null, requestedAt: null, memo: null, remark: null, fee: null, totalDebited: null, feeSource: 'unknown', withdrawType: 'financialConfirmation' },
  { ...VIEW, altered: ['toAddress'], feeSource: 'currencyListNow', feeNow: '2', holdsNow: ['a', 'b'], ageMs: 3 * 86_400_000 + 60_000, initiator: null },
  {
    ...VIEW,
    ageMs: 30_000,
    destination: {
      ...VIEW.destination, inBook: false, label: null, isNew: true, timesPaid: 0, history: [], payee: 'Acme',
      lookAlikes: [{ address: 'TXYQ', label: 'landlord', differingPositions: [3, 5] }, { address: 'TQ', label: null, differingPositions: [0] }],
      poisoning: { looksLike: 'x', similarity: 's', clearedBy: ['ann', 'bea', 'cy'] }, control: { proven: true, at: 5, txid: 'tx' },
    },
  },
  { ...VIEW, destination: { ...VIEW.destination, payee: 'Acme', bookSince: null, timesPaid: 1, poisoning: { looksLike: 'x', similarity: 's', clearedBy: null } } },
  { ...VIEW, rule: { ...VIEW.rule, policy: 'default', tierAbove: null, tierApprovals: 1, intentApprovals: 3, dailyLimit: null, onlyFromBook: false, newDestinationWaitHours: 0, groups: '1 of a | 2 of b', approvalValidHours: 4, unusualAmount: 'unusual', provenControlAbove: '5000' } },
  { ...VIEW, approvals: { required: 1, counted: 1, stillNeeded: 0, given: [{ operator: 'bob', at: 0, counts: true, note: null, expired: true }, { operator: 'bob', at: 1, counts: false, note: 'n', expired: true }, { operator: 'al', at: 1, counts: false, note: null }] } },
  { ...VIEW, approvals: { required: 3, counted: 3, stillNeeded: 0, given: [], groupsStillNeeded: ['1 of x', '2 of y'] } },
  { ...VIEW, approvals: { required: 3, counted: 1, stillNeeded: 2, given: [{ operator: 'z', at: 0, counts: true, note: null, expired: true }], groupsStillNeeded: ['1 of x'] } },
];
const FORMAT = { locale: 'en-US', time: (ms: number) => `T${ms}` };

describe("the approver's review in German", () => {
  it("the catalogue's English says exactly what the contract's English says", () => {
    const english = reviewWordsIn(EN);
    for (const view of VIEWS) {
      expect(reviewLines(view, FORMAT, english)).toEqual(reviewLines(view, FORMAT, ENGLISH_REVIEW_WORDS));
      expect(reviewWarning(view, english)).toEqual(reviewWarning(view));
    }
  });

  it('labels and says every item in German, nothing left in English but values', () => {
    const german = reviewWordsIn(DE);
    const shown = Object.fromEntries(reviewLines(VIEW, { locale: 'de-DE', time: (ms) => `T${ms}` }, german).map((line) => [line.item, line]));
    expect(shown['amount']).toMatchObject({ label: 'Betrag (erhält der Empfänger)', value: '1.250,5 trx.usdt' });
    expect(shown['rule']?.value).toBe(
      'die Richtlinie abcdef012345 für USDT on TRON: 1.250,5 liegt über 1.000: diese Stufe verlangt 2 Freigaben; Tageslimit 50.000; nur Adressen aus dem Adressbuch; ein neues Ziel wartet 24 Std.',
    );
    expect(shown['standing']?.value).toBe('im Adressbuch seit T0; bezeichnet als „landlord“; bereits 3 Mal von diesem Desk bezahlt; Kontrolle nicht nachgewiesen');
    expect(shown['needed']?.value).toBe('1 weitere, von Operatoren, die vom Antragsteller und voneinander unabhängig sind (1 von 2 erteilt)');
    expect(shown['age']?.value).toBe('vor 2 Std. 5 Min., am T0, von carol');
    expect(reviewWarning({ ...VIEW, altered: ['amount'], initiator: null }, german)).toBe(
      'Die Zeile der Anfrage wurde nach ihrer Erstellung verändert (amount): Angezeigt wird, was der Antragsteller signiert hat.',
    );
    const lists = reviewLines(VIEWS[4] ?? VIEW, FORMAT, german).find((line) => line.item === 'standing');
    expect(lists?.value).toContain('freigegeben von ann und bea und cy');
  });
});

describe('preflight words and tier groups in German', () => {
  it("the catalogue's English says exactly what the contract's English says", () => {
    const preflight = preflightWordsIn(EN);
    expect(preflight.serviceAddressCheck).toEqual(ENGLISH_PREFLIGHT_WORDS.serviceAddressCheck);
    for (const value of [true, false, null]) expect(destinationHistoryWords(value, preflight)).toBe(destinationHistoryWords(value));
    const groups = tierGroupsWordsIn(EN);
    const parsed = parseTierGroupsSpec('finance+treasury-leads|cfo:2');
    if (!parsed.ok) throw new Error('the spec parses');
    expect(tierGroupsText(parsed.groups, groups)).toBe(tierGroupsText(parsed.groups));
    expect(groups.syntax).toBe(ENGLISH_TIER_GROUPS_WORDS.syntax);
    expect(parseTierGroupsSpec('Finance', groups)).toEqual(parseTierGroupsSpec('Finance'));
  });

  it('says them in German', () => {
    const groups = tierGroupsWordsIn(DE);
    const parsed = parseTierGroupsSpec('finance+treasury-leads|cfo:2');
    if (!parsed.ok) throw new Error('the spec parses');
    expect(tierGroupsText(parsed.groups, groups)).toBe('(1 aus finance + 1 aus treasury-leads) | 2 aus cfo');
    expect(parseTierGroupsSpec('Finance', groups)).toMatchObject({ ok: false, problem: expect.stringMatching(/^„Finance“ ist keine Gruppe: schreiben Sie GRUPPE\[:ANZAHL\]/) });
    expect(destinationHistoryWords(true, preflightWordsIn(DE))).toBe('neu: nie von diesem Desk bezahlt');
  });
});

describe('the functions screens call', () => {
  it('speak the language in force, English byte for byte the contract', () => {
    const input = row({ kind: 'approve', action: 'withdrawals/approve', operator: 'alice', subject: 'x', withdrawal: WITHDRAWALS[1] ?? null });
    useLanguageStore.getState().apply('en');
    expect(auditSentenceFor(input)).toBe('alice approved withdrawal ABCD-EFGH-IJKL-MNOP of 1,250.5 USDT on TRON to TXYZ');
    expect(reviewLinesFor(VIEW, FORMAT)).toEqual(reviewLines(VIEW, FORMAT));
    expect(reviewWarningFor({ ...VIEW, signed: false })).toBe(reviewWarning({ ...VIEW, signed: false }));
    expect(serviceAddressCheckFor('refused')).toBe('the service says this address is invalid');
    expect(destinationHistoryFor(null)).toBe(destinationHistoryWords(null));
    expect(tierGroupsTextFor([[{ group: 'cfo', count: 2 }]])).toBe('2 of cfo');
    expect(tierGroupsSyntaxFor()).toBe(ENGLISH_TIER_GROUPS_WORDS.syntax);
    expect(parseTierGroupsSpecFor('X')).toEqual(parseTierGroupsSpec('X'));

    expect(auditActionLabelFor('withdrawals/approve')).toBe('Withdrawals: approve');

    useLanguageStore.getState().apply('de');
    expect(auditActionLabelFor('withdrawals/approve')).toBe('Auszahlungen: Freigabe');
    expect(auditActionLabelFor('labels/merge')).toBe('Labels: merge');
    expect(auditSentenceFor(input)).toBe('alice hat Auszahlung ABCD-EFGH-IJKL-MNOP über 1.250,5 USDT auf TRON an TXYZ freigegeben');
    const currency = reviewLinesFor(VIEW, { locale: 'de-DE', time: String }).find((line) => line.item === 'currency');
    expect(currency).toMatchObject({ label: 'Währung und Chain', value: 'USDT auf TRON (trx.usdt), auf der Chain TRON' });
    expect(reviewWarningFor({ ...VIEW, signed: false })).toMatch(/^Für diese Anfrage lässt sich keine signierte Absicht verifizieren/);
    expect(serviceAddressCheckFor('refused')).toBe('laut Dienst ist diese Adresse ungültig');
    expect(destinationHistoryFor(false)).toBe('bereits von diesem Desk bezahlt');
    expect(tierGroupsTextFor([[{ group: 'cfo', count: 2 }]])).toBe('2 aus cfo');
  });
});
