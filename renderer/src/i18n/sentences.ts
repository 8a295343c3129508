// The contract's shared sentences in the window's language: audit rows and action names (contract/audit-sentences), the approver's review
// (contract/approver-view), the preflight's destination words, tier groups, the desk's status (contract/status-sentences: why it is
// offline, what a sync is doing, what selfcheck found and advises) and reconciliation findings (contract/reconciliation-sentences).
// What a sentence says is decided once, in
// the contract; this file only gives it words: English is the contract's own default (byte for byte what the CLI says),
// another language comes from the catalogue (messages/sentences.ts). Screens call the functions below, never the
// contract's word functions directly. Values stay values: text from people and the network is never part of an id.
import type { ReactNode } from 'react';
import type { IntlShape } from 'react-intl';
import { CHAIN_INFO, CURRENCIES, isCurrencySymbol, type CurrencySymbol } from '../../../electron/chains';
import type { ApproverView, ReviewFormat, ReviewLine, ReviewWords } from '../../../electron/contract/approver-view';
import { ENGLISH_REVIEW_WORDS, reviewLines, reviewWarning } from '../../../electron/contract/approver-view';
import {
  auditActionLabel,
  auditSentence,
  currencyName,
  isAuditAction,
  ENGLISH_AUDIT_WORDS,
  type AuditAction,
  type AuditSentenceFormat,
  type AuditSentenceInput,
  type AuditWords,
} from '../../../electron/contract/audit-sentences';
import type { ServiceAddressCheck } from '../../../electron/contract/dto';
import { destinationHistoryWords, ENGLISH_PREFLIGHT_WORDS, type PreflightWords } from '../../../electron/contract/preflight-words';
import type { ReconciliationFinding } from '../../../electron/contract/reconciliation';
import { ENGLISH_FINDING_WORDS, findingText, PLAIN_FINDING_FORMAT, type FindingText, type FindingWords } from '../../../electron/contract/reconciliation-sentences';
import { ENGLISH_TIER_GROUPS_WORDS, parseTierGroupsSpec, tierGroupsText, type TierGroups, type TierGroupsWords } from '../../../electron/contract/tier-groups';
import { groupAmount } from '../../../electron/contract/amount-text';
import {
  connectionSentenceValues,
  ENGLISH_SELFCHECK_WORDS,
  ENGLISH_SYNC_PROGRESS_WORDS,
  selfcheckAdviceSentence,
  selfcheckStepSentence,
  syncProgressSentence,
  type ConnectionCause,
  type ConnectionCauseCode,
  type ConnectionWords,
  type SelfcheckAdvice,
  type SelfcheckOutcome,
  type SelfcheckWords,
  type SyncProgressPhase,
  type SyncProgressWords,
} from '../../../electron/contract/status-sentences';
import type { SyncResource } from '../../../electron/contract/status-sentences';
import { currentLanguage, currentLocale, intlFor, type Language, type MessageId } from '.';

/** Values as the contract gives them: text, counts, yes/no, or null for a part left out. */
type PlainValues = object;

/**
 * The values as an ICU message takes them: null becomes '' with `has<Name>` 'no' (else 'yes', for every text or number value),
 * a boolean becomes 'yes' or 'no', so a message leaves a part out with `{hasName, select, yes {…} other {}}`.
 */
export function icuValues(values: PlainValues): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(values) as [string, unknown][]) {
    const has = `has${name.charAt(0).toUpperCase()}${name.slice(1)}`;
    if (value === null || value === undefined) {
      out[name] = '';
      out[has] = 'no';
    } else if (typeof value === 'boolean') {
      out[name] = value ? 'yes' : 'no';
    } else if (typeof value === 'number') {
      out[name] = value;
      out[has] = 'yes';
    } else {
      out[name] = String(value);
      out[has] = 'yes';
    }
  }
  return out;
}

/** Items joined into one list: "a and b and c" ('' for none). */
function andList(say: Say, items: readonly string[]): string {
  return items.length === 0 ? '' : items.reduce((first, second) => say('sentences.review.and', { first, second }));
}

type Say = (id: MessageId, values?: PlainValues) => string;

/** One message of the catalogue in `intl`'s language, as text. */
function sayIn(intl: IntlShape): Say {
  return (id, values) => intl.formatMessage({ id }, values === undefined ? undefined : icuValues(values));
}

// ---- audit sentences ----------------------------------------------------------------------------------------------------

/** The message of each action's sentence: a new action without one does not compile. */
const AUDIT_MESSAGES: { readonly [A in AuditAction]: MessageId } = {
  'withdrawals/request': 'sentences.audit.withdrawalsRequest',
  'withdrawals/approve': 'sentences.audit.withdrawalsApprove',
  'withdrawals/reject': 'sentences.audit.withdrawalsReject',
  'withdrawals/cancel': 'sentences.audit.withdrawalsCancel',
  'withdrawals/submit': 'sentences.audit.withdrawalsSubmit',
  'operators/found': 'sentences.audit.operatorsFound',
  'operators/enrol': 'sentences.audit.operatorsEnrol',
  'operators/rekey': 'sentences.audit.operatorsRekey',
  'operators/role': 'sentences.audit.operatorsRole',
  'operators/disable': 'sentences.audit.operatorsDisable',
  'operators/accept': 'sentences.audit.operatorsAccept',
  'operators/confirm': 'sentences.audit.operatorsConfirm',
  'operators/withdraw-proposal': 'sentences.audit.operatorsWithdrawProposal',
  'operators/passphrase': 'sentences.audit.operatorsPassphrase',
  'operators/device': 'sentences.audit.operatorsDevice',
  'policies/propose': 'sentences.audit.policiesPropose',
  'addressbook/propose': 'sentences.audit.addressbookPropose',
  'addressbook/remove': 'sentences.audit.addressbookRemove',
  'sending/freeze': 'sentences.audit.sendingFreeze',
  'operators/propose-group': 'sentences.audit.operatorsProposeGroup',
  'sending/propose-unfreeze': 'sentences.audit.sendingProposeUnfreeze',
  'governance/propose': 'sentences.audit.governancePropose',
  'governance/veto': 'sentences.audit.governanceVeto',
  'payees/propose': 'sentences.audit.payeesPropose',
  'radar/propose-clear': 'sentences.audit.radarProposeClear',
  'profiles/propose-add': 'sentences.audit.profilesProposeAdd',
  'profiles/propose-remove': 'sentences.audit.profilesProposeRemove',
  'team/workstation': 'sentences.audit.teamWorkstation',
  'team/workstationLeft': 'sentences.audit.teamWorkstationLeft',
  'audit/anchorMoved': 'sentences.audit.auditAnchorMoved',
  'team/reanchored': 'sentences.audit.teamReanchored',
  'settings/lockTimeout': 'sentences.audit.settingsLockTimeout',
  'settings/stuckThresholds': 'sentences.audit.settingsStuckThresholds',
  'settings/reportingTimeZone': 'sentences.audit.settingsReportingTimeZone',
  'addressbook/forget': 'sentences.audit.addressbookForget',
  'addressbook/label': 'sentences.audit.addressbookLabel',
  'addressbook/proveRequest': 'sentences.audit.addressbookProveRequest',
  'labels/set': 'sentences.audit.labelsSet',
  'labels/import': 'sentences.audit.labelsImport',
  'addresses/create': 'sentences.audit.addressesCreate',
  'addresses/conflict': 'sentences.audit.addressesConflict',
  'notifications/preferences': 'sentences.audit.notificationsPreferences',
  'webhooks/add': 'sentences.audit.webhooksAdd',
  'webhooks/remove': 'sentences.audit.webhooksRemove',
  'audit/legacySealed': 'sentences.audit.auditLegacySealed',
  'audit/checkpoint': 'sentences.audit.auditCheckpoint',
  'audit/pack': 'sentences.audit.auditPack',
  'audit/export': 'sentences.audit.auditExport',
  'callbacks/refused': 'sentences.audit.callbacksRefused',
  'callbacks/refusedSummary': 'sentences.audit.callbacksRefusedSummary',
  'callbacks/start': 'sentences.audit.callbacksStart',
  'callbacks/unknownOrder': 'sentences.audit.callbacksUnknownOrder',
  'demo/furnished': 'sentences.audit.demoFurnished',
  'demo/operators': 'sentences.audit.demoOperators',
  'deposits/conflict': 'sentences.audit.depositsConflict',
  'deposits/poisoningSuspected': 'sentences.audit.depositsPoisoningSuspected',
  'addressbook/controlProven': 'sentences.audit.addressbookControlProven',
  'deposits/export': 'sentences.audit.depositsExport',
  'deposits/verified': 'sentences.audit.depositsVerified',
  'operators/wrongInvitationCode': 'sentences.audit.operatorsWrongInvitationCode',
  'operators/wrongPassphrase': 'sentences.audit.operatorsWrongPassphrase',
  'payouts/approveRefused': 'sentences.audit.payoutsApproveRefused',
  'profiles/add': 'sentences.audit.profilesAdd',
  'profiles/generateKey': 'sentences.audit.profilesGenerateKey',
  'profiles/remove': 'sentences.audit.profilesRemove',
  'session/unlock': 'sentences.audit.sessionUnlock',
  'accounting/export': 'sentences.audit.accountingExport',
  'statements/export': 'sentences.audit.statementsExport',
  'team/profile': 'sentences.audit.teamProfile',
  'team/genesis': 'sentences.audit.teamGenesis',
  'withdrawals/accepted': 'sentences.audit.withdrawalsAccepted',
  'withdrawals/ambiguous': 'sentences.audit.withdrawalsAmbiguous',
  'withdrawals/approveRefused': 'sentences.audit.withdrawalsApproveRefused',
  'withdrawals/export': 'sentences.audit.withdrawalsExport',
  'withdrawals/failureAnswered': 'sentences.audit.withdrawalsFailureAnswered',
  'withdrawals/mismatch': 'sentences.audit.withdrawalsMismatch',
  'withdrawals/orderMissing': 'sentences.audit.withdrawalsOrderMissing',
  'withdrawals/status': 'sentences.audit.withdrawalsStatus',
  'withdrawals/statusAfterFinal': 'sentences.audit.withdrawalsStatusAfterFinal',
  'withdrawals/stuck': 'sentences.audit.withdrawalsStuck',
  'withdrawals/submitFailed': 'sentences.audit.withdrawalsSubmitFailed',
  'withdrawals/submitRefused': 'sentences.audit.withdrawalsSubmitRefused',
  'withdrawals/sendHeld': 'sentences.audit.withdrawalsSendHeld',
};

/** The name of each action for people (the log's kind filter and column): a new action without one does not compile. */
const AUDIT_ACTION_LABELS: { readonly [A in AuditAction]: MessageId } = {
  'accounting/export': 'sentences.auditAction.accountingExport',
  'addressbook/controlProven': 'sentences.auditAction.addressbookControlProven',
  'addressbook/forget': 'sentences.auditAction.addressbookForget',
  'addressbook/label': 'sentences.auditAction.addressbookLabel',
  'addressbook/propose': 'sentences.auditAction.addressbookPropose',
  'addressbook/proveRequest': 'sentences.auditAction.addressbookProveRequest',
  'addressbook/remove': 'sentences.auditAction.addressbookRemove',
  'addresses/conflict': 'sentences.auditAction.addressesConflict',
  'addresses/create': 'sentences.auditAction.addressesCreate',
  'audit/anchorMoved': 'sentences.auditAction.auditAnchorMoved',
  'audit/checkpoint': 'sentences.auditAction.auditCheckpoint',
  'audit/export': 'sentences.auditAction.auditExport',
  'audit/legacySealed': 'sentences.auditAction.auditLegacySealed',
  'audit/pack': 'sentences.auditAction.auditPack',
  'callbacks/refused': 'sentences.auditAction.callbacksRefused',
  'callbacks/refusedSummary': 'sentences.auditAction.callbacksRefusedSummary',
  'callbacks/start': 'sentences.auditAction.callbacksStart',
  'callbacks/unknownOrder': 'sentences.auditAction.callbacksUnknownOrder',
  'demo/furnished': 'sentences.auditAction.demoFurnished',
  'demo/operators': 'sentences.auditAction.demoOperators',
  'deposits/conflict': 'sentences.auditAction.depositsConflict',
  'deposits/export': 'sentences.auditAction.depositsExport',
  'deposits/poisoningSuspected': 'sentences.auditAction.depositsPoisoningSuspected',
  'deposits/verified': 'sentences.auditAction.depositsVerified',
  'governance/propose': 'sentences.auditAction.governancePropose',
  'governance/veto': 'sentences.auditAction.governanceVeto',
  'labels/import': 'sentences.auditAction.labelsImport',
  'labels/set': 'sentences.auditAction.labelsSet',
  'notifications/preferences': 'sentences.auditAction.notificationsPreferences',
  'operators/accept': 'sentences.auditAction.operatorsAccept',
  'operators/confirm': 'sentences.auditAction.operatorsConfirm',
  'operators/device': 'sentences.auditAction.operatorsDevice',
  'operators/disable': 'sentences.auditAction.operatorsDisable',
  'operators/enrol': 'sentences.auditAction.operatorsEnrol',
  'operators/found': 'sentences.auditAction.operatorsFound',
  'operators/passphrase': 'sentences.auditAction.operatorsPassphrase',
  'operators/propose-group': 'sentences.auditAction.operatorsProposeGroup',
  'operators/rekey': 'sentences.auditAction.operatorsRekey',
  'operators/role': 'sentences.auditAction.operatorsRole',
  'operators/withdraw-proposal': 'sentences.auditAction.operatorsWithdrawProposal',
  'operators/wrongInvitationCode': 'sentences.auditAction.operatorsWrongInvitationCode',
  'operators/wrongPassphrase': 'sentences.auditAction.operatorsWrongPassphrase',
  'payees/propose': 'sentences.auditAction.payeesPropose',
  'payouts/approveRefused': 'sentences.auditAction.payoutsApproveRefused',
  'policies/propose': 'sentences.auditAction.policiesPropose',
  'profiles/add': 'sentences.auditAction.profilesAdd',
  'profiles/generateKey': 'sentences.auditAction.profilesGenerateKey',
  'profiles/propose-add': 'sentences.auditAction.profilesProposeAdd',
  'profiles/propose-remove': 'sentences.auditAction.profilesProposeRemove',
  'profiles/remove': 'sentences.auditAction.profilesRemove',
  'radar/propose-clear': 'sentences.auditAction.radarProposeClear',
  'sending/freeze': 'sentences.auditAction.sendingFreeze',
  'sending/propose-unfreeze': 'sentences.auditAction.sendingProposeUnfreeze',
  'session/unlock': 'sentences.auditAction.sessionUnlock',
  'settings/lockTimeout': 'sentences.auditAction.settingsLockTimeout',
  'settings/reportingTimeZone': 'sentences.auditAction.settingsReportingTimeZone',
  'settings/stuckThresholds': 'sentences.auditAction.settingsStuckThresholds',
  'statements/export': 'sentences.auditAction.statementsExport',
  'team/genesis': 'sentences.auditAction.teamGenesis',
  'team/profile': 'sentences.auditAction.teamProfile',
  'team/reanchored': 'sentences.auditAction.teamReanchored',
  'team/workstation': 'sentences.auditAction.teamWorkstation',
  'team/workstationLeft': 'sentences.auditAction.teamWorkstationLeft',
  'webhooks/add': 'sentences.auditAction.webhooksAdd',
  'webhooks/remove': 'sentences.auditAction.webhooksRemove',
  'withdrawals/accepted': 'sentences.auditAction.withdrawalsAccepted',
  'withdrawals/ambiguous': 'sentences.auditAction.withdrawalsAmbiguous',
  'withdrawals/approve': 'sentences.auditAction.withdrawalsApprove',
  'withdrawals/approveRefused': 'sentences.auditAction.withdrawalsApproveRefused',
  'withdrawals/cancel': 'sentences.auditAction.withdrawalsCancel',
  'withdrawals/export': 'sentences.auditAction.withdrawalsExport',
  'withdrawals/failureAnswered': 'sentences.auditAction.withdrawalsFailureAnswered',
  'withdrawals/mismatch': 'sentences.auditAction.withdrawalsMismatch',
  'withdrawals/orderMissing': 'sentences.auditAction.withdrawalsOrderMissing',
  'withdrawals/reject': 'sentences.auditAction.withdrawalsReject',
  'withdrawals/request': 'sentences.auditAction.withdrawalsRequest',
  'withdrawals/sendHeld': 'sentences.auditAction.withdrawalsSendHeld',
  'withdrawals/status': 'sentences.auditAction.withdrawalsStatus',
  'withdrawals/statusAfterFinal': 'sentences.auditAction.withdrawalsStatusAfterFinal',
  'withdrawals/stuck': 'sentences.auditAction.withdrawalsStuck',
  'withdrawals/submit': 'sentences.auditAction.withdrawalsSubmit',
  'withdrawals/submitFailed': 'sentences.auditAction.withdrawalsSubmitFailed',
  'withdrawals/submitRefused': 'sentences.auditAction.withdrawalsSubmitRefused',
};

/** An action named for people in the window's language ("Withdrawals: submit refused"); an action this version does not know by its name. */
export function auditActionLabelFor(action: string): string {
  if (currentLanguage() === 'en' || !isAuditAction(action)) return auditActionLabel(action);
  return intlFor(currentLocale()).formatMessage({ id: AUDIT_ACTION_LABELS[action] });
}

/** Every action's name from the catalogue in `intl`'s language (the catalogue test compares the English with the contract's). */
export function auditActionLabelsIn(intl: IntlShape): Readonly<Record<AuditAction, string>> {
  return Object.fromEntries(Object.entries(AUDIT_ACTION_LABELS).map(([action, id]) => [action, intl.formatMessage({ id })])) as Record<AuditAction, string>;
}

/** A known currency's name from the catalogue: "USDT auf TRON", "TRX (TRON)". */
function currencyIn(say: Say, symbol: CurrencySymbol): string {
  const currency = CURRENCIES[symbol];
  const chain = CHAIN_INFO[currency.chain].displayName;
  return currency.native ? say('sentences.currency.native', { asset: currency.asset, chain }) : say('sentences.currency.token', { asset: currency.asset, chain });
}

/** The audit sentences' words from the catalogue in `intl`'s language. */
export function auditWordsIn(intl: IntlShape): AuditWords {
  const say = sayIn(intl);
  const sentences = Object.fromEntries(Object.entries(AUDIT_MESSAGES).map(([action, id]) => [action, (values: PlainValues) => say(id, values)]));
  return {
    sentences: sentences as unknown as AuditWords['sentences'],
    theDesk: say('sentences.audit.phrase.theDesk'),
    ofTheDesk: say('sentences.audit.phrase.ofTheDesk'),
    aWithdrawal: say('sentences.audit.phrase.aWithdrawal'),
    withdrawal: (values) => say('sentences.audit.phrase.withdrawal', values),
    payoutBatch: (values) => say('sentences.audit.phrase.payoutBatch', values),
    request: (values) => say('sentences.audit.phrase.request', values),
    unknown: (values) => say('sentences.audit.phrase.unknown', values),
    currency: (symbol) => currencyIn(say, symbol),
  };
}

/** The language in force's words: the contract's English as it is, else the catalogue's. */
function wordsNow<Words>(english: Words, fromCatalogue: (intl: IntlShape) => Words): Words {
  return currentLanguage() === 'en' ? english : fromCatalogue(intlFor(currentLocale()));
}

/** A currency's name in the window's language ("USDT on TRON", "USDT auf TRON"); an unknown symbol as it is, escaped. */
export function currencyNameFor(symbol: string): string {
  return currencyName(symbol, wordsNow(ENGLISH_AUDIT_WORDS, auditWordsIn));
}

/** An audit row as one sentence in the window's language, its amounts grouped in the person's locale. */
export function auditSentenceFor(entry: AuditSentenceInput): string {
  const words = wordsNow(ENGLISH_AUDIT_WORDS, auditWordsIn);
  const format: AuditSentenceFormat = { amount: (amount, currency) => `${groupAmount(amount, currentLocale())} ${currencyName(currency, words)}` };
  return auditSentence(entry, format, words);
}

// ---- the approver's review ----------------------------------------------------------------------------------------------

/** The review's words from the catalogue in `intl`'s language. */
export function reviewWordsIn(intl: IntlShape): ReviewWords {
  const say = sayIn(intl);
  return {
    labels: {
      amount: say('sentences.review.label.amount'),
      fee: say('sentences.review.label.fee'),
      total: say('sentences.review.label.total'),
      currency: say('sentences.review.label.currency'),
      type: say('sentences.review.label.type'),
      memo: say('sentences.review.label.memo'),
      destination: say('sentences.review.label.destination'),
      standing: say('sentences.review.label.standing'),
      history: say('sentences.review.label.history'),
      rule: say('sentences.review.label.rule'),
      given: say('sentences.review.label.given'),
      needed: say('sentences.review.label.needed'),
      heldNow: say('sentences.review.label.heldNow'),
      age: say('sentences.review.label.age'),
      fingerprint: say('sentences.review.label.fingerprint'),
    },
    duration: {
      underAMinute: say('sentences.review.duration.underAMinute'),
      days: (days) => say('sentences.review.duration.days', { days }),
      hours: (hours) => say('sentences.review.duration.hours', { hours }),
      minutes: (minutes) => say('sentences.review.duration.minutes', { minutes }),
    },
    approvals: (count) => say('sentences.review.approvals', { count }),
    policyDefault: (values) => say('sentences.review.rule.policyDefault', values),
    policyNamed: (values) => say('sentences.review.rule.policyNamed', values),
    tierNone: (values) => say('sentences.review.rule.tierNone', values),
    tierAbove: (values) => say('sentences.review.rule.tierAbove', values),
    intentAsks: (values) => say('sentences.review.rule.intentAsks', values),
    dailyLimit: (values) => say('sentences.review.rule.dailyLimit', values),
    onlyFromBook: say('sentences.review.rule.onlyFromBook'),
    newDestinationWait: (values) => say('sentences.review.rule.newDestinationWait', values),
    approvalGroups: (values) => say('sentences.review.rule.approvalGroups', values),
    approvalValid: (values) => say('sentences.review.rule.approvalValid', values),
    provenControlAbove: (values) => say('sentences.review.rule.provenControlAbove', values),
    feeSource: {
      signedAtRequest: say('sentences.review.feeSource.signedAtRequest'),
      currencyListNow: say('sentences.review.feeSource.currencyListNow'),
      unknown: say('sentences.review.feeSource.unknown'),
    },
    and: (items) => andList(say, items),
    expiredAgain: (values) => say('sentences.review.needed.expiredAgain', values),
    fromGroups: (values) => say('sentences.review.needed.fromGroups', values),
    neededNone: (values) => say('sentences.review.needed.none', values),
    neededGroups: (values) => say('sentences.review.needed.groups', values),
    neededMore: (values) => say('sentences.review.needed.more', values),
    inBook: (values) => say('sentences.review.standing.inBook', values),
    notInBook: say('sentences.review.standing.notInBook'),
    noLabel: say('sentences.review.standing.noLabel'),
    labelled: (values) => say('sentences.review.standing.labelled', values),
    neverPaid: say('sentences.review.standing.neverPaid'),
    paidTimes: (values) => say('sentences.review.standing.paidTimes', values),
    lookAlike: (values) => say('sentences.review.standing.lookAlike', values),
    poisoning: (flag) =>
      say('sentences.review.standing.poisoning', {
        looksLike: flag.looksLike,
        similarity: flag.similarity,
        clearedBy: flag.clearedBy === null ? null : andList(say, flag.clearedBy),
      }),
    control: (standing, time) =>
      standing.proven && standing.at !== null && standing.txid !== null
        ? say('sentences.review.standing.control', { proven: true, at: time(standing.at), txid: standing.txid })
        : say('sentences.review.standing.control', { proven: false, at: '', txid: '' }),
    historyNever: say('sentences.review.history.never'),
    historyLine: (values) => say('sentences.review.history.line', values),
    notKnown: say('sentences.review.notKnown'),
    givenLine: (values) => say('sentences.review.given.line', values),
    feeLine: (values) => say('sentences.review.fee.line', values),
    currencyLine: (values) => say('sentences.review.currency.line', values),
    typeFinancial: say('sentences.review.type.financialConfirmation'),
    typeNormal: say('sentences.review.type.normal'),
    memoLine: (values) => say('sentences.review.memo.line', values),
    noneYet: say('sentences.review.given.noneYet'),
    heldNone: say('sentences.review.heldNow.none'),
    held: (values) => say('sentences.review.heldNow.held', values),
    ageUnknown: say('sentences.review.age.unknown'),
    ageLine: (values) => say('sentences.review.age.line', values),
    noFingerprint: say('sentences.review.fingerprint.none'),
    unsignedWarning: say('sentences.review.warning.unsigned'),
    alteredWarning: (values) => say('sentences.review.warning.altered', values),
  };
}

/** The view with its currency named in the window's language (the engine names it in English). */
function viewNow(view: ApproverView): ApproverView {
  return currentLanguage() === 'en' || !isCurrencySymbol(view.currency) ? view : { ...view, currencyName: currencyNameFor(view.currency) };
}

/** Every item of the approver's review as a label and a value, in the window's language. */
export function reviewLinesFor(view: ApproverView, format: ReviewFormat): ReviewLine[] {
  return reviewLines(viewNow(view), format, wordsNow(ENGLISH_REVIEW_WORDS, reviewWordsIn));
}

/** What the approver is told first when the row was altered or no intent verifies, in the window's language (null: nothing). */
export function reviewWarningFor(view: ApproverView): string | null {
  return reviewWarning(view, wordsNow(ENGLISH_REVIEW_WORDS, reviewWordsIn));
}

// ---- the preflight's destination words -----------------------------------------------------------------------------------

export function preflightWordsIn(intl: IntlShape): PreflightWords {
  const say = sayIn(intl);
  return {
    serviceAddressCheck: {
      accepted: say('sentences.preflight.serviceCheck.accepted'),
      refused: say('sentences.preflight.serviceCheck.refused'),
      unreachable: say('sentences.preflight.serviceCheck.unreachable'),
      notAsked: say('sentences.preflight.serviceCheck.notAsked'),
    },
    notJudged: say('sentences.preflight.destination.notJudged'),
    newDestination: say('sentences.preflight.destination.new'),
    paidBefore: say('sentences.preflight.destination.paidBefore'),
  };
}

/** What the service's isAddress said about the destination, in the window's language. */
export function serviceAddressCheckFor(check: ServiceAddressCheck): string {
  return wordsNow(ENGLISH_PREFLIGHT_WORDS, preflightWordsIn).serviceAddressCheck[check];
}

/** Whether this desk paid the destination before, in the window's language (null: not judged). */
export function destinationHistoryFor(newDestination: boolean | null): string {
  return destinationHistoryWords(newDestination, wordsNow(ENGLISH_PREFLIGHT_WORDS, preflightWordsIn));
}

// ---- tier groups --------------------------------------------------------------------------------------------------------

export function tierGroupsWordsIn(intl: IntlShape): TierGroupsWords {
  const say = sayIn(intl);
  return {
    term: (values) => say('sentences.tierGroups.term', values),
    syntax: say('sentences.tierGroups.syntax'),
    notAGroup: (values) => say('sentences.tierGroups.notAGroup', values),
  };
}

/** A tier's groups in words ("(1 of finance + 1 of treasury-leads) | 2 of cfo"), in the window's language; '' for none. */
export function tierGroupsTextFor(groups: TierGroups | undefined): string {
  return tierGroupsText(groups, wordsNow(ENGLISH_TIER_GROUPS_WORDS, tierGroupsWordsIn));
}

/** What a groups spec looks like (a field's hint), in the window's language. */
export function tierGroupsSyntaxFor(): string {
  return wordsNow(ENGLISH_TIER_GROUPS_WORDS, tierGroupsWordsIn).syntax;
}

/** A groups spec read, with why it cannot be read in the window's language. */
export function parseTierGroupsSpecFor(spec: string): ReturnType<typeof parseTierGroupsSpec> {
  return parseTierGroupsSpec(spec, wordsNow(ENGLISH_TIER_GROUPS_WORDS, tierGroupsWordsIn));
}

// ---- the desk's status: why it is offline, what a sync is doing, what selfcheck found -----------------------------------

/** The message of each connection cause: a new cause without one does not compile. */
const CONNECTION_MESSAGES: { readonly [C in ConnectionCauseCode]: MessageId } = {
  unreachable: 'sentences.connection.unreachable',
  serviceFailing: 'sentences.connection.serviceFailing',
  notWhitelisted: 'sentences.connection.notWhitelisted',
  clockUnmeasured: 'sentences.connection.clockUnmeasured',
  clockDrift: 'sentences.connection.clockDrift',
  responseRefused: 'sentences.connection.responseRefused',
  signatureRefused: 'sentences.connection.signatureRefused',
  authRefused: 'sentences.connection.authRefused',
  decryptRefused: 'sentences.connection.decryptRefused',
  apiVersion1: 'sentences.connection.apiVersion1',
};

/** The connection causes' words from the catalogue in `intl`'s language. */
export function connectionWordsIn(intl: IntlShape): ConnectionWords {
  const say = sayIn(intl);
  return Object.fromEntries(Object.entries(CONNECTION_MESSAGES).map(([code, id]) => [code, (values: PlainValues) => say(id, values)])) as unknown as ConnectionWords;
}

/**
 * Why the desk is offline, in the window's language. The engine's own English inside the sentence (a transport's reason,
 * a verifier's) is given to `engineText`, which marks it as English; it is never translated.
 */
export function connectionCauseFor(cause: ConnectionCause, engineText: (text: string) => ReactNode): ReactNode {
  const values: Readonly<Record<string, unknown>> = connectionSentenceValues(cause);
  const icu: Record<string, unknown> = icuValues(values);
  if (typeof values.detail === 'string') icu.detail = engineText(values.detail);
  return intlFor(currentLocale()).formatMessage({ id: CONNECTION_MESSAGES[cause.code] }, icu as never) as ReactNode;
}

/** The sync progress words from the catalogue in `intl`'s language. */
export function syncProgressWordsIn(intl: IntlShape): SyncProgressWords {
  const say = sayIn(intl);
  const resources: Readonly<Record<SyncResource, string>> = {
    currencies: say('shell.sync.resourceInSentence.currencies'),
    balances: say('shell.sync.resourceInSentence.balances'),
    deposits: say('shell.sync.resourceInSentence.deposits'),
    withdrawals: say('shell.sync.resourceInSentence.withdrawals'),
  };
  return {
    resources,
    asking: (values) => say('sentences.syncProgress.asking', values),
    depositsPage: (values) => say('sentences.syncProgress.depositsPage', values),
    checkingWithdrawal: (values) => say('sentences.syncProgress.checkingWithdrawal', values),
    verifyingDeposits: (values) => say('sentences.syncProgress.verifyingDeposits', values),
  };
}

/** Where a sync stands ("deposits: page 4, 400 read, 3 new stored so far"), in the window's language. */
export function syncProgressFor(resource: SyncResource, phase: SyncProgressPhase): string {
  return syncProgressSentence(resource, phase, wordsNow(ENGLISH_SYNC_PROGRESS_WORDS, syncProgressWordsIn));
}

/** The selfcheck's words from the catalogue in `intl`'s language. */
export function selfcheckWordsIn(intl: IntlShape): SelfcheckWords {
  const say = sayIn(intl);
  return {
    steps: {
      tokenVerified: () => say('sentences.selfcheck.step.tokenVerified'),
      requestAccepted: () => say('sentences.selfcheck.step.requestAccepted'),
      responseVerified: () => say('sentences.selfcheck.step.responseVerified'),
      echoMatches: () => say('sentences.selfcheck.step.echoMatches'),
      echoDiffers: () => say('sentences.selfcheck.step.echoDiffers'),
      clockDrift: (values) => say('sentences.selfcheck.step.clockDrift', values),
      versionEnabled: (values) => say('sentences.selfcheck.step.versionEnabled', values),
      versionOne: () => say('sentences.selfcheck.step.versionOne'),
    },
    advice: {
      notWhitelisted: () => say('sentences.selfcheck.advice.notWhitelisted'),
      signatureFailed: () => say('sentences.selfcheck.advice.signatureFailed'),
      authFailed: () => say('sentences.selfcheck.advice.authFailed'),
      staleTimestamp: (values) => say('sentences.selfcheck.advice.staleTimestamp', values),
      clockBeyond: (values) => say('sentences.selfcheck.advice.clockBeyond', values),
      clockClose: (values) => say('sentences.selfcheck.advice.clockClose', values),
      versionSwitch: () => say('sentences.selfcheck.advice.versionSwitch'),
    },
  };
}

/** What a selfcheck step found, in the window's language; a failed step's detail is its error's message (English). */
export function selfcheckStepFor(outcome: SelfcheckOutcome): string {
  return selfcheckStepSentence(outcome, wordsNow(ENGLISH_SELFCHECK_WORDS, selfcheckWordsIn));
}

/** One line of the selfcheck's advice, in the window's language. */
export function selfcheckAdviceFor(advice: SelfcheckAdvice): string {
  return selfcheckAdviceSentence(advice, wordsNow(ENGLISH_SELFCHECK_WORDS, selfcheckWordsIn));
}

// ---- reconciliation findings ----------------------------------------------------------------------------------------------

/** The findings' words from the catalogue in `intl`'s language. */
export function findingWordsIn(intl: IntlShape): FindingWords {
  const say = sayIn(intl);
  return {
    summary: {
      callbackOnly: (values) => say('sentences.finding.summary.callbackOnly', values),
      queryOnly: (values) => say('sentences.finding.summary.queryOnly', values),
      queryOnlyWithoutCallbacks: (values) => say('sentences.finding.summary.queryOnlyWithoutCallbacks', values),
      depositFeeDiffers: (values) => say('sentences.finding.summary.depositFeeDiffers', values),
      withdrawalFeeDiffers: (values) => say('sentences.finding.summary.withdrawalFeeDiffers', values),
      orderReturned: (values) => say('sentences.finding.summary.orderReturned', values),
      recordedAfterReading: (values) => say('sentences.finding.summary.recordedAfterReading', values),
      balanceChange: (values) => say('sentences.finding.summary.balanceChange', values),
      frozenMismatch: (values) => say('sentences.finding.summary.frozenMismatch', values),
      waitingFor: (values) => say('sentences.finding.summary.waitingFor', values),
      waitingOrder: (values) => say('sentences.finding.summary.waitingOrder', values),
    },
    explanation: {
      callbackOnly: (values) => say('sentences.finding.explanation.callbackOnly', values),
      queryOnly: (values) => say('sentences.finding.explanation.queryOnly', values),
      queryOnlyWithoutCallbacks: (values) => say('sentences.finding.explanation.queryOnlyWithoutCallbacks', values),
      depositFeeDiffers: () => say('sentences.finding.explanation.depositFeeDiffers'),
      withdrawalFeeDiffers: () => say('sentences.finding.explanation.withdrawalFeeDiffers'),
      orderReturned: (values) => say('sentences.finding.explanation.orderReturned', values),
      recordedAfterReading: () => say('sentences.finding.explanation.recordedAfterReading'),
      balanceChange: () => say('sentences.finding.explanation.balanceChange'),
      frozenMismatch: () => say('sentences.finding.explanation.frozenMismatch'),
      waitingFor: () => say('sentences.finding.explanation.waitingFor'),
      unconfirmedRequest: (values) => say('sentences.finding.explanation.unconfirmedRequest', values),
    },
  };
}

/**
 * A finding's summary and explanation in the window's language, with the language they are in: English exactly as the
 * engine says it (plain amounts, ISO times); another language's amounts grouped in the person's locale and times
 * written by `time` (the screen's reporting zone). A finding without its sentence's values keeps the engine's English.
 */
export function findingTextFor(finding: ReconciliationFinding, time: (ms: number) => string): FindingText & { readonly language: Language } {
  const language = currentLanguage();
  if (finding.sentence === undefined) return { summary: finding.summary, explanation: finding.explanation, language: 'en' };
  if (language === 'en') return { ...findingText(finding.currency, finding.sentence, ENGLISH_FINDING_WORDS, PLAIN_FINDING_FORMAT), language };
  const locale = currentLocale();
  return { ...findingText(finding.currency, finding.sentence, findingWordsIn(intlFor(locale)), { number: (value) => groupAmount(value, locale), time }), language };
}
