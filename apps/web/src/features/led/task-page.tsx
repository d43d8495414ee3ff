import { useState } from 'react';
import { Badge, Button, Stack, Table } from '@mantine/core';
import { IconList, IconPlus, IconRefresh, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, LED_TASK_NAME_MAX, TaskTimeStatus, type LedTaskRow } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { areaPathLabel, useAreaTree } from '@/features/region/area-tree';
import { deleteAfterConfirm } from '@/components/confirm';
import { Deferred, lazyComponent } from '@/components/deferred';
import { NameFilter } from '@/components/filter-fields';
import { notifyError, notifySuccess } from '@/components/notify';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { EditDeleteCell, IconAction } from '@/components/row-actions';
import { ColumnCells, ColumnHeads, OneLine, TableBox, useTableColumns } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { TableEmptyRow } from '@/components/table-parts';
import { usePagedFilters } from '@/components/use-paged-filters';
import { currentLanguage } from '@/i18n';
import { parseTime } from '@/utils/format';
import { useLedTaskActions, useLedTaskPage } from './tasks-api';

const LedTaskFormModal = lazyComponent(() => import('./task-form'), 'LedTaskFormModal');
const LedTaskScreensDrawer = lazyComponent(() => import('./task-screens'), 'LedTaskScreensDrawer');

const TIME_COLOR: Record<TaskTimeStatus, string> = {
  [TaskTimeStatus.NotStarted]: 'gray',
  [TaskTimeStatus.InProgress]: 'green',
  [TaskTimeStatus.Ended]: 'dark',
};

type Dialog = { kind: 'form'; task: LedTaskRow | null } | { kind: 'screens'; task: LedTaskRow } | null;

/** /ledManage/ledTaskManage: LED tasks, published to their screens with each screen's receive status live. */
export function LedTaskPage() {
  const { t } = useTranslation();
  const { field, query, filterBar, footer } = usePagedFilters<{ name?: string }>();
  const tasks = useLedTaskPage(query);
  const { remove, publish, retry } = useLedTaskActions();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const [dialog, setDialog] = useState<Dialog>(null);
  const { tree } = useAreaTree();
  const lang = currentLanguage();
  const close = () => setDialog(null);
  const rows = tasks.data?.list ?? [];
  const f = (field: string) => t(`led:task.fields.${field}`);
  const failed = (error: unknown) => notifyError(error instanceof Error ? error.message : String(error));
  const publishTask = (task: LedTaskRow) =>
    publish
      .mutateAsync(task.id)
      .then(({ dispatchId }) => {
        notifySuccess(t('led:task.published'));
        setDialog({ kind: 'screens', task: { ...task, dispatchId } });
      })
      .catch(failed);
  const retryTask = (task: LedTaskRow) =>
    retry
      .mutateAsync(task.dispatchId!)
      .then(() => {
        notifySuccess(t('led:task.retried'));
        setDialog({ kind: 'screens', task });
      })
      .catch(failed);
  const columns = useTableColumns<LedTaskRow>('ledTasks', [
    { key: 'name', label: f('name'), always: true, cell: (task) => <OneLine fw={500}>{task.name}</OneLine> },
    { key: 'file', label: f('file'), cell: (task) => task.media.name },
    { key: 'playMode', label: f('playMode'), cell: (task) => t(`led:task.playMode.${task.playMode}`) },
    { key: 'timePeriods', label: f('timePeriods'), cell: (task) => task.timePeriods.map((p) => `${p.start}–${p.end}`).join(', ') },
    {
      key: 'taskPeriods',
      label: f('taskPeriods'),
      cell: (task) => task.taskPeriods.map((p) => (p.startDate === p.endDate ? p.startDate : `${p.startDate} – ${p.endDate}`)).join(', '),
    },
    {
      key: 'regions',
      label: f('regions'),
      cell: (task) => <OneLine>{task.regionIds.map((id) => areaPathLabel(tree, id, lang)).join(', ')}</OneLine>,
    },
    // Every screen it reaches now: those chosen and those of its regions.
    { key: 'screens', label: f('screens'), align: 'right', cell: (task) => <span data-testid="led-task-screen-count">{task.screenCount}</span> },
    {
      key: 'timeStatus',
      label: f('timeStatus'),
      cell: (task) => (
        <Badge color={TIME_COLOR[task.timeStatus]} variant="light" data-testid="led-task-time-status">
          {t(`led:task.timeStatus.${task.timeStatus}`)}
        </Badge>
      ),
    },
    { key: 'publishedAt', label: f('publishedAt'), cell: (task) => (task.publishedAt ? parseTime(task.publishedAt) : t('led:task.notPublished')) },
    { key: 'createdBy', label: f('createdBy'), hidden: true, cell: (task) => task.createdBy },
  ]);

  return (
    <PagePanel
      title={t('common:route.ledTaskManage')}
      actions={
        canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'form', task: null })} data-testid="led-task-add">
            {t('led:task.add')}
          </Button>
        )
      }
    >
      <Stack gap="sm">
        <FilterBar {...filterBar} testId="led-task">
          <NameFilter label={f('name')} maxLength={LED_TASK_NAME_MAX} {...field('name')} />
        </FilterBar>
        <TableBox>
          <Table striped verticalSpacing={4} data-testid="led-task-table">
            <ColumnHeads columns={columns} />
            <Table.Tbody>
              {rows.length === 0 && !tasks.isLoading && <TableEmptyRow colSpan={columns.span()} py="lg" />}
              {rows.map((task) => (
                <Table.Tr key={task.id} data-testid={`led-task-row-${task.name}`}>
                  <ColumnCells columns={columns} row={task} />
                  <EditDeleteCell
                    canEdit={canEdit}
                    canDelete={canDelete}
                    onEdit={() => setDialog({ kind: 'form', task })}
                    onDelete={() =>
                      void deleteAfterConfirm(
                        t('led:task.deleteDetail', { name: task.name }),
                        () => remove.mutateAsync(task.id),
                        t('common:feedback.deleted'),
                      )
                    }
                    editTestId="led-task-edit"
                    deleteTestId="led-task-delete"
                  >
                    {canAdd && (
                      <IconAction label={t('led:task.publish')} onClick={() => void publishTask(task)} testId="led-task-publish">
                        <IconSend size={18} />
                      </IconAction>
                    )}
                    {canAdd && task.dispatchId && (
                      <IconAction label={t('led:task.retryFailed')} onClick={() => void retryTask(task)} testId="led-task-retry">
                        <IconRefresh size={18} />
                      </IconAction>
                    )}
                    <IconAction label={t('led:task.screens')} onClick={() => setDialog({ kind: 'screens', task })} testId="led-task-status">
                      <IconList size={18} />
                    </IconAction>
                  </EditDeleteCell>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableBox>
        <TableFooter {...footer(tasks.data?.total ?? 0)} />
      </Stack>
      <Deferred when={dialog !== null}>
        {dialog?.kind === 'form' && <LedTaskFormModal task={dialog.task} onClose={close} />}
        {dialog?.kind === 'screens' && <LedTaskScreensDrawer task={dialog.task} onClose={close} />}
      </Deferred>
    </PagePanel>
  );
}
