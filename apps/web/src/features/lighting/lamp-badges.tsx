import { Badge, Group, Loader, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LampStatus, OnlineState, type FaultCode } from '@sc/contracts';

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
      style={{ flexShrink: 0, overflow: 'visible' }}
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
      style={{ flexShrink: 0, overflow: 'visible' }}
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
