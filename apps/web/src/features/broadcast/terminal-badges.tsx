import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TerminalStatus, type TerminalRow } from '@sc/contracts';

const STATUS_COLOR: Record<TerminalStatus, string> = {
  [TerminalStatus.Online]: 'teal',
  [TerminalStatus.Offline]: 'gray',
  [TerminalStatus.Occupied]: 'orange',
};

/** The terminal status of spec section 4: online, offline or occupy. */
export function TerminalStatusBadge({ status }: { status: TerminalStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOR[status] ?? 'gray'} variant="light" data-testid="terminal-status" data-status={status}>
      {t(`broadcast:status.${status}`)}
    </Badge>
  );
}

/** What an occupied terminal plays or carries, paused or not; a dash when idle. */
export function PlayingCell({ terminal }: { terminal: Pick<TerminalRow, 'occupancy' | 'playing'> }) {
  const { t } = useTranslation();
  if (!terminal.playing) return <>—</>;
  return (
    <Text size="sm" data-testid="terminal-playing">
      {t(`broadcast:occupancy.${terminal.occupancy}`)}: {terminal.playing.title}
      {terminal.playing.paused ? ` (${t('broadcast:list.paused')})` : ''}
    </Text>
  );
}
