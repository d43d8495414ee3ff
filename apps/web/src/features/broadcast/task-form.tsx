import type { ReactNode } from 'react';
import { Anchor, MultiSelect, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  BROADCAST_PERIODS_MAX,
  MediaAuditStatus,
  NUMBER_BOUNDS,
  PAGE_SIZE_MAX,
  PlaybackMode,
  TASK_NAME_MAX,
  TASK_PRIORITY,
  type BroadcastTaskDetail,
  type ScheduledTaskRequest,
  type Weekday,
} from '@sc/contracts';
import { fieldErrors } from '@/api/field-errors';
import { AreaCascader } from '@/components/area-cascader';
import { BoundedNumberInput, numberFieldError } from '@/components/bounded-number-input';
import { DayField } from '@/components/date-inputs';
import { FormActions } from '@/components/form-actions';
import { notifySuccess } from '@/components/notify';
import { PagePanel } from '@/components/page-panel';
import { PeriodListField, WeekdayField } from '@/components/schedule-fields';
import { Select } from '@/components/select';
import { GroupPicker } from './group-picker';
import { GroupTerminalTransfer, useTerminalTransfer, type ChosenTerminal } from './group-terminal-transfer';
import { formatDuration } from './media-format';
import { formPathOf } from './task-format';
import { useMediaPage, usePlaylistPage } from './media-api';
import { useSaveTask, useTask, useTaskTerminals } from './tasks-api';

interface Values {
  taskName: string;
  source: 'playlist' | 'media';
  playlistId: string | null;
  mediaIds: string[];
  playbackMode: PlaybackMode;
  priority: number | string;
  volume: number | string;
  weekdays: string[];
  periods: { start: string; end: string }[];
  startDate: string;
  endDate: string;
  target: 'terminals' | 'region' | 'groups';
  regionId: number | null;
  groupIds: number[];
}

const today = () => new Date().toLocaleDateString('sv');

function valuesOf(task: BroadcastTaskDetail | null): Values {
  const schedule = task?.schedule;
  return {
    taskName: task?.taskName ?? '',
    source: task && task.playlistId === null ? 'media' : 'playlist',
    playlistId: task?.playlistId ? String(task.playlistId) : null,
    mediaIds: task && task.playlistId === null ? task.media.map((m) => String(m.mediaId)) : [],
    playbackMode: task?.playbackMode ?? PlaybackMode.Normal,
    priority: task?.priority ?? 5,
    volume: task?.volume ?? '',
    weekdays: schedule?.weekdays ?? [],
    periods: schedule?.periods ?? [{ start: '08:00', end: '08:30' }],
    startDate: schedule?.startDate ?? today(),
    endDate: schedule?.endDate ?? '',
    target: 'terminals',
    regionId: null,
    groupIds: [],
  };
}

/**
 * How each way of choosing names the terminals. Groups are read when the task is saved: the task keeps the terminals
 * they held then (editing it shows them as chosen terminals).
 */
const TARGETS: Record<Values['target'], (values: Values, terminalIds: number[]) => Pick<ScheduledTaskRequest, 'ids' | 'regionId' | 'groupIds'>> = {
  terminals: (_, ids) => ({ ids }),
  region: (values) => ({ regionId: values.regionId ?? undefined }),
  groups: (values) => ({ groupIds: values.groupIds }),
};

/** The request: what it plays, its schedule and its terminals; the server checks the schedule's periods and dates. */
function requestOf(values: Values, id: number | undefined, terminalIds: number[]): ScheduledTaskRequest {
  return {
    ...(id ? { id } : {}),
    taskName: values.taskName.trim(),
    ...(values.source === 'playlist'
      ? { playlistId: values.playlistId ? Number(values.playlistId) : undefined }
      : { mediaIds: values.mediaIds.map(Number), playbackMode: values.playbackMode }),
    priority: Number(values.priority),
    volume: Number(values.volume),
    schedule: {
      weekdays: values.weekdays as Weekday[],
      periods: values.periods,
      startDate: values.startDate,
      endDate: values.endDate || null,
    },
    ...TARGETS[values.target](values, terminalIds),
  };
}

/** A choice between two or more ways (what a task plays, how its terminals are chosen), then what the chosen way asks. */
function Choice({
  label,
  choices,
  value,
  onChange,
  testId,
  children,
}: {
  label: string;
  choices: Record<string, string>;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <SegmentedControl
        w="fit-content"
        data={Object.entries(choices).map(([choice, text]) => ({ value: choice, label: text }))}
        value={value}
        onChange={onChange}
        data-testid={testId}
      />
      {children}
    </Stack>
  );
}

function TaskFormBody({
  task,
  terminals,
  onClose,
}: {
  task: BroadcastTaskDetail | null;
  terminals: readonly ChosenTerminal[];
  onClose: (dispatchId?: string) => void;
}) {
  const { t } = useTranslation();
  const save = useSaveTask();
  const transfer = useTerminalTransfer(terminals, task?.terminalIds);
  const playlists = usePlaylistPage({ pageNum: 1, pageSize: PAGE_SIZE_MAX });
  const media = useMediaPage({ pageNum: 1, pageSize: PAGE_SIZE_MAX, auditStatus: MediaAuditStatus.Approved });
  const form = useForm<Values>({
    initialValues: valuesOf(task),
    validate: {
      taskName: (v) => (v.trim() ? null : t('messages:nameEmpty')),
      volume: (v) => (v === '' ? t('messages:volumeEmpty') : numberFieldError(t, v, NUMBER_BOUNDS.volume)),
      priority: (v) => numberFieldError(t, v, TASK_PRIORITY, true),
    },
  });
  const values = form.values;
  const modes = Object.values(PlaybackMode).map((value) => ({ value, label: t(`broadcastPlaylists:modes.${value}`) }));

  // Not a <form> element: the terminal search inside it is a form of its own.
  const submit = async () => {
    if (form.validate().hasErrors) return;
    try {
      const answer = await save.mutateAsync(requestOf(values, task?.id, [...transfer.selection.selected]));
      notifySuccess(t('broadcastTasks:form.sent'));
      onClose(answer.dispatchId);
    } catch (error) {
      // The toast already says it; each field's message also stands under its input.
      form.setErrors(Object.fromEntries(Object.entries(fieldErrors(error)).map(([field, message]) => [formPathOf(field), message])));
    }
  };

  return (
    <Stack data-testid="task-form">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label={t('broadcastTasks:fields.taskName')}
          required
          maxLength={TASK_NAME_MAX}
          {...form.getInputProps('taskName')}
          data-testid="task-form-name"
        />
        <BoundedNumberInput
          label={t('broadcastTasks:fields.volume')}
          required
          bounds={NUMBER_BOUNDS.volume}
          suffix=" %"
          {...form.getInputProps('volume')}
          data-testid="task-form-volume"
        />
        <BoundedNumberInput
          label={t('broadcastTasks:fields.priority')}
          description={t('broadcastTasks:form.priorityHint')}
          required
          bounds={TASK_PRIORITY}
          {...form.getInputProps('priority')}
          data-testid="task-form-priority"
        />
      </SimpleGrid>

      <Choice
        label={t('broadcastTasks:form.source')}
        choices={{ playlist: t('broadcastTasks:form.byPlaylist'), media: t('broadcastTasks:form.byMedia') }}
        value={values.source}
        onChange={(source) => form.setFieldValue('source', source as Values['source'])}
        testId="task-form-source"
      >
        {values.source === 'playlist' ? (
          <Select
            aria-label={t('broadcastTasks:fields.playlist')}
            placeholder={t('broadcastTasks:form.playlistPlaceholder')}
            searchable
            nothingFoundMessage={t('broadcastTasks:form.noPlaylist')}
            data={(playlists.data?.list ?? []).map((p) => ({ value: String(p.id), label: `${p.name} (${formatDuration(p.totalDuration)})` }))}
            {...form.getInputProps('playlistId')}
            error={form.errors.playlistId ?? form.errors.mediaIds}
            data-testid="task-form-playlist"
          />
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <MultiSelect
              aria-label={t('broadcastTasks:fields.media')}
              placeholder={t('broadcastTasks:form.mediaPlaceholder')}
              searchable
              nothingFoundMessage={t('broadcastTasks:form.noMedia')}
              data={(media.data?.list ?? []).map((m) => ({ value: String(m.id), label: `${m.materialName} (${formatDuration(m.duration)})` }))}
              {...form.getInputProps('mediaIds')}
              data-testid="task-form-media"
            />
            <Select
              aria-label={t('broadcastTasks:fields.playbackMode')}
              allowDeselect={false}
              data={modes}
              {...form.getInputProps('playbackMode')}
              data-testid="task-form-mode"
            />
          </SimpleGrid>
        )}
      </Choice>

      <WeekdayField
        label={t('broadcastTasks:fields.weekdays')}
        value={values.weekdays}
        onChange={(v) => form.setFieldValue('weekdays', v)}
        error={form.errors.weekdays}
        testId="task"
      />
      <PeriodListField
        form={form}
        label={t('broadcastTasks:fields.periods')}
        hint={t('broadcastTasks:form.periodsHint')}
        max={BROADCAST_PERIODS_MAX}
        blank={{ start: '', end: '' }}
        testId="task"
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <DayField label={t('broadcastTasks:fields.startDate')} required {...form.getInputProps('startDate')} data-testid="task-form-start-date" />
        <Stack gap={2}>
          <DayField label={t('broadcastTasks:fields.endDate')} clearable {...form.getInputProps('endDate')} data-testid="task-form-end-date" />
          <Text size="xs" c="dimmed">
            {t('broadcastTasks:form.endDateHint')}
          </Text>
        </Stack>
      </SimpleGrid>

      <Choice
        label={t('broadcastTasks:form.target')}
        choices={{
          terminals: t('broadcastTasks:form.byTerminals'),
          region: t('broadcastTasks:form.byRegion'),
          groups: t('broadcastTasks:form.byGroups'),
        }}
        value={values.target}
        onChange={(target) => form.setFieldValue('target', target as Values['target'])}
        testId="task-form-target"
      >
        {values.target === 'region' && (
          <AreaCascader
            label={t('broadcastTasks:form.byRegion')}
            placeholder={t('broadcastTasks:form.regionPlaceholder')}
            value={values.regionId}
            onChange={(regionId) => form.setFieldValue('regionId', regionId)}
            error={form.errors.regionId ?? form.errors.terminals}
          />
        )}
        {values.target === 'groups' && (
          <Stack gap={2}>
            <GroupPicker
              label={t('broadcastTasks:form.byGroups')}
              value={values.groupIds}
              onChange={(groupIds) => form.setFieldValue('groupIds', groupIds)}
              error={form.errors.groupIds ?? form.errors.terminals}
              testId="task-form-groups"
            />
            <Text size="xs" c="dimmed">
              {t('broadcastTasks:form.groupsHint')}
            </Text>
          </Stack>
        )}
        {values.target === 'terminals' && (
          <GroupTerminalTransfer
            transfer={transfer}
            error={form.errors.terminals as string | undefined}
            texts="broadcastTasks:terminals"
            testId="task"
          />
        )}
      </Choice>
      <FormActions onCancel={() => onClose()} onConfirm={() => void submit()} loading={save.isPending} testId="task-form-save" />
    </Stack>
  );
}

/** Add (`id` null) or edit a scheduled task, in place of the list; `onClose` gets the dispatch that sends it. */
export function TaskForm({ id, onClose }: { id: number | null; onClose: (dispatchId?: string) => void }) {
  const { t } = useTranslation();
  const task = useTask(id);
  // The chosen list shows the task's terminals (the first page of them; all stay chosen).
  const terminals = useTaskTerminals({ id: id ?? 0, pageNum: 1, pageSize: PAGE_SIZE_MAX });
  const ready = id === null || (task.data && terminals.data);
  return (
    <PagePanel
      title={t(id === null ? 'broadcastTasks:create' : 'broadcastTasks:edit')}
      actions={
        <Anchor component="button" size="sm" onClick={() => onClose()}>
          {t('broadcastTasks:back')}
        </Anchor>
      }
    >
      {ready ? (
        <TaskFormBody key={id ?? 'new'} task={task.data ?? null} terminals={terminals.data?.list ?? []} onClose={onClose} />
      ) : (
        <Text c="dimmed" data-testid="task-form-state">
          {task.isError ? t('broadcastTasks:notFound') : t('common:feedback.loading')}
        </Text>
      )}
    </PagePanel>
  );
}
