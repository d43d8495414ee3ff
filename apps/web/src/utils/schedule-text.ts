import type { TFunction } from 'i18next';

/** The days a schedule plays on, short ('Mon Wed Fri'); none chosen is every day (spec section 5). */
export function playDays(t: TFunction, weekdays: readonly string[]): string {
  return weekdays.length === 0 ? t('schedule:everyDay') : weekdays.map((d) => t(`schedule:weekday.${d}`)).join(' ');
}
