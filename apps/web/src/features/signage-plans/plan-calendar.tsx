import { useState } from 'react';
import { ActionIcon, Badge, Group, ScrollArea, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AdPlanCalendarEntry, AdPlanOccurrence, Weekday } from '@sc/contracts';
import { DayField } from '@/components/date-inputs';
import { TableEmptyRow } from '@/components/table-parts';
import { useInstallationZone, usePlanCalendar } from './api';
import { todayAt } from './plan-values';

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** The Monday of the week holding `date`. */
const mondayOf = (date: string): string => addDays(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));
const clock = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * A week of plans: one row per plan, one column per day, each cell the plan's hours that day. A plan that shares a
 * screen with another and plays at the same time (adPlansOverlap, checked by the server) is marked on the days they
 * meet, before it is published. It opens on the week of today at the installation's place.
 */
export function PlanCalendar() {
  const { t } = useTranslation();
  const zone = useInstallationZone();
  const [from, setFrom] = useState(() => mondayOf(todayAt(zone)));
  const to = addDays(from, 6);
  const calendar = usePlanCalendar(from, to);
  const days = Array.from({ length: 7 }, (_, i) => addDays(from, i));
  const plans = calendar.data ?? [];

  return (
    <Stack gap="sm" data-testid="plan-calendar">
      <Group gap="xs" align="flex-end">
        <ActionIcon variant="default" aria-label={t('signagePlans:calendar.previous')} onClick={() => setFrom(addDays(from, -7))}>
          <IconChevronLeft size={16} />
        </ActionIcon>
        <DayField label={t('signagePlans:calendar.from')} value={from} onChange={(d) => d && setFrom(mondayOf(d))} w={180} />
        <ActionIcon variant="default" aria-label={t('signagePlans:calendar.next')} onClick={() => setFrom(addDays(from, 7))}>
          <IconChevronRight size={16} />
        </ActionIcon>
      </Group>
      <ScrollArea>
        <Table withColumnBorders fz="sm" miw={760}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('signagePlans:calendar.plan')}</Table.Th>
              {days.map((day, i) => (
                <Table.Th key={day}>
                  {t(`schedule:weekday.${String(i + 1) as Weekday}`)} {day.slice(5)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {plans.length === 0 && !calendar.isLoading && (
              <TableEmptyRow colSpan={8} py="lg">
                {t('signagePlans:calendar.none')}
              </TableEmptyRow>
            )}
            {plans.map((plan) => (
              <PlanWeek key={plan.id} plan={plan} days={days} plans={plans} />
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Stack>
  );
}

function PlanWeek({ plan, days, plans }: { plan: AdPlanCalendarEntry; days: string[]; plans: AdPlanCalendarEntry[] }) {
  const { t } = useTranslation();
  const byDay = new Map<string, AdPlanOccurrence>(plan.occurrences.map((o) => [o.date, o]));
  const others = new Map(plans.map((p) => [p.id, p]));
  return (
    <Table.Tr data-testid={`plan-calendar-${plan.publishName}`} data-conflicts={plan.conflicts.length}>
      <Table.Td>
        <Text size="sm" fw={500}>
          {plan.publishName}
        </Text>
        <Group gap={4}>
          <Badge size="xs" variant="light">
            {t(`signagePlans:publishType.${plan.publishType}`)}
          </Badge>
          {plan.conflicts.length > 0 && (
            <Badge size="xs" color="red" variant="light" data-testid="plan-conflicts">
              {t('signagePlans:calendar.conflicts', { count: plan.conflicts.length })}
            </Badge>
          )}
        </Group>
      </Table.Td>
      {days.map((day) => {
        const at = byDay.get(day);
        const meeting = plan.conflicts.filter((c) =>
          meetsOn(
            at,
            others.get(c.id)?.occurrences.find((o) => o.date === day),
          ),
        );
        return (
          <Table.Td key={day} bg={at ? (meeting.length ? 'var(--mantine-color-red-light)' : 'var(--mantine-color-blue-light)') : undefined}>
            {at && (
              <Group gap={4} wrap="nowrap">
                <Text size="xs">{`${clock(at.start)}–${clock(at.end)}`}</Text>
                {meeting.length > 0 && (
                  <Tooltip label={t('signagePlans:calendar.conflict', { names: meeting.map((c) => c.publishName).join(', ') })}>
                    <IconAlertTriangle size={14} color="var(--mantine-color-red-6)" data-testid="plan-conflict-day" />
                  </Tooltip>
                )}
              </Group>
            )}
          </Table.Td>
        );
      })}
    </Table.Tr>
  );
}

/** Whether two plans' hours of one day overlap (both share a screen: the server found them in conflict). */
function meetsOn(a: AdPlanOccurrence | undefined, b: AdPlanOccurrence | undefined): boolean {
  return a !== undefined && b !== undefined && Math.max(a.start, b.start) < Math.min(a.end, b.end);
}
