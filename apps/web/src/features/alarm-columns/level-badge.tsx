import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AlarmLevel } from '@sc/contracts';

const LEVEL_COLOR = ['yellow', 'orange', 'red'] as const;

/** An alarm level (spec alarm options: 0, 1, 2 read as one, two, three), coloured by how urgent it is. */
export function LevelBadge({ level }: { level: AlarmLevel }) {
  const { t } = useTranslation();
  return (
    <Badge color={LEVEL_COLOR[level]} variant="light" data-testid="alarm-level" data-level={level}>
      {t(`alarmColumns:level.${level}`)}
    </Badge>
  );
}
