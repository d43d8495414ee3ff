import { lazy, useState } from 'react';
import { Badge, Button, Stack, Table, Text } from '@mantine/core';
import { IconEye, IconPlayerPlay, IconPlus } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { BroadcastTaskMode, Button as ButtonPermission, DeviceFamily, TASK_NAME_MAX, type BroadcastTaskRow } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { deleteAfterConfirm } from '@/components/confirm';
import { Deferred, lazyComponent } from '@/components/deferred';
import { NameFilter, OptionFilter } from '@/components/filter-fields';
import { MenuButton } from '@/components/menu-button';
import { loadNamespaces } from '@/i18n';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { EditDeleteCell, IconAction } from '@/components/row-actions';
import { ColumnCells, ColumnHeads, OneLine, TableBox, useTableColumns, type Column } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { TableEmptyRow } from '@/components/table-parts';
import { draftFields } from '@/components/use-paged-filters';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { compact, paging } from '@/navigation/search-params';
import { parseTime } from '@/utils/format';
import { TaskDispatchBadge, TaskPlayBadge, TaskTimeBadge } from './task-badges';
import { describeTaskDispatch, playCycleOf, playDatesOf, playTimeOf } from './task-format';
import { useDeleteTask, useLiveTasks, useTaskPage } from './tasks-api';

// The form and the detail load when first opened, with the terminal texts they show, keeping the list's first load small.
const TaskForm = lazy(() =>
  loadNamespaces(['broadcast', 'broadcastGroups', 'broadcastPlaylists', 'broadcastTasks', 'region', 'schedule'])
    .then(() => import('./task-form'))
    .then((m) => ({ default: m.TaskForm })),
);
const TaskDetailDrawer = lazy(() =>
  loadNamespaces(['broadcast', 'broadcastTasks', 'dispatch', 'schedule'])
    .then(() => import('./task-detail-drawer'))
    .then((m) => ({ default: m.TaskDetailDrawer })),
);

// The play actions' menu (Mantine's Menu and Popover) loads on the first click of a row's play button.
const TaskControlMenu = lazyComponent(() => import('./task-control-menu'), 'TaskControlMenu');

const route = getRouteApi('/_auth/_shell/broadcastManage/broadcastTask');

function useTaskColumns(): Column<BroadcastTaskRow>[] {
  const { t } = useTranslation();
  return [
    {
      key: 'taskName',
      label: t('broadcastTasks:fields.taskName'),
      always: true,
      cell: (task) => (
        <>
          <OneLine fw={500}>{task.taskName}</OneLine>
          <OneLine size="xs" c="dimmed">
            {task.media.map((m) => m.title).join(', ')}
          </OneLine>
        </>
      ),
    },
    {
      key: 'taskMode',
      label: t('broadcastTasks:fields.taskMode'),
      cell: (task) => (
        <Badge variant="outline" color={task.taskMode === BroadcastTaskMode.Scheduled ? 'indigo' : 'grape'}>
          {t(`broadcastTasks:mode.${task.taskMode}`)}
        </Badge>
      ),
    },
    { key: 'playCycle', label: t('broadcastTasks:fields.playCycle'), cell: (task) => playCycleOf(t, task) },
    {
      key: 'playTime',
      label: t('broadcastTasks:fields.playTime'),
      td: { 'data-testid': 'task-play-time' },
      cell: (task) => (
        <>
          <Text size="sm">{playTimeOf(t, task)}</Text>
          {task.schedule && (
            <Text size="xs" c="dimmed">
              {playDatesOf(t, task.schedule)}
            </Text>
          )}
        </>
      ),
    },
    { key: 'volume', label: t('broadcastTasks:fields.volume'), align: 'right', cell: (task) => `${task.volume} %` },
    { key: 'playStatus', label: t('broadcastTasks:fields.playStatus'), cell: (task) => <TaskPlayBadge task={task} /> },
    { key: 'dispatchStatus', label: t('broadcastTasks:fields.dispatchStatus'), cell: (task) => <TaskDispatchBadge status={task.dispatchStatus} /> },
    { key: 'timeStatus', label: t('broadcastTasks:fields.timeStatus'), cell: (task) => <TaskTimeBadge status={task.timeStatus} /> },
    { key: 'priority', label: t('broadcastTasks:fields.priority'), align: 'right', hidden: true, cell: (task) => task.priority },
    { key: 'terminals', label: t('broadcastTasks:fields.terminals'), align: 'right', cell: (task) => task.terminalCount },
    { key: 'createdBy', label: t('broadcastTasks:fields.createdBy'), hidden: true, cell: (task) => task.createdBy },
    { key: 'createdAt', label: t('broadcastTasks:fields.createdAt'), hidden: true, cell: (task) => parseTime(task.createdAt) },
  ];
}

/** The play actions of one task: their menu loads on the button's first click. */
function ControlMenu({ task, onDispatched }: { task: BroadcastTaskRow; onDispatched: (dispatchId: string) => void }) {
  const { t } = useTranslation();
  return (
    <MenuButton
      label={t('broadcastTasks:control.title')}
      testId="task-controls"
      icon={<IconPlayerPlay size={18} />}
      menu={({ opened, onChange, target }) => (
        <TaskControlMenu task={task} opened={opened} onChange={onChange} onDispatched={onDispatched}>
          {target}
        </TaskControlMenu>
      )}
    />
  );
}

/**
 * /broadcastManage/broadcastTask: the broadcast tasks with their play cycle and time, volume, play status, delivery
 * and time status, live; scheduled tasks added and edited in the form beside (`?edit=new|id`), deleted, played,
 * paused, resumed and stopped; a task's terminals in its detail (`?detail=id`); the last command followed below it.
 */
export function TaskPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const tasks = useTaskPage({ taskName: search.taskName, taskMode: search.taskMode, pageNum, pageSize });
  const remove = useDeleteTask();
  const canSend = useButton(ButtonPermission.OpenAndClose);
  const canAdd = useButton(ButtonPermission.Add) && canSend;
  const canEdit = useButton(ButtonPermission.Edit) && canSend;
  const canDelete = useButton(ButtonPermission.Delete) && canSend;
  const [draft, setDraft] = useState({ taskName: search.taskName, taskMode: search.taskMode });
  const field = draftFields(draft, setDraft);
  useLiveTasks();
  const columns = useTableColumns('broadcast-tasks', useTaskColumns());
  const rows = tasks.data?.list ?? [];
  const go = (next: Partial<typeof search>) => void navigate({ search: compact({ ...search, ...next }), resetScroll: false });
  const follow = (dispatchId: string | null) => go({ dispatch: dispatchId ?? undefined });

  if (search.edit !== undefined)
    return (
      <Deferred when>
        <TaskForm
          id={search.edit === 'new' ? null : search.edit}
          onClose={(dispatchId) => go({ edit: undefined, ...(dispatchId ? { dispatch: dispatchId } : {}) })}
        />
      </Deferred>
    );

  return (
    <PagePanel
      title={t('common:route.broadcastTask')}
      actions={
        canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => go({ edit: 'new' })} data-testid="task-add">
            {t('broadcastTasks:add')}
          </Button>
        )
      }
    >
      <Stack gap="sm">
        <FilterBar
          testId="task"
          onSubmit={() => go({ ...draft, taskName: draft.taskName?.trim() || undefined, pageNum: undefined })}
          onReset={() => {
            setDraft({ taskName: undefined, taskMode: undefined });
            go({ taskName: undefined, taskMode: undefined, pageNum: undefined });
          }}
        >
          <NameFilter label={t('broadcastTasks:fields.taskName')} maxLength={TASK_NAME_MAX} {...field('taskName')} testId="task-name-filter" />
          <OptionFilter
            label={t('broadcastTasks:fields.taskMode')}
            placeholder={t('broadcastTasks:allModes')}
            options={Object.values(BroadcastTaskMode).map((mode) => ({ value: mode, label: t(`broadcastTasks:mode.${mode}`) }))}
            {...field('taskMode')}
            testId="task-mode-filter"
          />
        </FilterBar>
        <TableBox>
          <Table striped highlightOnHover data-testid="task-table">
            <ColumnHeads columns={columns} actions />
            <Table.Tbody>
              {rows.length === 0 && (
                <TableEmptyRow colSpan={columns.span()} py="lg">
                  {tasks.isLoading ? t('common:feedback.loading') : t('broadcastTasks:empty')}
                </TableEmptyRow>
              )}
              {rows.map((task) => (
                <Table.Tr key={task.id} data-testid={`task-row-${task.taskName}`}>
                  <ColumnCells columns={columns} row={task} />
                  <EditDeleteCell
                    canEdit={canEdit && task.taskMode === BroadcastTaskMode.Scheduled}
                    canDelete={canDelete}
                    editLabel={t('broadcastTasks:edit')}
                    onEdit={() => go({ edit: task.id })}
                    onDelete={() =>
                      void deleteAfterConfirm(
                        t('broadcastTasks:deleteDetail', { name: task.taskName }),
                        async () => follow((await remove.mutateAsync(task.id)).dispatchId),
                        t('common:feedback.deleted'),
                      )
                    }
                    editTestId="task-edit"
                    deleteTestId="task-delete"
                  >
                    <IconAction label={t('broadcastTasks:detail.open')} onClick={() => go({ detail: task.id })} testId="task-detail">
                      <IconEye size={18} />
                    </IconAction>
                    {canSend && <ControlMenu task={task} onDispatched={follow} />}
                  </EditDeleteCell>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableBox>
        <TableFooter total={tasks.data?.total ?? 0} pageNum={pageNum} pageSize={pageSize} onChange={(page) => go(page)} />
        {search.dispatch && <DispatchPanel family={DeviceFamily.Broadcast} dispatchId={search.dispatch} describe={describeTaskDispatch} />}
      </Stack>
      <Deferred when={search.detail !== undefined}>
        <TaskDetailDrawer id={search.detail ?? null} onClose={() => go({ detail: undefined })} />
      </Deferred>
    </PagePanel>
  );
}
