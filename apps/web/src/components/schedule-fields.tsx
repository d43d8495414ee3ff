import type { ReactNode } from 'react';
import { ActionIcon, Button, Chip, Group, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { WEEKDAYS } from '@sc/contracts';
import { TimeField, type FieldProps } from './date-inputs';

/**
 * The inputs of a schedule that plays on weekdays in periods of a day (lamp strategies, broadcast tasks): weekday
 * chips and a list of periods. Their texts are the core `common:schedule` ones.
 */

/** Weekday chips ('1' Monday to '7' Sunday); none chosen means all seven (spec section 5), which the hint says. */
export function WeekdayField({
  label,
  value,
  onChange,
  error,
  testId,
}: {
  label: string;
  value: string[];
  onChange: (weekdays: string[]) => void;
  error?: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Chip.Group multiple value={value} onChange={onChange}>
        <Group gap="xs" data-testid={`${testId}-weekdays`}>
          {WEEKDAYS.map((d) => (
            <Chip key={d} value={d} size="sm">
              {t(`schedule:weekday.${d}`)}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      <Text size="xs" c={error ? 'red' : 'dimmed'}>
        {error ?? t('schedule:weekdaysHint')}
      </Text>
    </Stack>
  );
}

/**
 * What the period list needs of its form (Mantine's useForm fits): the periods under `periods`, their inputs by path
 * (`periods.1.start`) with the errors there, and the list's own error under `periods`.
 */
export interface PeriodsForm<P> {
  values: { periods: P[] };
  errors: Record<string, ReactNode>;
  getInputProps(path: string): Pick<FieldProps, 'value' | 'onChange' | 'error'>;
  insertListItem(path: 'periods', item: P): void;
  removeListItem(path: 'periods', index: number): void;
}

/** The test ids of a list of rows: the list, its add button, its hint, each row and each row's remove button. */
export interface RowListIds {
  list: string;
  add: string;
  hint: string;
  row: (index: number) => string;
  remove: (index: number) => string;
}

/**
 * A list of rows edited in place (periods of a day, date ranges): each row's inputs (`children`), removed one by one
 * and added up to `max`. An error of the list as a whole stands in place of the hint.
 */
export function RowListField({
  label,
  hint,
  error,
  count,
  max,
  onAdd,
  onRemove,
  addLabel,
  removeLabel,
  ids,
  children,
}: {
  label: string;
  hint: string;
  error?: ReactNode;
  count: number;
  max: number;
  onAdd: () => void;
  onRemove: (index: number) => void;
  addLabel: string;
  removeLabel: string;
  ids: RowListIds;
  children: (index: number) => ReactNode;
}) {
  return (
    <Stack gap="xs" data-testid={ids.list}>
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Button size="compact-sm" variant="light" leftSection={<IconPlus size={14} />} disabled={count >= max} onClick={onAdd} data-testid={ids.add}>
          {addLabel}
        </Button>
      </Group>
      <Text size="xs" c={error ? 'red' : 'dimmed'} data-testid={ids.hint}>
        {error ?? hint}
      </Text>
      {Array.from({ length: count }, (_, i) => (
        <Group key={i} align="flex-start" gap="xs" wrap="nowrap" data-testid={ids.row(i)}>
          {children(i)}
          <ActionIcon variant="subtle" color="red" mt={6} aria-label={removeLabel} onClick={() => onRemove(i)} data-testid={ids.remove(i)}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
    </Stack>
  );
}

/**
 * The periods of a day, in order: a start and an end each (24-hour clock), anything a period holds besides
 * (`extra`), removed one by one and added up to `max`. An error of the list as a whole stands in place of the hint;
 * each time's own error under it.
 */
export function PeriodListField<P extends { start: string; end: string }>({
  form,
  label,
  hint,
  max,
  blank,
  extra,
  testId,
}: {
  form: PeriodsForm<P>;
  label: string;
  hint: string;
  max: number;
  /** A new period. */
  blank: P;
  extra?: (index: number) => ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <RowListField
      label={label}
      hint={hint}
      error={form.errors.periods}
      count={form.values.periods.length}
      max={max}
      onAdd={() => form.insertListItem('periods', { ...blank })}
      onRemove={(i) => form.removeListItem('periods', i)}
      addLabel={t('schedule:addPeriod')}
      removeLabel={t('schedule:removePeriod')}
      ids={{
        list: `${testId}-periods`,
        add: `${testId}-add-period`,
        hint: `${testId}-periods-hint`,
        row: (i) => `${testId}-period-${i}`,
        remove: (i) => `${testId}-remove-period-${i}`,
      }}
    >
      {(i) => (
        <>
          {(['start', 'end'] as const).map((end) => (
            <TimeField
              key={end}
              aria-label={`${t(`schedule:${end}`)} ${i + 1}`}
              style={{ flex: 1 }}
              {...form.getInputProps(`periods.${i}.${end}`)}
              data-testid={`${testId}-period-${i}-${end}`}
            />
          ))}
          {extra?.(i)}
        </>
      )}
    </RowListField>
  );
}
