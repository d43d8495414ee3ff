import { Alert, Badge, Drawer, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LampScheduleView } from '@sc/contracts';
import { clockIn } from '@/utils/written-dates';
import { useLampSchedule } from './api';

/** A time of the lamp's own clock (its place's zone), as the lamp runs its schedule. */
function lampClock(iso: string | null, timeZone: string): string {
  if (!iso) return '—';
  return clockIn(iso, timeZone);
}

function ScheduleBody({ view }: { view: LampScheduleView }) {
  const { t } = useTranslation();
  const zone = view.place?.timeZone ?? 'UTC';
  const level = (l: number | null) => (l === null ? '—' : l === 0 ? t('strategy:schedule.off') : `${l} %`);
  return (
    <Stack gap="sm" data-testid="lamp-schedule" data-mismatch={view.mismatch}>
      {view.strategy ? (
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {t('strategy:schedule.strategy')}
          </Text>
          <Text size="sm" fw={500} data-testid="lamp-schedule-strategy">
            {view.strategy.name}
          </Text>
          <Badge variant="light">{t(`strategy:mode.${view.strategy.mode}`)}</Badge>
        </Group>
      ) : (
        <Alert color="gray">{t('strategy:schedule.none')}</Alert>
      )}
      {view.place && (
        <Text size="sm">
          {t('strategy:schedule.place')}: {view.place.latitude.toFixed(4)}, {view.place.longitude.toFixed(4)} · {view.place.timeZone}
          {view.placeSource && ` (${t(`strategy:schedule.placeSource.${view.placeSource}`)})`}
        </Text>
      )}
      {view.night && (
        <Text size="sm" fw={500}>
          {t('strategy:schedule.night', { date: view.night })}
        </Text>
      )}
      {view.sunset || view.sunrise ? (
        <Group gap="lg">
          <Text size="sm" data-testid="lamp-schedule-sunset">
            {t('strategy:schedule.sunset')} {lampClock(view.sunset, zone)}
          </Text>
          <Text size="sm" data-testid="lamp-schedule-sunrise">
            {t('strategy:schedule.sunrise')} {lampClock(view.sunrise, zone)}
          </Text>
        </Group>
      ) : (
        <Text size="sm">{t('strategy:schedule.polar')}</Text>
      )}
      {view.strategy && (
        <>
          <Text size="sm" fw={500}>
            {t('strategy:schedule.intervals')}
          </Text>
          {view.intervals.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('strategy:schedule.noIntervals')}
            </Text>
          ) : (
            <Table fz="sm" data-testid="lamp-schedule-intervals">
              <Table.Tbody>
                {view.intervals.map((i) => (
                  <Table.Tr key={i.start}>
                    <Table.Td>
                      {lampClock(i.start, zone)}–{lampClock(i.end, zone)}
                    </Table.Td>
                    <Table.Td>{level(i.level)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Group gap="lg">
            <Text size="sm">
              {t('strategy:schedule.levelNow')}: <b data-testid="lamp-schedule-level">{level(view.levelNow)}</b>
            </Text>
            <Text size="sm">
              {t('strategy:schedule.reported')}: <b>{level(view.reported.switchState ? view.reported.bri : 0)}</b>
            </Text>
            <Badge color={view.mismatch ? 'red' : 'teal'} variant="light" data-testid="lamp-schedule-agreement">
              {t(view.mismatch ? 'strategy:schedule.mismatch' : 'strategy:schedule.agrees')}
            </Badge>
          </Group>
        </>
      )}
    </Stack>
  );
}

/** A lamp's effective schedule tonight: strategy, periods, the computed sunset and sunrise, and whether it complies. */
export function LampScheduleDrawer({ lampId, onClose }: { lampId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const schedule = useLampSchedule(lampId);
  return (
    <Drawer opened={lampId !== null} onClose={onClose} position="right" size="md" title={t('strategy:schedule.title')}>
      {schedule.data ? <ScheduleBody view={schedule.data} /> : <Loader size="sm" />}
    </Drawer>
  );
}
