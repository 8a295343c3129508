// Messages of the desk's shell area, English and German (ICU message syntax: {name}, {count, plural, one {…} other {…}}).
import type { Translation } from './translation';

export const en = {
  'shell.productName': 'Treasury Desk',
  'shell.splash.opening': 'Opening the desk…',
} as const;

export const de: Translation<typeof en> = {
  'shell.productName': 'Treasury Desk',
  'shell.splash.opening': 'Der Desk wird geöffnet…',
};
