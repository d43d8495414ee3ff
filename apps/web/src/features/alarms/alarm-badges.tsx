import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AlarmKind, AlarmState, type AlarmRow } from '@sc/contracts';

const STATE_COLOR: Record<AlarmState, string> = {
  [AlarmState.Active]: 'red',
  [AlarmState.Acknowledged]: 'orange',
  [AlarmState.Cleared]: 'gray',
};

const KIND_COLOR: Record<AlarmKind, string> = {
  [AlarmKind.Fault]: 'red',
  [AlarmKind.DayBurning]: 'yellow',
  [AlarmKind.DarkLamp]: 'indigo',
  [AlarmKind.Offline]: 'gray',
  [AlarmKind.Overload]: 'orange',
};

/** Badges in a table cell keep their whole label (the table scrolls sideways instead). */
const NO_TRUNCATION = { flexShrink: 0, overflow: 'visible' } as const;

/** What the alarm is about: a fault code with its spec label (spec section 3), or a light condition. */
export function AlarmLabel({ alarm }: { alarm: Pick<AlarmRow, 'kind' | 'code'> }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={KIND_COLOR[alarm.kind]}
      variant="light"
      tt="none"
      style={NO_TRUNCATION}
      data-testid="alarm-label"
      data-kind={alarm.kind}
      data-code={alarm.code}
    >
      {alarm.kind === AlarmKind.Fault ? t(`lighting:fault.${alarm.code}`) : t(`alarms:kind.${alarm.kind}`)}
    </Badge>
  );
}

export function AlarmStateBadge({ state }: { state: AlarmState }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={STATE_COLOR[state]}
      variant={state === AlarmState.Active ? 'filled' : 'light'}
      tt="none"
      style={NO_TRUNCATION}
      data-testid="alarm-state"
      data-state={state}
    >
      {t(`alarms:state.${state}`)}
    </Badge>
  );
}
