import { useEffect, useState } from 'react';
import { Box, Group, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TERMINAL_HISTORY_MAX, type TerminalPlay, type TerminalRow } from '@sc/contracts';
import { DayField } from '@/components/date-inputs';
import { useTerminalHistory } from './api';

/** 'HH:mm:ss' of an instant on the terminal's clock. */
function clockTime(iso: string, timeZone: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
}

function duration(play: TerminalPlay): string {
  const seconds = Math.max(0, Math.round(((play.endedAt ? Date.parse(play.endedAt) : Date.now()) - Date.parse(play.startedAt)) / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}

/** Minutes busy in each hour of the day, as bars (a wall screen reads it from across the room). */
function BusyBars({ busySeconds }: { busySeconds: readonly number[] }) {
  const { t } = useTranslation();
  return (
    <Group gap={2} align="flex-end" h={64} wrap="nowrap" data-testid="terminal-busy-hours" aria-label={t('broadcast:history.busyByHour')}>
      {busySeconds.map((seconds, hour) => {
        const minutes = Math.round(seconds / 60);
        return (
          <Tooltip key={hour} label={t('broadcast:history.busyHour', { hour: String(hour).padStart(2, '0'), minutes })}>
            <Box
              data-minutes={minutes}
              style={{ flex: 1, minWidth: 4, height: `${Math.max(2, (seconds / 3600) * 100)}%`, borderRadius: 2 }}
              bg={seconds > 0 ? 'blue.6' : 'gray.3'}
            />
          </Tooltip>
        );
      })}
    </Group>
  );
}

/** The terminal's day: busy by hour and every stretch it played or carried, read again as its occupancy changes. */
export function TerminalHistorySection({ terminal }: { terminal: TerminalRow }) {
  const { t } = useTranslation();
  const [date, setDate] = useState('');
  const history = useTerminalHistory(terminal.id, date);
  const { refetch } = history;
  // Each change of what it plays (pushed live) ends or begins a stretch: the day is read again, no polling.
  const playingKey = `${terminal.occupancy}|${terminal.playing?.title ?? ''}|${terminal.playing?.media ?? ''}|${terminal.networkStatus}`;
  useEffect(() => {
    if (!date) void refetch();
  }, [playingKey, date, refetch]);
  const data = history.data;
  return (
    <Stack gap="sm" mt="xl" data-testid="terminal-history">
      <Group justify="space-between" align="flex-end">
        <Title order={4}>{t('broadcast:history.title')}</Title>
        <DayField
          label={t('broadcast:history.date')}
          value={date || data?.date || ''}
          onChange={setDate}
          w={170}
          data-testid="terminal-history-date"
        />
      </Group>
      {data && (
        <>
          <Text size="xs" c="dimmed">
            {t('broadcast:history.clock', { zone: data.timeZone })}
          </Text>
          <BusyBars busySeconds={data.busySeconds} />
          {data.plays.length === 0 ? (
            <Text c="dimmed">{t('broadcast:history.empty')}</Text>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table striped data-testid="terminal-history-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('broadcast:history.started')}</Table.Th>
                    <Table.Th>{t('broadcast:history.ended')}</Table.Th>
                    <Table.Th>{t('broadcast:history.duration')}</Table.Th>
                    <Table.Th>{t('broadcast:history.kind')}</Table.Th>
                    <Table.Th>{t('broadcast:history.what')}</Table.Th>
                    <Table.Th>{t('broadcast:history.media')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.plays.map((play) => (
                    <Table.Tr key={play.startedAt}>
                      <Table.Td>{clockTime(play.startedAt, data.timeZone)}</Table.Td>
                      <Table.Td>{play.endedAt ? clockTime(play.endedAt, data.timeZone) : t('broadcast:history.still')}</Table.Td>
                      <Table.Td>{duration(play)}</Table.Td>
                      <Table.Td>{t(`broadcast:occupancy.${play.occupancy}`)}</Table.Td>
                      <Table.Td>{play.title}</Table.Td>
                      <Table.Td>{play.media ?? '—'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {data.plays.length >= TERMINAL_HISTORY_MAX && (
            <Text size="xs" c="dimmed">
              {t('broadcast:history.more', { count: TERMINAL_HISTORY_MAX })}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
