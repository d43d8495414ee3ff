import { apiLanguage } from '@/i18n';

// Times written in a place's zone or in the console's language: used by the date fields, the energy chart and the
// schedules, kept apart from format.ts so that every list does not carry them.

/** A time on the 24-hour clock of a time zone (a lamp's or a region's), whatever the browser's own zone: HH:mm. */
export function clockIn(time: Date | string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(time));
}

/** The day (YYYY-MM-DD) of a time in a time zone, whatever the browser's own zone: today at a place, for one. */
export function dayIn(time: Date | string, timeZone: string): string {
  return new Intl.DateTimeFormat('sv', { timeZone, dateStyle: 'short' }).format(new Date(time));
}

/** The day of the month of a time in a time zone, whatever the browser's own zone. */
export function dayOfMonthIn(time: Date | string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric' }).format(new Date(time));
}

/** A day (YYYY-MM-DD) as the console's language writes it in figures: 2026/11/21 (zh, ja), 21/11/2026 (es), 11/21/2026 (en). */
export function writtenDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(apiLanguage(), { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

/** A month (YYYY-MM) as the console's language names it: 2026年11月, November 2026, noviembre de 2026. */
export function writtenMonth(month: string): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return month;
  return new Intl.DateTimeFormat(apiLanguage(), { timeZone: 'UTC', year: 'numeric', month: 'long' }).format(date);
}

/** A local date-time (YYYY-MM-DDTHH:mm, or with a space and seconds) as the language writes the day, then HH:mm. */
export function writtenDateTime(value: string): string {
  return value ? `${writtenDay(value.slice(0, 10))} ${value.slice(11, 16)}` : '';
}
