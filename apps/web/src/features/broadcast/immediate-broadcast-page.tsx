import { Suspense, useEffect, useState } from 'react';
import { Badge, Grid, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconPlayerStop } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { BroadcastTaskMode, Button as ButtonPermission, DeviceFamily, TASK_NAME_MAX, TaskTimeStatus, type BroadcastTaskRow } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { confirmCommand } from '@/components/confirm';
import { lazyComponent } from '@/components/deferred';
import { NameFilter } from '@/components/filter-fields';
import { notifySuccess } from '@/components/notify';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { IconAction } from '@/components/row-actions';
import { ColumnCells, ColumnHeads, OneLine, PinnedActionsCell, TableBox, useTableColumns, type Column } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { TableEmptyRow } from '@/components/table-parts';
import { paging } from '@/navigation/search-params';
import { parseTime } from '@/utils/format';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { DispatchStatusBadge } from '@/features/dispatch/dispatch-status-badge';
import { formatDuration } from './media-format';
import { nextListEnd, timeStatusNow } from './task-live';
import { useLiveTasks, useStopTask, useTaskPage } from './tasks-api';
import { describeTerminalDispatch } from './terminal-dispatch';

// The form (media list, pickers, number inputs) loads beside the page, for those who may send.
const ImmediateBroadcastForm = lazyComponent(() => import('./immediate-broadcast-form'), 'ImmediateBroadcastForm');

const route = getRouteApi('/_auth/_shell/broadcastManage/immediatelyBroadcastTask');

const TIME_STATUS_COLOR: Record<TaskTimeStatus, string> = {
  [TaskTimeStatus.NotStarted]: 'blue',
  [TaskTimeStatus.InProgress]: 'orange',
  [TaskTimeStatus.Ended]: 'gray',
};

/** Renders again at `at` (ms since the epoch; never when null) and answers the time now: a clock, not a poll. */
function useNowUntil(at: number | null): Date {
  const [, setTicks] = useState(0);
  useEffect(() => {
    if (at === null) return;
    const timer = setTimeout(() => setTicks((n) => n + 1), Math.max(0, at - Date.now()) + 20);
    return () => clearTimeout(timer);
  }, [at]);
  return new Date();
}

/**
 * The terminals playing a task now by terminal ID (what their live reports carry; the name shows on hover when the
 * list read it), with the medium each plays; a count of those not listed.
 */
function PlayersCell({ task }: { task: BroadcastTaskRow }) {
  const { t } = useTranslation();
  if (task.playingCount === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="task-players" data-count={0}>
        {t('broadcastTasks:immediate.nobody')}
      </Text>
    );
  return (
    <Stack gap={2} data-testid="task-players" data-count={task.playingCount}>
      {task.players.map((player) => (
        <Text key={player.id} size="sm" data-testid="task-player" data-terminal={player.terminalId} title={player.terminalName}>
          <Text span fw={500} inherit>
            {player.terminalId}
          </Text>
          {player.media ? ` · ${player.media}` : ''}
          {player.paused ? ` (${t('broadcastTasks:immediate.paused')})` : ''}
        </Text>
      ))}
      {task.playingCount > task.players.length && (
        <Text size="xs" c="dimmed">
          {t('broadcastTasks:immediate.more', { count: task.playingCount - task.players.length })}
        </Text>
      )}
    </Stack>
  );
}

function useTaskColumns(now: Date, follow: (dispatchId: string) => void): Column<BroadcastTaskRow>[] {
  const { t } = useTranslation();
  return [
    {
      key: 'taskName',
      label: t('broadcastTasks:immediate.fields.taskName'),
      always: true,
      cell: (task) => (
        <>
          <OneLine fw={500}>{task.taskName}</OneLine>
          <Text size="xs" c="dimmed">{`${parseTime(task.createdAt)} · ${t('broadcastTasks:immediate.sentBy', { name: task.createdBy })}`}</Text>
        </>
      ),
    },
    {
      key: 'media',
      label: t('broadcastTasks:immediate.fields.media'),
      cell: (task) => (
        <>
          <OneLine maw="16rem">{task.media.map((m) => m.title).join(' → ')}</OneLine>
          <Text size="xs" c="dimmed">
            {`${t(`broadcastPlaylists:modes.${task.playbackMode}`)} · ${formatDuration(task.durationMs / 1000)}`}
          </Text>
        </>
      ),
    },
    { key: 'priority', label: t('broadcastTasks:immediate.fields.priority'), align: 'right', cell: (task) => task.priority },
    { key: 'volume', label: t('broadcastTasks:immediate.fields.volume'), align: 'right', cell: (task) => `${task.volume} %` },
    { key: 'terminals', label: t('broadcastTasks:immediate.fields.terminals'), align: 'right', cell: (task) => task.terminalCount },
    {
      key: 'dispatch',
      label: t('broadcastTasks:immediate.fields.dispatch'),
      cell: (task) => (
        <UnstyledButton onClick={() => follow(task.dispatchId)} title={t('broadcastTasks:immediate.showDispatch')} data-testid="task-dispatch">
          <DispatchStatusBadge status={task.dispatchStatus} testId="task-dispatch-status" />
        </UnstyledButton>
      ),
    },
    {
      key: 'timeStatus',
      label: t('broadcastTasks:immediate.fields.timeStatus'),
      cell: (task) => {
        const status = timeStatusNow(task, now);
        return (
          <>
            <Badge color={TIME_STATUS_COLOR[status]} variant="light" data-testid="task-time-status" data-status={status}>
              {t(`broadcastTasks:timeStatus.${status}`)}
            </Badge>
            {task.stoppedBy && (
              <Text size="xs" c="dimmed">
                {t('broadcastTasks:immediate.stopped', { name: task.stoppedBy })}
              </Text>
            )}
          </>
        );
      },
    },
    { key: 'players', label: t('broadcastTasks:immediate.fields.players'), wrap: true, cell: (task) => <PlayersCell task={task} /> },
  ];
}

/**
 * /broadcastManage/immediatelyBroadcastTask: a broadcast now (for those with Open and close), and the immediate
 * broadcasts with their delivery and time status and the terminals playing each, all live without polling; each can
 * be stopped on its terminals.
 */
export function ImmediateBroadcastPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const tasks = useTaskPage({ pageNum, pageSize, taskMode: BroadcastTaskMode.Immediate, taskName: search.taskName });
  useLiveTasks();
  const stop = useStopTask();
  const canSend = useButton(ButtonPermission.OpenAndClose);
  const [draft, setDraft] = useState(search.taskName ?? '');
  const rows = tasks.data?.list ?? [];
  const now = useNowUntil(nextListEnd(rows, Date.now()));
  const follow = (dispatchId: string) => void navigate({ search: { ...search, dispatch: dispatchId }, replace: true, resetScroll: false });
  const columns = useTableColumns('immediate-tasks', useTaskColumns(now, follow));

  const stopTask = async (task: BroadcastTaskRow) => {
    const detail = t('broadcastTasks:immediate.stopConfirm', { name: task.taskName, count: task.terminalCount });
    if (!(await confirmCommand(detail, { confirm: t('broadcastTasks:immediate.stop'), testId: 'task-stop-confirm' }))) return;
    try {
      const { dispatchId } = await stop.mutateAsync(task.id);
      notifySuccess(t('messages:instructionSent'));
      if (dispatchId) follow(dispatchId);
    } catch {
      // The refusal is already on screen.
    }
  };

  return (
    <PagePanel title={t('common:route.immediatelyBroadcastTask')}>
      <Grid gap="lg">
        {canSend && (
          <Grid.Col span={{ base: 12, xl: 8 }}>
            <Suspense fallback={null}>
              <ImmediateBroadcastForm onDispatched={follow} />
            </Suspense>
          </Grid.Col>
        )}
        <Grid.Col span={{ base: 12, xl: canSend ? 4 : 12 }}>
          <DispatchPanel family={DeviceFamily.Broadcast} dispatchId={search.dispatch ?? null} describe={describeTerminalDispatch} />
        </Grid.Col>
        <Grid.Col span={12}>
          <Stack gap="sm">
            <Title order={5}>{t('broadcastTasks:immediate.list')}</Title>
            <FilterBar
              testId="immediate"
              onSubmit={() => void navigate({ search: { ...search, taskName: draft.trim() || undefined, pageNum: undefined } })}
              onReset={() => {
                setDraft('');
                void navigate({ search: { ...search, taskName: undefined, pageNum: undefined } });
              }}
            >
              <NameFilter label={t('broadcastTasks:immediate.search')} maxLength={TASK_NAME_MAX} value={draft} onChange={setDraft} />
            </FilterBar>
            <TableBox>
              <Table striped data-testid="immediate-table">
                <ColumnHeads columns={columns} actions={canSend} />
                <Table.Tbody>
                  {rows.length === 0 && !tasks.isLoading && (
                    <TableEmptyRow colSpan={columns.span()} py="lg">
                      {t('broadcastTasks:immediate.empty')}
                    </TableEmptyRow>
                  )}
                  {rows.map((task) => (
                    <Table.Tr key={task.id} data-testid={`immediate-row-${task.id}`}>
                      <ColumnCells columns={columns} row={task} />
                      <PinnedActionsCell>
                        {canSend && timeStatusNow(task, now) !== TaskTimeStatus.Ended && (
                          <IconAction
                            label={t('broadcastTasks:immediate.stop')}
                            color="red"
                            variant="subtle"
                            onClick={() => void stopTask(task)}
                            testId="task-stop"
                          >
                            <IconPlayerStop size={16} />
                          </IconAction>
                        )}
                      </PinnedActionsCell>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </TableBox>
            <TableFooter
              total={tasks.data?.total ?? 0}
              pageNum={pageNum}
              pageSize={pageSize}
              onChange={(page) => void navigate({ search: { ...search, ...page } })}
            />
          </Stack>
        </Grid.Col>
      </Grid>
    </PagePanel>
  );
}
