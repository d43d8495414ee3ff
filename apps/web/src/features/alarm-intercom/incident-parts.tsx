import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CallState, IncidentState, type AlarmCallRow, type AlarmIncidentRow } from '@sc/contracts';

export { LevelBadge } from '@/features/alarm-columns/level-badge';

/** Where the pressed column is: its region and pole, and its position. */
export function IncidentPlace({ incident }: { incident: AlarmIncidentRow }) {
  const { t } = useTranslation();
  const where =
    incident.regionName || incident.poleCode
      ? t('alarmIntercom:notice.place', { region: incident.regionName ?? '—', pole: incident.poleCode ?? '—' })
      : t('alarmIntercom:notice.noPlace');
  return (
    <Text size="xs" c="dimmed" data-testid="incident-place">
      {where}
      {incident.latitude !== null && ` · ${incident.latitude.toFixed(5)}, ${incident.longitude!.toFixed(5)}`}
    </Text>
  );
}

const STATE_COLOR: Record<IncidentState, string> = { open: 'red', acknowledged: 'orange', closed: 'gray' };

export function IncidentStateBadge({ state }: { state: IncidentState }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATE_COLOR[state]} variant="light" data-testid="incident-state" data-state={state}>
      {t(`alarmIntercom:state.${state}`)}
    </Badge>
  );
}

/** A call as it is now: waiting, ringing whom, talking with whom, or its result and duration. */
export function CallSummary({ call }: { call: AlarmCallRow | null }) {
  const { t } = useTranslation();
  if (!call) return <Text size="sm">—</Text>;
  const text =
    call.state === CallState.Ended
      ? `${t(`alarmIntercom:callStatus.${call.status}`)}${call.status === 'Connected' ? ` · ${t('alarmIntercom:incidents.seconds', { count: call.duration })}` : ''}`
      : t(`alarmIntercom:callState.${call.state}`, { agent: call.agentName });
  return (
    <Text size="sm" data-testid="incident-call" data-call-state={call.state} data-call-status={call.status}>
      {text}
    </Text>
  );
}
