import { Group, Input, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Date filters of the system pages, on the browser's own date and date-time pickers (no extra bundle).
 * Values are what those inputs use: days as YYYY-MM-DD and date-times as YYYY-MM-DDTHH:mm, both local time.
 */
const pad = (n: number) => String(n).padStart(2, '0');

/** Today as YYYY-MM-DD (local), the latest day a last-login range can reach. */
export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The start of a local day (YYYY-MM-DD) as an ISO instant; undefined when none. */
export function dayStartIso(day: string | undefined): string | undefined {
  return localIso(day && `${day}T00:00:00.000`);
}

/** The end of a local day (YYYY-MM-DD) as an ISO instant; undefined when none. */
export function dayEndIso(day: string | undefined): string | undefined {
  return localIso(day && `${day}T23:59:59.999`);
}

/** A local date-time (YYYY-MM-DDTHH:mm) as an ISO instant; undefined when none. */
export function localIso(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** From and to days under one label; either end may stay empty. */
export function DateRangeField({
  label,
  from,
  to,
  max,
  onChange,
  testId,
}: {
  label: string;
  from: string;
  to: string;
  max?: string;
  onChange: (range: { from: string; to: string }) => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Input.Wrapper label={label} data-testid={testId}>
      <Group gap={6} wrap="nowrap">
        <TextInput
          type="date"
          value={from}
          max={to || max}
          onChange={(e) => onChange({ from: e.currentTarget.value, to })}
          aria-label={`${label} · ${t('system:shared.startDate')}`}
          w={150}
          data-testid={testId && `${testId}-from`}
        />
        <Text c="dimmed" size="sm">
          –
        </Text>
        <TextInput
          type="date"
          value={to}
          min={from || undefined}
          max={max}
          onChange={(e) => onChange({ from, to: e.currentTarget.value })}
          aria-label={`${label} · ${t('system:shared.endDate')}`}
          w={150}
          data-testid={testId && `${testId}-to`}
        />
      </Group>
    </Input.Wrapper>
  );
}

/** One local date-time. */
export function DateTimeField({
  label,
  value,
  min,
  max,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  min?: string;
  max?: string;
  onChange: (value: string) => void;
  testId?: string;
}) {
  return (
    <TextInput
      type="datetime-local"
      label={label}
      value={value}
      min={min || undefined}
      max={max || undefined}
      onChange={(e) => onChange(e.currentTarget.value)}
      w={{ base: '100%', xs: 210 }}
      data-testid={testId}
    />
  );
}
