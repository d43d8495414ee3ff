import { useState } from 'react';
import { SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  LED_PLAY_MODES,
  LED_TASK_LIMITS,
  LED_TASK_MAX_REGIONS,
  LED_TASK_NAME_MAX,
  LedPlayMode,
  ledTaskProblems,
  type LedMediaRef,
  type LedTaskPeriod,
  type LedTaskRequest,
  type LedTaskRow,
  type LedTimePeriod,
} from '@sc/contracts';
import { fieldErrors } from '@/api/field-errors';
import { AreaMultiSelect } from '@/components/area-multi-select';
import { DayField, TimeField } from '@/components/date-inputs';
import { FormDialog } from '@/components/form-actions';
import { RowListField, type RowListIds } from '@/components/schedule-fields';
import { notifySuccess } from '@/components/notify';
import { SearchPickSelect, usePickSearch, type PickedItem } from '@/components/search-pick-select';
import { useLedPage } from './api';
import { useLedMediaPage } from './media-api';
import { useLedTaskActions, useLedTaskDetail } from './tasks-api';

type Errors = Record<string, string>;

/** The test ids of an LED task form's list (`led-task-time`, `led-task-days`). */
const idsOf = (testId: string): RowListIds => ({
  list: testId,
  add: `${testId}-add`,
  hint: `${testId}-hint`,
  row: (i) => `${testId}-${i}`,
  remove: (i) => `${testId}-remove-${i}`,
});

/** A day from today, YYYY-MM-DD (the browser's calendar). */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Add or edit an LED task: name, file (at most 1), play mode, 1 to 7 time periods and 1 to 7 task periods (checked
 * here with the server's own rules and messages: 'Order Wrong', 'Time Repeats', 'At most 1 file'…), its screens:
 * regions (every screen of each and of its sub-regions when it is published) and screens searched on the server and
 * chosen one by one, so that a task reaches screens far beyond one page of the list. A new task plays all day (00:00
 * to 00:00, midnight to midnight) for a week from today until told otherwise.
 */
export function LedTaskFormModal({ task, onClose }: { task: LedTaskRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { save } = useLedTaskActions();
  // The file, like the screens, is searched for on the server: a library of any size.
  const fileSearch = usePickSearch();
  const media = useLedMediaPage({ pageNum: 1, pageSize: 50, name: fileSearch.query });
  const fileLabel = (m: LedMediaRef) => `${m.name} (${t(`led:media.type.${m.type}`)})`;
  const detail = useLedTaskDetail(task?.id ?? null);
  const { search, setSearch, query } = usePickSearch();
  const found = useLedPage({ pageNum: 1, pageSize: 50, name: query });
  const [name, setName] = useState(task?.name ?? '');
  const [files, setFiles] = useState<PickedItem[]>(task ? [{ id: task.media.id, label: fileLabel(task.media) }] : []);
  const [playMode, setPlayMode] = useState<LedPlayMode>(task?.playMode ?? LedPlayMode.Synchronous);
  const [timePeriods, setTimePeriods] = useState<LedTimePeriod[]>(task?.timePeriods ?? [{ start: '00:00', end: '00:00' }]);
  const [taskPeriods, setTaskPeriods] = useState<LedTaskPeriod[]>(task?.taskPeriods ?? [{ startDate: dayFromToday(0), endDate: dayFromToday(6) }]);
  const [regionIds, setRegionIds] = useState<number[]>(task?.regionIds ?? []);
  // Until changed, the task's own screens, named once its detail is in.
  const [picked, setPicked] = useState<PickedItem[] | null>(null);
  const named = detail.data?.screens.map((s) => ({ id: s.id, label: `${s.name} (${s.sn})` }));
  const screens = picked ?? named ?? (task?.screenIds ?? []).map((id) => ({ id, label: `#${id}` }));
  const [errors, setErrors] = useState<Errors>({});
  const request = (): LedTaskRequest => ({
    ...(task ? { id: task.id } : {}),
    name: name.trim(),
    mediaIds: files.map((f) => f.id),
    playMode,
    timePeriods,
    taskPeriods,
    screenIds: screens.map((s) => s.id),
    regionIds,
  });
  const submit = async () => {
    const body = request();
    const problems = ledTaskProblems(body);
    if (problems.length > 0) {
      const found: Errors = {};
      for (const p of problems) found[p.field] ??= t(`messages:${p.key}`, p.params ?? {});
      return setErrors(found);
    }
    try {
      await save.mutateAsync(body);
      notifySuccess(t(task ? 'common:feedback.updated' : 'common:feedback.created'));
      onClose();
    } catch (error) {
      setErrors(fieldErrors(error));
    }
  };
  return (
    <FormDialog
      opened
      onClose={onClose}
      title={t(task ? 'led:task.editTitle' : 'led:task.addTitle')}
      onSubmit={submit}
      busy={save.isPending}
      testId="led-task-form"
      submitTestId="led-task-save"
      size="lg"
    >
      <TextInput
        label={t('led:task.fields.name')}
        required
        maxLength={LED_TASK_NAME_MAX}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={errors.name}
        data-testid="led-task-name"
      />
      <SearchPickSelect
        label={t('led:task.fields.file')}
        description={t('led:task.fileHint')}
        nothingFoundMessage={t('led:task.noMedia')}
        search={fileSearch.search}
        onSearchChange={fileSearch.setSearch}
        found={(media.data?.list ?? []).map((m) => ({ id: m.id, label: fileLabel(m) }))}
        value={files}
        onChange={setFiles}
        error={errors.mediaIds}
        data-testid="led-task-file"
      />
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('led:task.fields.playMode')}
        </Text>
        <SegmentedControl
          data={LED_PLAY_MODES.map((mode) => ({ value: String(mode), label: t(`led:task.playMode.${mode}`) }))}
          value={String(playMode)}
          onChange={(mode) => setPlayMode(Number(mode) as LedPlayMode)}
          data-testid="led-task-play-mode"
        />
      </Stack>
      <RowListField
        label={t('led:task.fields.timePeriods')}
        hint={t('led:task.timePeriodsHint', { max: LED_TASK_LIMITS.timePeriods })}
        error={errors.timePeriods}
        count={timePeriods.length}
        max={LED_TASK_LIMITS.timePeriods}
        onAdd={() => setTimePeriods([...timePeriods, { start: '', end: '' }])}
        onRemove={(i) => setTimePeriods(timePeriods.filter((_, j) => j !== i))}
        addLabel={t('led:task.addRow')}
        removeLabel={t('led:task.removeRow')}
        ids={idsOf('led-task-time')}
      >
        {(i) =>
          (['start', 'end'] as const).map((end) => (
            <TimeField
              key={end}
              aria-label={`${t(`led:task.${end}`)} ${i + 1}`}
              style={{ flex: 1 }}
              value={timePeriods[i][end]}
              onChange={(value) => setTimePeriods(timePeriods.map((p, j) => (j === i ? { ...p, [end]: value } : p)))}
              error={errors[`timePeriods[${i}].${end}`]}
              data-testid={`led-task-time-${i}-${end}`}
            />
          ))
        }
      </RowListField>
      <RowListField
        label={t('led:task.fields.taskPeriods')}
        hint={t('led:task.taskPeriodsHint', { max: LED_TASK_LIMITS.taskPeriods })}
        error={errors.taskPeriods}
        count={taskPeriods.length}
        max={LED_TASK_LIMITS.taskPeriods}
        onAdd={() => setTaskPeriods([...taskPeriods, { startDate: '', endDate: '' }])}
        onRemove={(i) => setTaskPeriods(taskPeriods.filter((_, j) => j !== i))}
        addLabel={t('led:task.addRow')}
        removeLabel={t('led:task.removeRow')}
        ids={idsOf('led-task-days')}
      >
        {(i) =>
          (['startDate', 'endDate'] as const).map((end) => (
            <DayField
              key={end}
              aria-label={`${t(`led:task.${end}`)} ${i + 1}`}
              style={{ flex: 1 }}
              value={taskPeriods[i][end]}
              onChange={(value) => setTaskPeriods(taskPeriods.map((p, j) => (j === i ? { ...p, [end]: value } : p)))}
              error={errors[`taskPeriods[${i}].${end}`]}
              data-testid={`led-task-days-${i}-${end}`}
            />
          ))
        }
      </RowListField>
      <AreaMultiSelect
        label={t('led:task.fields.regions')}
        description={t('led:task.regionsHint')}
        placeholder={t('led:task.regionsPlaceholder')}
        nothingFoundMessage={t('led:task.noRegions')}
        maxValues={LED_TASK_MAX_REGIONS}
        value={regionIds}
        onChange={setRegionIds}
        error={errors.regionIds}
        data-testid="led-task-regions"
      />
      <SearchPickSelect
        label={t('led:task.fields.screens')}
        description={t('led:task.screensHint')}
        placeholder={t('led:task.screensPlaceholder')}
        nothingFoundMessage={t('led:task.noScreens')}
        search={search}
        onSearchChange={setSearch}
        found={(found.data?.list ?? []).map((s) => ({ id: s.id, label: `${s.name} (${s.sn})` }))}
        value={screens}
        onChange={setPicked}
        error={errors.screenIds}
        data-testid="led-task-screens"
      />
    </FormDialog>
  );
}
