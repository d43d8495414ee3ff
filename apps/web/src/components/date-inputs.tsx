import '@mantine/dates/styles.css';
import type { ReactNode } from 'react';
import { DateInput, DatesProvider, DateTimePicker, MonthPickerInput, TimePicker, type DatesProviderSettings } from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import 'dayjs/locale/es';
import 'dayjs/locale/ja';
import 'dayjs/locale/zh-cn';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '@/i18n';
import type { UiLanguage } from '@/i18n/languages';

/**
 * The console's date, month, time and date-time inputs (@mantine/dates), in the console's language rather than the
 * browser's: month and weekday names and the date order follow the language, and the clock is always 24-hour.
 * Values stay in the forms the pages always used: days YYYY-MM-DD, months YYYY-MM, times HH:mm and date-times
 * YYYY-MM-DDTHH:mm (local time).
 */
dayjs.extend(customParseFormat);
dayjs.extend(localizedFormat);

const DATES: Record<UiLanguage, DatesProviderSettings> = {
  zh: { locale: 'zh-cn', firstDayOfWeek: 1 },
  en: { locale: 'en', firstDayOfWeek: 0 },
  es: { locale: 'es', firstDayOfWeek: 1 },
  ja: { locale: 'ja', firstDayOfWeek: 0 },
};

/** Dates as the language writes them in short: 2026/11/26 in Chinese and Japanese, 26/11/2026 in Spanish. */
const DAY_FORMAT = 'L';

function Dates({ children }: { children: ReactNode }) {
  return <DatesProvider settings={DATES[currentLanguage()]}>{children}</DatesProvider>;
}

/** A typed day, either as the language writes it or as YYYY-MM-DD; null when it is neither. */
function parseDay(text: string): string | null {
  const value = text.trim();
  const locale = DATES[currentLanguage()].locale ?? 'en';
  // English has no formats of its own in dayjs: the localizedFormat plugin writes its L as MM/DD/YYYY.
  const written = dayjs.Ls[locale]?.formats?.L ?? 'MM/DD/YYYY';
  const day = /^\d{4}-\d{1,2}-\d{1,2}$/.test(value) ? dayjs(value, 'YYYY-M-D', true) : dayjs(value, written, locale, true);
  return day.isValid() ? day.format('YYYY-MM-DD') : null;
}

interface FieldProps {
  label?: string;
  'aria-label'?: string;
  required?: boolean;
  error?: ReactNode;
  w?: number | string | Record<string, number | string>;
  style?: React.CSSProperties;
  'data-testid'?: string;
}

/** One day, YYYY-MM-DD ('' when empty). It can be typed as the language writes dates, or as YYYY-MM-DD. */
export function DayField({
  value,
  onChange,
  min,
  max,
  clearable,
  ...field
}: FieldProps & { value?: string; onChange: (value: string) => void; min?: string; max?: string; clearable?: boolean }) {
  const { t } = useTranslation();
  return (
    <Dates>
      <DateInput
        {...field}
        value={value || null}
        onChange={(next) => onChange(next ?? '')}
        minDate={min || undefined}
        maxDate={max || undefined}
        valueFormat={DAY_FORMAT}
        dateParser={parseDay}
        clearable={clearable}
        placeholder={t('common:dates.day')}
      />
    </Dates>
  );
}

/** One month, YYYY-MM. */
export function MonthField({ value, onChange, max, ...field }: FieldProps & { value?: string; onChange: (value: string) => void; max?: string }) {
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
export function TimeField({ value, onChange, ...field }: FieldProps & { value?: string; onChange: (value: string) => void }) {
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
export function DateTimeField({
  value,
  onChange,
  min,
  max,
  ...field
}: FieldProps & { value?: string; onChange: (value: string) => void; min?: string; max?: string }) {
  const { t } = useTranslation();
  const picker = (local: string | undefined) => (local ? `${local.replace('T', ' ')}:00` : undefined);
  return (
    <Dates>
      <DateTimePicker
        {...field}
        value={picker(value) ?? null}
        onChange={(next) => onChange(next ? next.slice(0, 16).replace(' ', 'T') : '')}
        minDate={picker(min)}
        maxDate={picker(max)}
        valueFormat={`${DAY_FORMAT} HH:mm`}
        w={field.w ?? { base: '100%', xs: 210 }}
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
