import { i18next } from '@/i18n';

/** Spec section 9: a 10-digit number is seconds since the epoch; anything else numeric is milliseconds. */
export function toDate(time: Date | number | string): Date | null {
  if (time instanceof Date) return Number.isNaN(time.getTime()) ? null : time;
  if (typeof time === 'number' || /^\d+$/.test(String(time).trim())) {
    const n = Number(time);
    const date = new Date(String(Math.trunc(n)).length === 10 ? n * 1000 : n);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? null : date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Formats a time with `{y}-{m}-{d} {h}:{i}:{s}` placeholders (spec section 9's default: year-month-day
 * hour:minute:second); `{a}` is the weekday. Empty for a missing or unreadable time.
 */
export function parseTime(time: Date | number | string | null | undefined, pattern = '{y}-{m}-{d} {h}:{i}:{s}'): string {
  if (time === null || time === undefined || time === '') return '';
  const date = toDate(time);
  if (!date) return '';
  const parts: Record<string, string> = {
    y: String(date.getFullYear()),
    m: pad(date.getMonth() + 1),
    d: pad(date.getDate()),
    h: pad(date.getHours()),
    i: pad(date.getMinutes()),
    s: pad(date.getSeconds()),
    a: date.toLocaleDateString(i18next.language || 'en', { weekday: 'short' }),
  };
  return pattern.replace(/\{([ymdhisa])\}/g, (_, key: string) => parts[key]);
}

/**
 * Relative time (spec section 9): under 30 s 'just now', under an hour minutes, under a day hours, under two days
 * '1 day'; older times are shown as a date (or with `pattern` when given).
 */
export function formatTime(time: Date | number | string, pattern?: string, now = Date.now()): string {
  const date = toDate(time);
  if (!date) return '';
  const diff = (now - date.getTime()) / 1000;
  if (diff < 30) return i18next.t('common:time.justNow');
  if (diff < 3600) return i18next.t('common:time.minutesAgo', { count: Math.ceil(diff / 60) });
  if (diff < 86400) return i18next.t('common:time.hoursAgo', { count: Math.ceil(diff / 3600) });
  if (diff < 86400 * 2) return i18next.t('common:time.oneDayAgo');
  return parseTime(date, pattern ?? '{y}-{m}-{d} {h}:{i}');
}

/** The time-ago filter (spec section 9): minutes under an hour, hours under a day, then days. */
export function timeAgo(time: Date | number | string, now = Date.now()): string {
  const date = toDate(time);
  if (!date) return '';
  const between = Math.max(0, (now - date.getTime()) / 1000);
  if (between < 3600) return i18next.t('common:time.minutes', { count: Math.trunc(between / 60) });
  if (between < 86400) return i18next.t('common:time.hours', { count: Math.trunc(between / 3600) });
  return i18next.t('common:time.days', { count: Math.trunc(between / 86400) });
}

const SUFFIXES = [
  { value: 1e18, symbol: 'E' },
  { value: 1e15, symbol: 'P' },
  { value: 1e12, symbol: 'T' },
  { value: 1e9, symbol: 'G' },
  { value: 1e6, symbol: 'M' },
  { value: 1e3, symbol: 'k' },
];

/** Large numbers with the suffixes k, M, G, T, P, E (spec section 9), e.g. 10000 → '10k', 1234567 with 2 digits → '1.23M'. */
export function numberFormatter(num: number, digits = 0): string {
  for (const { value, symbol } of SUFFIXES) {
    if (Math.abs(num) >= value) {
      return (num / value).toFixed(digits).replace(/\.0+$|(\.[0-9]*[1-9])0+$/, '$1') + symbol;
    }
  }
  return String(num);
}

/** Spec section 8: a downloaded file is named with the date and time, then its name and extension. */
export function downloadFileName(name: string, extension: string, at: Date = new Date()): string {
  return `${parseTime(at, '{y}{m}{d}{h}{i}{s}')}${name}.${extension.replace(/^\./, '')}`;
}
