import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DispatchStatus, TaskPlayStatus, TaskTimeStatus, type BroadcastTaskRow } from '@sc/contracts';

const TIME_COLOR: Record<TaskTimeStatus, string> = {
  [TaskTimeStatus.NotStarted]: 'gray',
  [TaskTimeStatus.InProgress]: 'blue',
  [TaskTimeStatus.Ended]: 'dark',
};

const DISPATCH_COLOR: Record<string, string> = {
  [DispatchStatus.ToBeSent]: 'blue',
  [DispatchStatus.AllSuccessful]: 'teal',
  [DispatchStatus.PartiallySuccessful]: 'orange',
  [DispatchStatus.AllFailures]: 'red',
};

const PLAY_COLOR: Record<TaskPlayStatus, string> = {
  [TaskPlayStatus.Playing]: 'green',
  [TaskPlayStatus.Paused]: 'yellow',
  [TaskPlayStatus.Idle]: 'gray',
};

/** The spec's broadcast task time status: not started, in progress, ended. */
export function TaskTimeBadge({ status }: { status: TaskTimeStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={TIME_COLOR[status]} variant="light" data-testid="task-time-status" data-status={status}>
      {t(`broadcastTasks:timeStatus.${status}`)}
    </Badge>
  );
}

/** The spec's task dispatch result: to be sent, partially successful, all successful, all failures. */
export function TaskDispatchBadge({ status }: { status: DispatchStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={DISPATCH_COLOR[status] ?? 'gray'} variant="light" data-testid="task-dispatch-status" data-status={status}>
      {t(`dispatch:status.${status}`)}
    </Badge>
  );
}

/** The spec's playStatus: playing (on how many terminals), paused, or not playing, from the terminals' live state. */
export function TaskPlayBadge({ task }: { task: Pick<BroadcastTaskRow, 'playStatus' | 'playingCount'> }) {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="nowrap">
      <Badge color={PLAY_COLOR[task.playStatus]} variant="light" data-testid="task-play-status" data-status={task.playStatus}>
        {t(`broadcastTasks:playStatus.${task.playStatus}`)}
      </Badge>
      {task.playingCount > 0 && (
        <Text size="xs" c="dimmed">
          {t('broadcastTasks:playingOn', { count: task.playingCount })}
        </Text>
      )}
    </Group>
  );
}
