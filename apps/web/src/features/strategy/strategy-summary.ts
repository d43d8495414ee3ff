import type { TFunction } from 'i18next';
import { StrategyMode, type StrategyRow } from '@sc/contracts';
import { playDays } from '@/utils/schedule-text';

/** The mode's settings in a line (lamp and strip strategy lists). */
export function settingsOf(t: TFunction, row: StrategyRow): string {
  const data = row.modeData as unknown as Record<string, unknown>;
  switch (row.mode) {
    case StrategyMode.SunriseSunset:
      return t('strategy:summary.sun', { sunset: data.sunsetOffset, sunrise: data.sunriseOffset, level: data.level });
    case StrategyMode.Date:
      return t('strategy:summary.date', { start: data.startDate, end: data.endDate });
    case StrategyMode.Week:
      return playDays(t, (data.weekdays as string[]) ?? []);
    case StrategyMode.Sensing:
      return t('strategy:summary.sensing', { radars: (data.radarCodes as string[]).join(', '), brightness: data.brightness, hold: data.holdSeconds });
  }
}
