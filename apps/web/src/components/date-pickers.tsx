import '@mantine/dates/styles.css';
import type { ReactNode } from 'react';
import {
  DateInput,
  DatesProvider,
  DateTimePicker as MantineDateTimePicker,
  MonthPickerInput,
  TimePicker,
  type DatesProviderSettings,
} from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import 'dayjs/locale/es';
import 'dayjs/locale/ja';
import 'dayjs/locale/zh-cn';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '@/i18n';
import { writtenDateTime, writtenDay } from '@/utils/written-dates';
import type { DateTimeFieldProps, DayFieldProps, FieldProps, MonthFieldProps } from './date-inputs';
import type { UiLanguage } from '@/i18n/languages';

/**
 * The pickers behind components/date-inputs (@mantine/dates and dayjs with its zh, es and ja locales), in a chunk of
 * their own that loads beside the page.
 */
dayjs.extend(customParseFormat);

const DATES: Record<UiLanguage, DatesProviderSettings> = {
  zh: { locale: 'zh-cn', firstDayOfWeek: 1 },
  en: { locale: 'en', firstDayOfWeek: 0 },
  es: { locale: 'es', firstDayOfWeek: 1 },
  ja: { locale: 'ja', firstDayOfWeek: 0 },
};

function Dates({ children }: { children: ReactNode }) {
  return <DatesProvider settings={DATES[currentLanguage()]}>{children}</DatesProvider>;
}

/** A typed day, either as the language writes it or as YYYY-MM-DD; null when it is neither. */
function parseDay(text: string): string | null {
  const value = text.trim();
  const locale = DATES[currentLanguage()].locale ?? 'en';
  // Typed as the fields write days (utils/format writtenDay); English has no formats of its own in dayjs.
  const written = dayjs.Ls[locale]?.formats?.L ?? 'MM/DD/YYYY';
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? dayjs(value, 'YYYY-MM-DD', true) : dayjs(value, written, locale, true);
  return day.isValid() ? day.format('YYYY-MM-DD') : null;
}

/** One day, YYYY-MM-DD ('' when empty). It can be typed as the language writes dates, or as YYYY-MM-DD. */
export function DayPicker({ value, onChange, min, max, clearable, ...field }: DayFieldProps) {
  const { t } = useTranslation();
  return (
    <Dates>
      <DateInput
        {...field}
        value={value || null}
        onChange={(next) => onChange(next ?? '')}
        minDate={min || undefined}
        maxDate={max || undefined}
        valueFormat={writtenDay}
        dateParser={parseDay}
        clearable={clearable}
        placeholder={t('common:dates.day')}
      />
    </Dates>
  );
}

/** One month, YYYY-MM. */
export function MonthPicker({ value, onChange, max, ...field }: MonthFieldProps) {
  const { t } = useTranslation();
  return (
    <Dates>
      <MonthPickerInput
        {...field}
        value={value ? `${value}-01` : null}
        onChange={(next) => next && onChange(next.slice(0, 7))}
        maxDate={max ? `${max}-01` : undefined}
        valueFormat={t('common:dates.monthFormat')}
        placeholder={t('common:dates.month')}
      />
    </Dates>
  );
}

/** A time of day on the 24-hour clock, HH:mm ('' while incomplete). */
export function ClockPicker({ value, onChange, ...field }: FieldProps) {
  const { t } = useTranslation();
  return (
    <TimePicker
      {...field}
      value={value ?? ''}
      onChange={onChange}
      format="24h"
      hoursPlaceholder={t('common:dates.hoursPlaceholder')}
      minutesPlaceholder={t('common:dates.minutesPlaceholder')}
      hoursInputLabel={t('common:dates.hours')}
      minutesInputLabel={t('common:dates.minutes')}
    />
  );
}

/** A local date-time, YYYY-MM-DDTHH:mm ('' when empty), with a calendar and a 24-hour clock. */
export function DateTimePicker({ value, onChange, min, max, ...field }: DateTimeFieldProps) {
  const { t } = useTranslation();
  const picker = (local: string | undefined) => (local ? `${local.replace('T', ' ')}:00` : undefined);
  return (
    <Dates>
      <MantineDateTimePicker
        {...field}
        value={picker(value) ?? null}
        onChange={(next) => onChange(next ? next.slice(0, 16).replace(' ', 'T') : '')}
        minDate={picker(min)}
        maxDate={picker(max)}
        valueFormat={writtenDateTime}
        clearable
        placeholder={t('common:dates.dateTime')}
        timePickerProps={{
          format: '24h',
          hoursPlaceholder: t('common:dates.hoursPlaceholder'),
          minutesPlaceholder: t('common:dates.minutesPlaceholder'),
          hoursInputLabel: t('common:dates.hours'),
          minutesInputLabel: t('common:dates.minutes'),
        }}
      />
    </Dates>
  );
}
