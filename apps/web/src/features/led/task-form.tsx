import { useState } from 'react';
import { ActionIcon, Button, Group, MultiSelect, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  LED_PLAY_MODES,
  LED_TASK_LIMITS,
  LED_TASK_NAME_MAX,
  LedPlayMode,
  ledTaskProblems,
  type LedTaskPeriod,
  type LedTaskRequest,
  type LedTaskRow,
  type LedTimePeriod,
} from '@sc/contracts';
import { fieldErrors } from '@/api/field-errors';
import { DayField, TimeField } from '@/components/date-inputs';
import { FormDialog } from '@/components/form-actions';
import { notifySuccess } from '@/components/notify';
import { useLedPage } from './api';
import { useLedMediaPage } from './media-api';
import { useLedTaskActions } from './tasks-api';

type Errors = Record<string, string>;

/** A list of 1 to 7 rows (time periods or task periods): each row's two inputs, add and remove, the list's own error. */
function RowList<P>({
  label,
  hint,
  rows,
  blank,
  onChange,
  error,
  input,
  testId,
}: {
  label: string;
  hint: string;
  rows: P[];
  blank: P;
  onChange: (rows: P[]) => void;
  error?: string;
  input: (row: P, i: number, set: (row: P) => void) => React.ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid={testId}>
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconPlus size={14} />}
          disabled={rows.length >= LED_TASK_LIMITS.timePeriods}
          onClick={() => onChange([...rows, blank])}
          data-testid={`${testId}-add`}
        >
          {t('led:task.addRow')}
        </Button>
      </Group>
      <Text size="xs" c={error ? 'red' : 'dimmed'} data-testid={`${testId}-hint`}>
        {error ?? hint}
      </Text>
      {rows.map((row, i) => (
        <Group key={i} align="flex-start" gap="xs" wrap="nowrap" data-testid={`${testId}-${i}`}>
          {input(row, i, (next) => onChange(rows.map((r, j) => (j === i ? next : r))))}
          <ActionIcon
            variant="subtle"
            color="red"
            mt={6}
            aria-label={t('led:task.removeRow')}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
            data-testid={`${testId}-remove-${i}`}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
    </Stack>
  );
}

/** A day from today, YYYY-MM-DD (the browser's calendar). */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Add or edit an LED task: name, file (at most 1), play mode, 1 to 7 time periods and 1 to 7 task periods (checked
 * here with the server's own rules and messages: 'Order Wrong', 'Time Repeats', 'At most 1 file'…), its screens. A
 * new task plays all day (00:00 to 00:00, midnight to midnight) for a week from today until told otherwise.
 */
export function LedTaskFormModal({ task, onClose }: { task: LedTaskRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { save } = useLedTaskActions();
  const media = useLedMediaPage({ pageNum: 1, pageSize: 200 });
  const screens = useLedPage({ pageNum: 1, pageSize: 200 });
  const [name, setName] = useState(task?.name ?? '');
  const [mediaIds, setMediaIds] = useState<string[]>(task ? [String(task.media.id)] : []);
  const [playMode, setPlayMode] = useState<LedPlayMode>(task?.playMode ?? LedPlayMode.Synchronous);
  const [timePeriods, setTimePeriods] = useState<LedTimePeriod[]>(task?.timePeriods ?? [{ start: '00:00', end: '00:00' }]);
  const [taskPeriods, setTaskPeriods] = useState<LedTaskPeriod[]>(task?.taskPeriods ?? [{ startDate: dayFromToday(0), endDate: dayFromToday(6) }]);
  const [screenIds, setScreenIds] = useState<string[]>((task?.screenIds ?? []).map(String));
  const [errors, setErrors] = useState<Errors>({});
  const request = (): LedTaskRequest => ({
    ...(task ? { id: task.id } : {}),
    name: name.trim(),
    mediaIds: mediaIds.map(Number),
    playMode,
    timePeriods,
    taskPeriods,
    screenIds: screenIds.map(Number),
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
  const rowError = (list: string, i: number, field: string) => errors[`${list}[${i}].${field}`];
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
      <MultiSelect
        label={t('led:task.fields.file')}
        description={t('led:task.fileHint')}
        searchable
        data={(media.data?.list ?? []).map((m) => ({ value: String(m.id), label: `${m.name} (${t(`led:media.type.${m.type}`)})` }))}
        value={mediaIds}
        onChange={setMediaIds}
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
      <RowList<LedTimePeriod>
        label={t('led:task.fields.timePeriods')}
        hint={t('led:task.timePeriodsHint', { max: LED_TASK_LIMITS.timePeriods })}
        rows={timePeriods}
        blank={{ start: '', end: '' }}
        onChange={setTimePeriods}
        error={errors.timePeriods}
        testId="led-task-time"
        input={(row, i, set) =>
          (['start', 'end'] as const).map((end) => (
            <TimeField
              key={end}
              aria-label={`${t(`led:task.${end}`)} ${i + 1}`}
              style={{ flex: 1 }}
              value={row[end]}
              onChange={(value) => set({ ...row, [end]: value })}
              error={rowError('timePeriods', i, end)}
              data-testid={`led-task-time-${i}-${end}`}
            />
          ))
        }
      />
      <RowList<LedTaskPeriod>
        label={t('led:task.fields.taskPeriods')}
        hint={t('led:task.taskPeriodsHint', { max: LED_TASK_LIMITS.taskPeriods })}
        rows={taskPeriods}
        blank={{ startDate: '', endDate: '' }}
        onChange={setTaskPeriods}
        error={errors.taskPeriods}
        testId="led-task-days"
        input={(row, i, set) =>
          (['startDate', 'endDate'] as const).map((end) => (
            <DayField
              key={end}
              aria-label={`${t(`led:task.${end}`)} ${i + 1}`}
              style={{ flex: 1 }}
              value={row[end]}
              onChange={(value) => set({ ...row, [end]: value })}
              error={rowError('taskPeriods', i, end)}
              data-testid={`led-task-days-${i}-${end}`}
            />
          ))
        }
      />
      <MultiSelect
        label={t('led:task.fields.screens')}
        searchable
        data={(screens.data?.list ?? []).map((s) => ({ value: String(s.id), label: `${s.name} (${s.sn})` }))}
        value={screenIds}
        onChange={setScreenIds}
        error={errors.screenIds}
        data-testid="led-task-screens"
      />
    </FormDialog>
  );
}
