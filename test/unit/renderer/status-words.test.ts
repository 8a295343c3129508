// The desk's status in the window's language (issue 22): for every connection cause, every sync progress phase, every
// selfcheck step outcome and every line of advice, the catalogue's English says exactly what the contract's English says
// (what the engine, the CLI and an English window show) and the German says it with no English word left but the values
// (the engine's own English inside a sentence is marked lang="en"); the banners and a failed step lead a German window
// with the error code's German headline, the engine's message beneath marked English.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CONNECTION_CAUSE_CODES,
  connectionSentence,
  SELFCHECK_ADVICE_CODES,
  SELFCHECK_SENTENCE_CODES,
  selfcheckAdviceSentence,
  selfcheckStepSentence,
  SYNC_PROGRESS_PHASE_KINDS,
  syncProgressSentence,
  type ConnectionCause,
  type ConnectionCauseCode,
  type ConnectionState,
  type SelfcheckAdvice,
  type SelfcheckAdviceCode,
  type SelfcheckOutcome,
  type SelfcheckSentenceCode,
  type SyncProgressPhase,
  type SyncProgress,
  type SyncProgressPhaseKind,
  type SyncResource,
} from '../../../electron/contract';
import { OfflineCause, SyncProgressText } from '../../../renderer/src/components/Banners';
import { EngineFailure } from '../../../renderer/src/components/EngineFailure';
import { engineTextNode } from '../../../renderer/src/components/EngineText';
import { intlFor, useLanguageStore } from '../../../renderer/src/i18n';
import {
  connectionCauseFor,
  connectionWordsIn,
  selfcheckAdviceFor,
  selfcheckStepFor,
  selfcheckWordsIn,
  syncProgressFor,
  syncProgressWordsIn,
} from '../../../renderer/src/i18n/sentences';

const EN = intlFor('en-US');
const DE = intlFor('de-DE');

afterEach(() => {
  useLanguageStore.getState().apply('system');
});

/** Words German never uses (the list german-desk.spec.ts looks for on every screen). */
const ENGLISH_WORD =
  /\b(the|and|of|with|from|this|your|you|not|is|are|has|have|been|by|which|when|what|who|there|their|before|after|only|each|every|none|than|should|would|could|must|does|for|to|on|or|no|yet|shown|seen|loading|service|clock|check|page|read|new|stored|checking|verifying|held|here|asking|answered|refused|passed|limit|drift|behind|ahead|walk|merchant|account)\b/i;

/** Engine text a sentence carries as a value (a transport's reason): no English word in it, so what is left is the sentence's. */
const TRANSPORT_DETAIL = 'getDeposits: ECONNREFUSED 10.1.2.3:443';

/** Every cause with the values that take each branch of its sentence; a new cause without any does not compile. */
const CAUSES: { readonly [C in ConnectionCauseCode]: readonly Extract<ConnectionCause, { code: C }>[] } = {
  unreachable: [{ code: 'unreachable', detail: TRANSPORT_DETAIL }],
  serviceFailing: [{ code: 'serviceFailing', httpStatus: 503, endpoint: 'getDeposits' }],
  notWhitelisted: [{ code: 'notWhitelisted', endpoint: 'merchantInfo' }],
  clockUnmeasured: [{ code: 'clockUnmeasured' }],
  clockDrift: [
    { code: 'clockDrift', driftSeconds: 900, limitSeconds: 300 },
    { code: 'clockDrift', driftSeconds: -1234, limitSeconds: 300 },
  ],
  responseRefused: [{ code: 'responseRefused', detail: 'merchantInfo: badSignature' }],
  signatureRefused: [{ code: 'signatureRefused' }],
  authRefused: [{ code: 'authRefused' }],
  decryptRefused: [{ code: 'decryptRefused' }],
  apiVersion1: [{ code: 'apiVersion1' }],
};
const ALL_CAUSES: ConnectionCause[] = CONNECTION_CAUSE_CODES.flatMap((code) => [...CAUSES[code]]);

const PHASES: { readonly [K in SyncProgressPhaseKind]: readonly Extract<SyncProgressPhase, { kind: K }>[] } = {
  asking: [{ kind: 'asking' }],
  depositsPage: [
    { kind: 'depositsPage', page: 4, read: 12345, stored: 3, fullWalk: true },
    { kind: 'depositsPage', page: 1, read: 100, stored: 0, fullWalk: false },
  ],
  checkingWithdrawal: [{ kind: 'checkingWithdrawal', userOrder: 'td-0042\u202E' }],
  verifyingDeposits: [{ kind: 'verifyingDeposits', page: 2, held: 1500 }],
};
const ALL_PHASES: SyncProgressPhase[] = SYNC_PROGRESS_PHASE_KINDS.flatMap((kind) => [...PHASES[kind]]);
const RESOURCES: readonly SyncResource[] = ['currencies', 'balances', 'deposits', 'withdrawals'];

const OUTCOMES: { readonly [C in SelfcheckSentenceCode]: readonly Extract<SelfcheckOutcome, { code: C }>[] } = {
  tokenVerified: [{ code: 'tokenVerified' }],
  requestAccepted: [{ code: 'requestAccepted' }],
  responseVerified: [{ code: 'responseVerified' }],
  echoMatches: [{ code: 'echoMatches' }],
  echoDiffers: [{ code: 'echoDiffers' }],
  clockDrift: [
    { code: 'clockDrift', driftSeconds: 12, limitSeconds: 300, warnFromSeconds: null },
    { code: 'clockDrift', driftSeconds: -200, limitSeconds: 300, warnFromSeconds: 150 },
    { code: 'clockDrift', driftSeconds: 0, limitSeconds: 300, warnFromSeconds: null },
  ],
  versionEnabled: [{ code: 'versionEnabled', apiVersion: 2, merchantName: 'Muster\u0007GmbH', merchantId: 'm-1001' }],
  versionOne: [{ code: 'versionOne' }],
};
const ALL_OUTCOMES: SelfcheckOutcome[] = SELFCHECK_SENTENCE_CODES.flatMap((code) => [...OUTCOMES[code]]);

const ADVICE: { readonly [C in SelfcheckAdviceCode]: Extract<SelfcheckAdvice, { code: C }> } = {
  notWhitelisted: { code: 'notWhitelisted' },
  signatureFailed: { code: 'signatureFailed' },
  authFailed: { code: 'authFailed' },
  staleTimestamp: { code: 'staleTimestamp', windowMinutes: 5 },
  clockBeyond: { code: 'clockBeyond', windowMinutes: 5 },
  clockClose: { code: 'clockClose', windowMinutes: 5 },
  versionSwitch: { code: 'versionSwitch' },
};
const ALL_ADVICE: SelfcheckAdvice[] = SELFCHECK_ADVICE_CODES.map((code) => ADVICE[code]);

/** German text with the engine's value taken out: what is left must be German. */
function expectGerman(german: string, english: string, label: string): void {
  expect(german, label).not.toBe(english);
  expect(german.replace(TRANSPORT_DETAIL, ''), label).not.toMatch(ENGLISH_WORD);
  expect(german, label).not.toMatch(/[{}]|undefined|null|NaN/);
}

describe('why the desk is offline', () => {
  it.each(ALL_CAUSES.map((cause) => [cause.code, cause] as const))("%s: the catalogue's English is the contract's, and German has no English word left", (_code, cause) => {
    const english = connectionSentence(cause);
    expect(connectionSentence(cause, connectionWordsIn(EN))).toBe(english);
    expectGerman(connectionSentence(cause, connectionWordsIn(DE)), english, cause.code);
  });

  it('says a few in German, numbers the German way and the engine text inside marked English', () => {
    const german = connectionWordsIn(DE);
    expect(connectionSentence({ code: 'clockDrift', driftSeconds: -1234, limitSeconds: 300 }, german)).toBe(
      'Die Uhr dieses Computers geht gegenüber dem Dienst 1.234 s vor (zulässig sind 300 s): Korrigieren Sie die Systemzeit (automatische Zeitsynchronisierung einschalten).',
    );
    expect(connectionSentence({ code: 'clockDrift', driftSeconds: 900, limitSeconds: 300 })).toMatch(/is 900 s behind the service/);
    useLanguageStore.getState().apply('de');
    const markup = renderToStaticMarkup(createElement('p', null, connectionCauseFor({ code: 'unreachable', detail: 'x\u001Bconnect ECONNREFUSED' }, engineTextNode)));
    expect(markup).toBe('<p>Der Dienst ist nicht erreichbar: <span lang="en">x⟨U+001B⟩connect ECONNREFUSED</span>. Prüfen Sie die Netzwerkverbindung.</p>');
    useLanguageStore.getState().apply('en');
    const english = renderToStaticMarkup(createElement('p', null, connectionCauseFor({ code: 'unreachable', detail: 'connect ECONNREFUSED' }, engineTextNode)));
    expect(english).toBe(`<p>${connectionSentence({ code: 'unreachable', detail: 'connect ECONNREFUSED' })}</p>`);
  });
});

describe('what a sync is doing', () => {
  it.each(ALL_PHASES.map((phase) => [phase.kind, phase] as const))("%s: the catalogue's English is the contract's, and German has no English word left", (_kind, phase) => {
    for (const resource of RESOURCES) {
      const english = syncProgressSentence(resource, phase);
      expect(syncProgressSentence(resource, phase, syncProgressWordsIn(EN))).toBe(english);
      expectGerman(syncProgressSentence(resource, phase, syncProgressWordsIn(DE)), english, `${phase.kind} ${resource}`);
    }
  });

  it('keeps the English the CLI prints, and says it in German', () => {
    expect(syncProgressSentence('deposits', { kind: 'depositsPage', page: 4, read: 12345, stored: 3, fullWalk: true })).toBe(
      'deposits: page 4, 12345 read, 3 new stored so far (full walk)',
    );
    expect(syncProgressSentence('balances', { kind: 'asking' })).toBe('balances: asking the service');
    useLanguageStore.getState().apply('de');
    expect(syncProgressFor('deposits', { kind: 'depositsPage', page: 4, read: 12345, stored: 3, fullWalk: true })).toBe(
      'Einzahlungen: Seite 4, 12.345 gelesen, bisher 3 neue gespeichert (vollständiger Durchlauf)',
    );
    expect(syncProgressFor('balances', { kind: 'asking' })).toBe('Guthaben: Anfrage an den Dienst');
    expect(syncProgressFor('withdrawals', { kind: 'checkingWithdrawal', userOrder: 'td-1\u202E' })).toBe('Auszahlungen: td-1⟨U+202E⟩ wird geprüft');
  });
});

describe('what selfcheck found and advises', () => {
  it.each(ALL_OUTCOMES.map((outcome) => [outcome.code, outcome] as const))("step %s: the catalogue's English is the contract's, and German has no English word left", (_code, outcome) => {
    const english = selfcheckStepSentence(outcome);
    expect(selfcheckStepSentence(outcome, selfcheckWordsIn(EN))).toBe(english);
    expectGerman(selfcheckStepSentence(outcome, selfcheckWordsIn(DE)), english, outcome.code);
  });

  it.each(ALL_ADVICE.map((advice) => [advice.code, advice] as const))("advice %s: the catalogue's English is the contract's, and German has no English word left", (_code, advice) => {
    const english = selfcheckAdviceSentence(advice);
    expect(selfcheckAdviceSentence(advice, selfcheckWordsIn(EN))).toBe(english);
    expectGerman(selfcheckAdviceSentence(advice, selfcheckWordsIn(DE)), english, advice.code);
  });

  it('follows the language in force; a merchant name stays as the platform sent it, escaped', () => {
    const version: SelfcheckOutcome = { code: 'versionEnabled', apiVersion: 2, merchantName: 'Muster\u0007GmbH', merchantId: 'm-1001' };
    const close: SelfcheckOutcome = { code: 'clockDrift', driftSeconds: -200, limitSeconds: 300, warnFromSeconds: 150 };
    useLanguageStore.getState().apply('en');
    expect(selfcheckStepFor(version)).toBe('the account is on protocol version 2: business calls work (merchant "Muster⟨U+0007⟩GmbH", m-1001)');
    expect(selfcheckStepFor(close)).toBe("the service's clock is 200 s behind this computer (the limit is 300 s; from 150 s on it is worth fixing before requests fail)");
    expect(selfcheckAdviceFor({ code: 'clockClose', windowMinutes: 5 })).toBe(
      "Check this computer's clock synchronisation: the drift is within the 5-minute window but close to it, and requests fail beyond it.",
    );
    useLanguageStore.getState().apply('de');
    expect(selfcheckStepFor(version)).toBe('Das Konto nutzt Protokollversion 2: Geschäftsaufrufe funktionieren (Händler „Muster⟨U+0007⟩GmbH“, m-1001)');
    expect(selfcheckStepFor(close)).toBe(
      'Die Uhr des Dienstes geht gegenüber diesem Computer 200 s nach (zulässig sind 300 s; ab 150 s sollte sie korrigiert werden, bevor Anfragen scheitern)',
    );
    expect(selfcheckStepFor({ code: 'failed', errorCode: 'notWhitelisted', message: 'getToken: Oops' })).toBe('getToken: Oops');
  });
});

describe('a failure the engine recorded', () => {
  const failure = (): string => renderToStaticMarkup(createElement(EngineFailure, { code: 'service', message: 'the service answered HTTP 503 to getDeposits' }));

  it('is its message alone in an English window, and in German the headline of its code with the message beneath, marked English', () => {
    useLanguageStore.getState().apply('en');
    expect(failure()).toBe('the service answered HTTP 503 to getDeposits');
    useLanguageStore.getState().apply('de');
    expect(failure()).toBe(
      'Der Dienst hat die Anfrage abgelehnt. Beheben Sie, was seine Begründung nennt, oder versuchen Sie es später erneut.' +
        '<span class="engine-failure__detail" lang="en">the service answered HTTP 503 to getDeposits</span>',
    );
    expect(renderToStaticMarkup(createElement(EngineFailure, { code: null, message: 'old row' }))).toBe('<span lang="en">old row</span>');
  });
});

describe('the banners', () => {
  const cause: ConnectionCause = { code: 'unreachable', detail: TRANSPORT_DETAIL };
  const offline: ConnectionState = { online: false, reason: 'network', cause, message: connectionSentence(cause), since: null, lastContactAt: null };
  const phase: SyncProgressPhase = { kind: 'depositsPage', page: 4, read: 400, stored: 3, fullWalk: false };
  const progress: SyncProgress = { resource: 'deposits', done: 400, total: null, phase, message: syncProgressSentence('deposits', phase) };

  function render(): string {
    return renderToStaticMarkup(createElement('p', null, createElement(OfflineCause, { connection: offline }))) + renderToStaticMarkup(createElement('p', null, createElement(SyncProgressText, { progress })));
  }

  it('show an English window the English of today', () => {
    useLanguageStore.getState().apply('en');
    expect(render()).toBe(`<p>the service cannot be reached: ${TRANSPORT_DETAIL}. Check the network connection.</p><p>deposits: page 4, 400 read, 3 new stored so far</p>`);
  });

  it('speak German in a German window, only the engine text marked English', () => {
    useLanguageStore.getState().apply('de');
    const html = render();
    expect(html).toBe(
      `<p>Der Dienst ist nicht erreichbar: <span lang="en">${TRANSPORT_DETAIL}</span>. Prüfen Sie die Netzwerkverbindung.</p>` +
        '<p>Einzahlungen: Seite 4, 400 gelesen, bisher 3 neue gespeichert</p>',
    );
  });

  it('show the English the engine gave, marked, when it gave no cause or phase', () => {
    useLanguageStore.getState().apply('de');
    const { cause: _cause, ...withoutCause } = offline;
    const { phase: _phase, ...withoutPhase } = progress;
    expect(renderToStaticMarkup(createElement(OfflineCause, { connection: withoutCause }))).toBe(`<span lang="en">${offline.message}</span>`);
    expect(renderToStaticMarkup(createElement(SyncProgressText, { progress: withoutPhase }))).toBe(`<span lang="en">${progress.message}</span>`);
  });
});
