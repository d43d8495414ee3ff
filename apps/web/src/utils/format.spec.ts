import { i18next } from '@/i18n';
import en from '@/i18n/locales/en';
import { downloadFileName, formatTime, numberFormatter, parseTime, timeAgo, toDate } from './format';
import { clockIn, dayOfMonthIn, writtenDateTime, writtenDay, writtenMonth } from './written-dates';
import { jsonMessage } from '@/api/download';

beforeAll(async () => {
  await i18next.init({
    lng: 'en',
    resources: { en },
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    showSupportNotice: false,
  } as Parameters<typeof i18next.init>[0]);
});

describe('shared formatting (spec section 9)', () => {
  const at = new Date(2026, 10, 21, 8, 5, 9);

  it('reads 10-digit timestamps as seconds and longer ones as milliseconds', () => {
    const seconds = Math.floor(at.getTime() / 1000);
    expect(toDate(seconds)?.getTime()).toBe(seconds * 1000);
    expect(toDate(String(seconds))?.getTime()).toBe(seconds * 1000);
    expect(toDate(at.getTime())?.getTime()).toBe(at.getTime());
    expect(toDate('not a date')).toBeNull();
  });

  it('formats year-month-day hour:minute:second by default, and custom patterns', () => {
    expect(parseTime(at)).toBe('2026-11-21 08:05:09');
    expect(parseTime(Math.floor(at.getTime() / 1000))).toBe('2026-11-21 08:05:09');
    expect(parseTime(at, '{y}/{m}/{d}')).toBe('2026/11/21');
    expect(parseTime(null)).toBe('');
    expect(parseTime('')).toBe('');
  });

  it('tells relative time: just now, minutes, hours, 1 day, then a date', () => {
    const now = at.getTime();
    expect(formatTime(now - 29_000, undefined, now)).toBe('just now');
    expect(formatTime(now - 5 * 60_000, undefined, now)).toBe('5 minutes ago');
    expect(formatTime(now - 3 * 3_600_000, undefined, now)).toBe('3 hours ago');
    expect(formatTime(now - 30 * 3_600_000, undefined, now)).toBe('1 day ago');
    expect(formatTime(now - 3 * 86_400_000, undefined, now)).toBe('2026-11-18 08:05');
  });

  it('counts time ago in minutes, hours, then days', () => {
    const now = at.getTime();
    expect(timeAgo(now - 60_000, now)).toBe('1 minute');
    expect(timeAgo(now - 2 * 3_600_000, now)).toBe('2 hours');
    expect(timeAgo(now - 3 * 86_400_000, now)).toBe('3 days');
  });

  it('shortens numbers with k, M, G, T, P, E', () => {
    expect(numberFormatter(999)).toBe('999');
    expect(numberFormatter(10_000)).toBe('10k');
    expect(numberFormatter(1_234_567, 2)).toBe('1.23M');
    expect(numberFormatter(1.5e9, 1)).toBe('1.5G');
    expect(numberFormatter(2e12)).toBe('2T');
    expect(numberFormatter(3e15)).toBe('3P');
    expect(numberFormatter(4e18)).toBe('4E');
  });

  it('names downloads with the date and time, then the name and extension', () => {
    expect(downloadFileName('lamps', 'xlsx', at)).toBe('20261121080509lamps.xlsx');
    expect(downloadFileName('lamps', '.xls', at)).toBe('20261121080509lamps.xls');
  });

  it('recognises a download that is really a JSON answer', async () => {
    expect(await jsonMessage(new Blob(['{"code":404,"message":"No such file"}'], { type: 'application/json' }))).toBe('No such file');
    expect(await jsonMessage(new Blob(['{"code":500}'], { type: 'application/json' }))).toBe('');
    expect(await jsonMessage(new Blob(['PK…'], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }))).toBeNull();
  });

  it('reads times on the clock of a time zone, whatever the zone of the machine', () => {
    // 15:00 UTC is midnight of the next day in Tokyo and 23:00 in Shanghai.
    expect(clockIn('2026-11-20T15:00:00Z', 'Asia/Tokyo')).toBe('00:00');
    expect(dayOfMonthIn('2026-11-20T15:00:00Z', 'Asia/Tokyo')).toBe('21');
    expect(clockIn('2026-11-20T15:00:00Z', 'Asia/Shanghai')).toBe('23:00');
    expect(dayOfMonthIn('2026-11-20T15:00:00Z', 'Asia/Shanghai')).toBe('20');
  });

  it('writes days, months and date-times of the date fields as the language does (English here)', () => {
    expect(writtenDay('2026-11-21')).toBe('11/21/2026');
    expect(writtenMonth('2026-11')).toBe('November 2026');
    expect(writtenDateTime('2026-11-21T09:30')).toBe('11/21/2026 09:30');
    expect(writtenDateTime('')).toBe('');
  });
});
