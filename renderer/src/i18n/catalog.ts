// The message catalogue: every text the window shows, in English and German, one area file per part of the desk
// (messages/*.ts). An area's German table is typed from its English one, so a missing or extra German message is a type
// error; test/unit/renderer/i18n-catalog.test.ts checks that both sides parse as ICU messages with the same arguments.
import * as account from './messages/account';
import * as amounts from './messages/amounts';
import * as common from './messages/common';
import * as history from './messages/history';
import * as operators from './messages/operators';
import * as payees from './messages/payees';
import * as sentences from './messages/sentences';
import * as settings from './messages/settings';
import * as shell from './messages/shell';
import * as withdrawals from './messages/withdrawals';

/** The languages the desk speaks. */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Every area, so the catalogue test can check that no two areas define one id. */
export const AREAS = { account, amounts, common, history, operators, payees, sentences, settings, shell, withdrawals } as const;

export const ENGLISH = {
  ...account.en,
  ...amounts.en,
  ...common.en,
  ...history.en,
  ...operators.en,
  ...payees.en,
  ...sentences.en,
  ...settings.en,
  ...shell.en,
  ...withdrawals.en,
} as const;

/** One message's id: `area.place.meaning` ("deposits.filter.currency"). */
export type MessageId = keyof typeof ENGLISH;

export const GERMAN: { readonly [Id in MessageId]: string } = {
  ...account.de,
  ...amounts.de,
  ...common.de,
  ...history.de,
  ...operators.de,
  ...payees.de,
  ...sentences.de,
  ...settings.de,
  ...shell.de,
  ...withdrawals.de,
};

export const CATALOGUES: { readonly [L in Language]: { readonly [Id in MessageId]: string } } = { en: ENGLISH, de: GERMAN };
