import { Badge, Group, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LampStatus, OnlineState, type FaultCode, type LampRow } from '@sc/contracts';

const STATUS_COLOR: Record<LampStatus, string> = {
  [LampStatus.Normal]: 'teal',
  [LampStatus.Synchronizing]: 'blue',
  [LampStatus.Distributing]: 'blue',
  [LampStatus.DistributionFailed]: 'red',
  [LampStatus.DistributionSucceeded]: 'green',
  [LampStatus.Offline]: 'gray',
};

/** Lamp status of spec section 3, with a spinner while a command is on its way. */
export function LampStatusBadge({ status }: { status: LampStatus }) {
  const { t } = useTranslation();
  const busy = status === LampStatus.Distributing || status === LampStatus.Synchronizing;
  return (
    <Badge
      color={STATUS_COLOR[status] ?? 'gray'}
      variant="light"
      leftSection={busy ? <Loader size={10} color="blue" /> : null}
      style={{ flexShrink: 0, overflow: 'visible', minWidth: 'max-content' }}
      data-testid="lamp-status"
      data-status={status}
    >
      {t(`lighting:status.${status}`)}
    </Badge>
  );
}

export function NetworkBadge({ networkStatus }: { networkStatus: OnlineState }) {
  const { t } = useTranslation();
  const online = networkStatus === OnlineState.Online;
  return (
    <Badge
      color={online ? 'teal' : 'gray'}
      variant="dot"
      data-testid="lamp-network"
      data-network={networkStatus}
      style={{ flexShrink: 0, overflow: 'visible', minWidth: 'max-content' }}
    >
      {t(`lighting:network.${networkStatus}`)}
    </Badge>
  );
}

export function FaultList({ faults }: { faults: FaultCode[] }) {
  const { t } = useTranslation();
  if (faults.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('lighting:list.noFaults')}
      </Text>
    );
  return (
    <Group gap={4}>
      {faults.map((code) => (
        <Tooltip key={code} label={t(`lighting:fault.${code}`)}>
          <Badge color="orange" variant="light" size="sm">
            {t(`lighting:fault.${code}`)}
          </Badge>
        </Tooltip>
      ))}
    </Group>
  );
}

/** Readings of the last telemetry, compact for a table cell. */
export function TelemetryCell({ lamp }: { lamp: Pick<LampRow, 'telemetry'> }) {
  const { t } = useTranslation();
  const reading = lamp.telemetry;
  if (!reading) return <Text c="dimmed">—</Text>;
  return (
    <Tooltip
      label={
        <Stack gap={2}>
          <span>{`${t('lighting:fields.voltage')}: ${reading.voltage.toFixed(1)} V`}</span>
          <span>{`${t('lighting:fields.current')}: ${reading.current.toFixed(2)} A`}</span>
          <span>{`${t('lighting:fields.power')}: ${reading.power.toFixed(1)} W`}</span>
          <span>{`${t('lighting:fields.powerFactor')}: ${reading.powerFactor.toFixed(2)}`}</span>
          <span>{`${t('lighting:fields.signal')}: ${reading.signal} dBm`}</span>
        </Stack>
      }
    >
      <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="lamp-telemetry">
        {`${reading.voltage.toFixed(0)} V · ${reading.power.toFixed(0)} W · ${reading.signal} dBm`}
      </Text>
    </Tooltip>
  );
}
