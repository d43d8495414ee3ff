import { Group, Input, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DayField } from '@/components/date-inputs';

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
        <DayField
          value={from}
          max={to || max}
          onChange={(day) => onChange({ from: day, to })}
          clearable
          aria-label={`${label} · ${t('system:shared.startDate')}`}
          w={150}
          data-testid={testId && `${testId}-from`}
        />
        <Text c="dimmed" size="sm">
          –
        </Text>
        <DayField
          value={to}
          min={from}
          max={max}
          onChange={(day) => onChange({ from, to: day })}
          clearable
          aria-label={`${label} · ${t('system:shared.endDate')}`}
          w={150}
          data-testid={testId && `${testId}-to`}
        />
      </Group>
    </Input.Wrapper>
  );
}
