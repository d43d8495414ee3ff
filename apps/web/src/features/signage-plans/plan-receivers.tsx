import { useState } from 'react';
import { Badge, Button, Drawer, Group, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { IconRepeat, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AdReceiveStatus, OnlineState, receiptPercent, type AdPlanReceiver, type AdPlanRow } from '@sc/contracts';
import { notifySuccess } from '@/components/notify';
import { Pagination } from '@/components/pagination';
import { TableEmptyRow } from '@/components/table-parts';
import { parseTime } from '@/utils/format';
import { RECEIVERS_PAGE, useLivePlanReceivers, usePlanReceivers, useRetryPlan } from './api';

export const RECEIVE_COLOR: Record<AdReceiveStatus, string> = {
  [AdReceiveStatus.NotPublished]: 'gray',
  [AdReceiveStatus.PublishedNotReceived]: 'blue',
  [AdReceiveStatus.ReceivedNotDownloaded]: 'cyan',
  [AdReceiveStatus.Downloading]: 'indigo',
  [AdReceiveStatus.DownloadCompleted]: 'teal',
  [AdReceiveStatus.Unknown]: 'red',
};

/**
 * A plan's screens, each in its receive status (spec section 4), moving as the screens report (no polling), with the
 * totals; Retry failed sends the plan again to the screens in unknown (failed or expired) only.
 */
export function PlanReceiversDrawer({
  plan,
  canRetry,
  onPublish,
  onClose,
}: {
  plan: AdPlanRow;
  canRetry: boolean;
  /** Publishes the plan from here (the `publish` button's holders), to watch its screens take it. */
  onPublish?: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const receivers = usePlanReceivers(plan.id, pageNum);
  const data = receivers.data;
  useLivePlanReceivers(plan.id, data?.dispatchId ?? null);
  const retry = useRetryPlan();
  const failed = data?.receiveCounts[AdReceiveStatus.Unknown] ?? 0;

  return (
    <Drawer opened onClose={onClose} position="right" size="xl" title={t('signagePlans:receiversTitle', { name: plan.publishName })}>
      <Stack gap="sm" data-testid="plan-receivers-view">
        <Group gap="xs" wrap="wrap" data-testid="plan-receive-counts">
          {Object.values(AdReceiveStatus).map((status) => (
            <Badge key={status} color={RECEIVE_COLOR[status]} variant="light" data-status={status} data-count={data?.receiveCounts[status] ?? 0}>
              {`${t(`signagePlans:receiveStatus.${status}`)} ${data?.receiveCounts[status] ?? 0}`}
            </Badge>
          ))}
        </Group>
        {data && !data.dispatchId && (
          <Text size="sm" c="dimmed">
            {t('signagePlans:notPublishedYet')}
          </Text>
        )}
        <Group justify="flex-end">
          {onPublish && (
            <Button size="xs" leftSection={<IconSend size={14} />} onClick={onPublish} data-testid="plan-receivers-publish">
              {t('signagePlans:publish')}
            </Button>
          )}
          {canRetry && failed > 0 && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconRepeat size={14} />}
              loading={retry.isPending}
              data-testid="plan-retry"
              onClick={() =>
                retry.mutate(plan.id, {
                  onSuccess: (r) => {
                    notifySuccess(t('signagePlans:retried', { count: r.retried }));
                    void receivers.refetch();
                  },
                })
              }
            >
              {t('signagePlans:retryFailed')}
            </Button>
          )}
        </Group>
        <ScrollArea.Autosize mah="70vh">
          <Table striped fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('signagePlans:device')}</Table.Th>
                <Table.Th>{t('signagePlans:network')}</Table.Th>
                <Table.Th>{t('signagePlans:receivers')}</Table.Th>
                <Table.Th>{t('signagePlans:lastError')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data && data.list.length === 0 && <TableEmptyRow colSpan={4} py="lg" />}
              {data?.list.map((row) => (
                <ReceiverRow key={row.deviceId} row={row} />
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        {data && data.total > RECEIVERS_PAGE && (
          <Pagination size="sm" total={Math.ceil(data.total / RECEIVERS_PAGE)} value={pageNum} onChange={setPageNum} />
        )}
      </Stack>
    </Drawer>
  );
}

function ReceiverRow({ row }: { row: AdPlanReceiver }) {
  const { t } = useTranslation();
  const online = row.networkStatus === OnlineState.Online;
  const percent = row.receiveStatus === AdReceiveStatus.Downloading ? receiptPercent(row.receipt) : null;
  return (
    <Table.Tr data-testid={`plan-receiver-${row.deviceCode}`} data-status={row.receiveStatus}>
      <Table.Td>
        <Text size="sm">{row.deviceName}</Text>
        <Text size="xs" c="dimmed" ff="monospace">
          {row.deviceCode}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge color={online ? 'teal' : 'gray'} variant="dot" size="sm">
          {t(online ? 'signagePlans:online' : 'signagePlans:offline')}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Badge color={RECEIVE_COLOR[row.receiveStatus]} variant="light" size="sm" data-testid="plan-receive-status">
          {percent !== null ? t('signagePlans:downloadingPercent', { percent }) : t(`signagePlans:receiveStatus.${row.receiveStatus}`)}
        </Badge>
        {percent !== null && <Progress size="xs" mt={4} value={percent} />}
        {/* An offline screen's row waits for it until the publication expires. */}
        {!online && row.expiresAt && (
          <Text size="xs" c="dimmed" data-testid="plan-receiver-expiry">
            {t('signagePlans:expiresAt', { time: parseTime(row.expiresAt) })}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="xs" c="dimmed">
          {row.lastError ?? '—'}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
