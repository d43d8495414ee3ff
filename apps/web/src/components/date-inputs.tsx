import { Suspense, type CSSProperties, type ReactNode } from 'react';
import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { writtenDateTime, writtenDay, writtenMonth } from '@/utils/written-dates';
import { lazyComponent } from './deferred';

/**
 * The console's date, month, time and date-time inputs, in the console's language rather than the browser's (a
 * native date or time input follows the browser): month and weekday names and the date order follow the language,
 * and the clock is always 24-hour. Values stay in the forms the pages always used: days YYYY-MM-DD, months YYYY-MM,
 * times HH:mm and date-times YYYY-MM-DDTHH:mm (local time).
 *
 * The pickers (@mantine/dates with dayjs) load beside the page rather than before it: until they arrive, a
 * read-only field shows the value, written as the picker will write it, in the same place.
 */
const DayPicker = lazyComponent(() => import('./date-pickers'), 'DayPicker');
const MonthPicker = lazyComponent(() => import('./date-pickers'), 'MonthPicker');
const ClockPicker = lazyComponent(() => import('./date-pickers'), 'ClockPicker');
const DateTimePicker = lazyComponent(() => import('./date-pickers'), 'DateTimePicker');

export interface FieldProps {
  label?: string;
  'aria-label'?: string;
  required?: boolean;
  error?: ReactNode;
  w?: number | string | Record<string, number | string>;
  style?: CSSProperties;
  'data-testid'?: string;
  /** What the field holds, in the form the page keeps it; '' when empty. */
  value?: string;
  onChange: (value: string) => void;
}

export interface DayFieldProps extends FieldProps {
  min?: string;
  max?: string;
  clearable?: boolean;
}

export interface MonthFieldProps extends FieldProps {
  max?: string;
}

export interface DateTimeFieldProps extends FieldProps {
  min?: string;
  max?: string;
}

function Loading({ field, value, placeholder, children }: { field: FieldProps; value: string; placeholder?: string; children: ReactNode }) {
  const { label, required, error, w, style } = field;
  const fallback = (
    <TextInput
      readOnly
      label={label}
      aria-label={field['aria-label']}
      required={required}
      error={error}
      w={w}
      style={style}
      placeholder={placeholder}
      value={value}
    />
  );
  return <Suspense fallback={fallback}>{children}</Suspense>;
}

/** One day, YYYY-MM-DD. It can be typed as the language writes dates, or as YYYY-MM-DD. */
export function DayField(props: DayFieldProps) {
  const { t } = useTranslation();
  return (
    <Loading field={props} value={props.value ? writtenDay(props.value) : ''} placeholder={t('common:dates.day')}>
      <DayPicker {...props} />
    </Loading>
  );
}

/** One month, YYYY-MM. */
export function MonthField(props: MonthFieldProps) {
  const { t } = useTranslation();
  return (
    <Loading field={props} value={props.value ? writtenMonth(props.value) : ''} placeholder={t('common:dates.month')}>
      <MonthPicker {...props} />
    </Loading>
  );
}

/** A time of day on the 24-hour clock, HH:mm ('' while incomplete). */
export function TimeField(props: FieldProps) {
  return (
    <Loading field={props} value={props.value ?? ''}>
      <ClockPicker {...props} />
    </Loading>
  );
}

/** A local date-time, YYYY-MM-DDTHH:mm, with a calendar and a 24-hour clock. */
export function DateTimeField(props: DateTimeFieldProps) {
  const { t } = useTranslation();
  const field = { ...props, w: props.w ?? { base: '100%', xs: 210 } };
  return (
    <Loading field={field} value={writtenDateTime(props.value ?? '')} placeholder={t('common:dates.dateTime')}>
      <DateTimePicker {...field} />
    </Loading>
  );
}
