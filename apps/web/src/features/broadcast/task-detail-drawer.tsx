import { useState } from 'react';
import { Badge, Drawer, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { taskWireId, type TaskTerminal } from '@sc/contracts';
import { DetailField } from '@/components/detail-field';
import { TableBox } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { NameCode, TableEmptyRow } from '@/components/table-parts';
import { clockIn, dayIn } from '@/utils/written-dates';
import { TaskDispatchBadge, TaskPlayBadge, TaskTimeBadge } from './task-badges';
import { playCycleOf, playDatesOf, playTimeOf } from './task-format';
import { useTask, useTaskTerminals } from './tasks-api';
import { TerminalStatusBadge } from './terminal-badges';

/** What a terminal does with the task now: plays it (which medium), paused on it, busy with something else, or nothing. */
function NowCell({ terminal, taskId }: { terminal: TaskTerminal; taskId: string }) {
  const { t } = useTranslation();
  const playing = terminal.playing;
  if (!playing) return <>—</>;
  if (playing.taskId !== taskId)
    return (
      <Text size="sm" c="dimmed">
        {t('broadcastTasks:detail.other', { title: playing.title })}
      </Text>
    );
  const media = playing.media ?? playing.title;
  return (
    <Badge color={playing.paused ? 'yellow' : 'green'} variant="light" data-testid="task-terminal-now" data-paused={playing.paused}>
      {t(playing.paused ? 'broadcastTasks:detail.pausedOn' : 'broadcastTasks:detail.plays', { media })}
    </Badge>
  );
}

/**
 * One task in a drawer (`?detail=id`): what it plays and when, its results, and each terminal's delivery (the ledger),
 * time status by its clock and what it plays now, live.
 */
export function TaskDetailDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const task = useTask(id);
  const terminals = useTaskTerminals({ id: id ?? 0, ...page });
  const data = task.data;
  const rows = terminals.data?.list ?? [];
  const wire = taskWireId(id ?? 0);
  const zone = rows[0]?.timeZone;
  const window = data?.nextWindow;
  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={data ? t('broadcastTasks:detail.title', { name: data.taskName }) : t('broadcastTasks:detail.open')}
    >
      {!data ? (
        <Text c="dimmed">{task.isError ? t('broadcastTasks:notFound') : t('common:feedback.loading')}</Text>
      ) : (
        <Stack data-testid="task-detail">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <DetailField label={t('broadcastTasks:fields.taskMode')}>{t(`broadcastTasks:mode.${data.taskMode}`)}</DetailField>
            <DetailField label={t('broadcastTasks:fields.media')}>{data.media.map((m) => m.title).join(', ')}</DetailField>
            <DetailField label={t('broadcastTasks:fields.playCycle')}>{playCycleOf(t, data)}</DetailField>
            <DetailField label={t('broadcastTasks:fields.playTime')}>
              {playTimeOf(t, data)}
              {data.schedule && ` · ${playDatesOf(t, data.schedule)}`}
            </DetailField>
            <DetailField label={t('broadcastTasks:fields.volume')}>{`${data.volume} %`}</DetailField>
            <DetailField label={t('broadcastTasks:fields.priority')}>{data.priority}</DetailField>
            <DetailField label={t('broadcastTasks:fields.playStatus')}>
              <TaskPlayBadge task={data} />
            </DetailField>
            <DetailField label={t('broadcastTasks:fields.dispatchStatus')}>
              <TaskDispatchBadge status={data.dispatchStatus} />
            </DetailField>
            <DetailField label={t('broadcastTasks:fields.timeStatus')}>
              <TaskTimeBadge status={data.timeStatus} />
            </DetailField>
            {data.schedule && (
              <DetailField label={t('broadcastTasks:detail.nextWindow')}>
                {window && zone
                  ? `${dayIn(window.start, zone)} ${clockIn(window.start, zone)}–${clockIn(window.end, zone)} (${zone})`
                  : t('broadcastTasks:detail.noWindow')}
              </DetailField>
            )}
          </SimpleGrid>
          <Group justify="space-between">
            <Text fw={500}>{t('broadcastTasks:fields.terminals')}</Text>
            <Text size="sm" c="dimmed">
              {terminals.data?.total ?? 0}
            </Text>
          </Group>
          <TableBox>
            <Table striped data-testid="task-terminal-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('broadcastTasks:detail.terminal')}</Table.Th>
                  <Table.Th>{t('broadcast:fields.status')}</Table.Th>
                  <Table.Th>{t('broadcastTasks:detail.delivery')}</Table.Th>
                  <Table.Th>{t('broadcastTasks:fields.timeStatus')}</Table.Th>
                  <Table.Th>{t('broadcastTasks:detail.clock')}</Table.Th>
                  <Table.Th>{t('broadcastTasks:detail.now')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.length === 0 && <TableEmptyRow colSpan={6} py="md" />}
                {rows.map((terminal) => (
                  <Table.Tr key={terminal.id} data-testid={`task-terminal-${terminal.terminalId}`}>
                    <Table.Td>
                      <NameCode name={terminal.terminalName} code={terminal.terminalId} />
                    </Table.Td>
                    <Table.Td>
                      <TerminalStatusBadge status={terminal.status} />
                    </Table.Td>
                    <Table.Td data-testid="task-terminal-delivery" data-state={terminal.delivery ?? ''}>
                      {terminal.delivery ? t(`dispatch:state.${terminal.delivery}`) : t('broadcastTasks:detail.notSent')}
                      {terminal.lastError && (
                        <Text size="xs" c="dimmed">
                          {terminal.lastError}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <TaskTimeBadge status={terminal.timeStatus} />
                    </Table.Td>
                    <Table.Td>{terminal.timeZone}</Table.Td>
                    <Table.Td>
                      <NowCell terminal={terminal} taskId={wire} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableBox>
          <TableFooter total={terminals.data?.total ?? 0} pageNum={page.pageNum} pageSize={page.pageSize} onChange={setPage} />
        </Stack>
      )}
    </Drawer>
  );
}
