import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LedPlaying } from '@sc/contracts';
import { parseTime } from '@/utils/format';

/** What a screen shows now, as it reported it: the medium, whether pushed now or from a task, and since when. */
export function PlayingCell({ playing }: { playing: LedPlaying | null }) {
  const { t } = useTranslation();
  if (!playing)
    return (
      <Text size="sm" c="dimmed" data-testid="led-playing" data-media="">
        {t('led:realtime.nothing')}
      </Text>
    );
  return (
    <Group gap={6} wrap="nowrap" data-testid="led-playing" data-media={playing.mediaId} data-task={playing.taskId ?? ''}>
      <Badge size="sm" variant="light" color={playing.source === 'realtime' ? 'orange' : 'blue'}>
        {t(`led:realtime.source.${playing.source}`)}
      </Badge>
      <Text size="sm" fw={500}>
        {playing.name}
      </Text>
      <Text size="xs" c="dimmed">
        {parseTime(playing.since)}
      </Text>
    </Group>
  );
}
