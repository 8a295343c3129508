// Messages of the desk's withdrawals area, English and German (ICU message syntax: {name}, {count, plural, one {…} other {…}}).
import type { Translation } from './translation';

export const en = {} as const;

export const de: Translation<typeof en> = {};
