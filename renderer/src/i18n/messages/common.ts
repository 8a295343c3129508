// Messages of the desk's common area, English and German (ICU message syntax: {name}, {count, plural, one {…} other {…}}).
import type { Translation } from './translation';

export const en = {
  'common.time.justNow': 'just now',
  'common.time.minutesAgo': '{minutes} min ago',
  'common.time.hoursAgo': '{hours} h ago',
  'common.time.daysAgo': '{days, plural, one {# day} other {# days}} ago',
  'common.time.inUnderAMinute': 'in less than a minute',
  'common.time.inMinutes': 'in {minutes} min',
  'common.time.inHours': 'in {hours} h',
  'common.time.inDays': 'in {days, plural, one {# day} other {# days}}',
  'common.duration.off': 'off',
  'common.duration.seconds': '{seconds} s',
  'common.duration.minutes': '{minutes} min',
  'common.duration.hours': '{hours} h',
  'common.duration.hoursMinutes': '{hours} h {minutes} min',
} as const;

export const de: Translation<typeof en> = {
  'common.time.justNow': 'gerade eben',
  'common.time.minutesAgo': 'vor {minutes} Min.',
  'common.time.hoursAgo': 'vor {hours} Std.',
  'common.time.daysAgo': 'vor {days, plural, one {# Tag} other {# Tagen}}',
  'common.time.inUnderAMinute': 'in weniger als einer Minute',
  'common.time.inMinutes': 'in {minutes} Min.',
  'common.time.inHours': 'in {hours} Std.',
  'common.time.inDays': 'in {days, plural, one {# Tag} other {# Tagen}}',
  'common.duration.off': 'aus',
  'common.duration.seconds': '{seconds} s',
  'common.duration.minutes': '{minutes} Min.',
  'common.duration.hours': '{hours} Std.',
  'common.duration.hoursMinutes': '{hours} Std. {minutes} Min.',
};
