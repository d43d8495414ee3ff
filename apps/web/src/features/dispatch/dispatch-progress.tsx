import { useState } from 'react';
import { Badge, Button, Group, Paper, Progress, ScrollArea, Stack, Table, Text, Title, Tooltip, UnstyledButton } from '@mantine/core';
import { IconRepeat } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Pagination } from '@/components/pagination';
import { DispatchItemState, DispatchStatus, TERMINAL_ITEM_STATES, receiptPercent, type DispatchItemRow } from '@sc/contracts';
import { notifySuccess } from '@/components/notify';
import { parseTime } from '@/utils/format';
import { DispatchPanelEmpty, type DispatchPanelProps } from './dispatch-panel';
import { DispatchStatusBadge } from './dispatch-status-badge';
import { DISPATCH_ROWS_PAGE, useDispatchDetail, useLiveDispatchRows, useLiveDispatches, useRetryFailed, type DispatchRowsPage } from './api';

const STATE_COLOR: Record<DispatchItemState, string> = {
  [DispatchItemState.Delivered]: 'teal',
  [DispatchItemState.Failed]: 'red',
  [DispatchItemState.Expired]: 'orange',
  [DispatchItemState.Sent]: 'blue',
  [DispatchItemState.Queued]: 'gray',
};

/** The panel's content for one dispatch (loaded beside the page: DispatchPanel). */
export default function DispatchProgressView({ family, dispatchId, describe }: DispatchPanelProps) {
  const { t } = useTranslation();
  useLiveDispatches(family);
  useLiveDispatchRows(family);
  const [page, setPage] = useState<DispatchRowsPage>({ pageNum: 1 });
  const detail = useDispatchDetail(dispatchId, page);
  const retry = useRetryFailed();
  const data = detail.data;

  if (!dispatchId || !data) return <DispatchPanelEmpty />;

  const done = TERMINAL_ITEM_STATES.reduce((sum, state) => sum + data.counts[state], 0);
  const retryable = data.counts.failed + data.counts.expired;
  const states = [DispatchItemState.Delivered, DispatchItemState.Failed, DispatchItemState.Expired, DispatchItemState.Sent, DispatchItemState.Queued];

  return (
    <Paper withBorder p="md" radius="md" data-testid="dispatch-panel" data-status={data.status}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <Title order={5}>{t('dispatch:title')}</Title>
            <DispatchStatusBadge status={data.status} />
          </Group>
          {retryable > 0 && data.status !== DispatchStatus.ToBeSent && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconRepeat size={14} />}
              loading={retry.isPending}
              onClick={() => retry.mutate(data.id, { onSuccess: () => notifySuccess(t('dispatch:retried')) })}
              data-testid="dispatch-retry"
            >
              {t('dispatch:retryFailed')}
            </Button>
          )}
        </Group>
        <Text size="sm">
          {describe(t, data)} · {t('dispatch:createdBy', { name: data.createdBy })} · {parseTime(data.createdAt)}
        </Text>
        <Progress.Root size="lg" aria-label={t('dispatch:progress', { done, total: data.total })}>
          {states.map((state) =>
            data.counts[state] > 0 ? (
              <Tooltip key={state} label={`${t(`dispatch:state.${state}`)}: ${data.counts[state]}`}>
                <Progress.Section value={(data.counts[state] / Math.max(1, data.total)) * 100} color={STATE_COLOR[state]} />
              </Tooltip>
            ) : null,
          )}
        </Progress.Root>
        <Group gap="xs" wrap="wrap" data-testid="dispatch-counts">
          <Text size="sm" fw={500} data-testid="dispatch-progress">
            {t('dispatch:progress', { done, total: data.total })}
          </Text>
          {states.map((state) => (
            <UnstyledButton
              key={state}
              aria-pressed={page.state === state}
              aria-label={t('dispatch:showState', { state: t(`dispatch:state.${state}`) })}
              onClick={() => setPage({ pageNum: 1, state: page.state === state ? undefined : state })}
            >
              <Badge
                color={STATE_COLOR[state]}
                variant={page.state === state ? 'filled' : 'light'}
                data-state={state}
                data-count={data.counts[state]}
              >
                {`${t(`dispatch:state.${state}`)} ${data.counts[state]}`}
              </Badge>
            </UnstyledButton>
          ))}
        </Group>
        <ScrollArea.Autosize mah={320}>
          <Table striped fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('dispatch:device')}</Table.Th>
                <Table.Th>{t('dispatch:stateColumn')}</Table.Th>
                <Table.Th>{t('dispatch:attempts')}</Table.Th>
                <Table.Th>{t('dispatch:lastError')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((item) => (
                <Table.Tr key={item.deviceId}>
                  <Table.Td>
                    <Text size="sm">{item.deviceName}</Text>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {item.deviceCode}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATE_COLOR[item.state]} variant="light" size="sm">
                      {t(`dispatch:state.${item.state}`)}
                    </Badge>
                    <ReceiptLine item={item} />
                  </Table.Td>
                  <Table.Td>{item.attempts}</Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed">
                      {item.lastError ?? '—'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        {data.itemsTotal > DISPATCH_ROWS_PAGE && (
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="xs" c="dimmed" data-testid="dispatch-rows">
              {t('dispatch:rows', { shown: data.items.length, count: data.itemsTotal })}
            </Text>
            <Pagination
              size="sm"
              total={Math.ceil(data.itemsTotal / DISPATCH_ROWS_PAGE)}
              value={page.pageNum}
              onChange={(pageNum) => setPage({ ...page, pageNum })}
            />
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** How far an open row's device has got with the files its command names, as its last receipt says. */
function ReceiptLine({ item }: { item: DispatchItemRow }) {
  const { t } = useTranslation();
  if (!item.receipt || item.state !== DispatchItemState.Sent) return null;
  const percent = receiptPercent(item.receipt);
  const label =
    item.receipt.stage === 'received'
      ? t('dispatch:receipt.received')
      : percent === null
        ? t('dispatch:receipt.downloading')
        : t('dispatch:receipt.downloadingPercent', { percent });
  return (
    <Stack gap={2} mt={4} data-testid="dispatch-receipt" data-stage={item.receipt.stage} data-percent={percent ?? ''}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {percent !== null && <Progress size="xs" value={percent} aria-label={label} />}
    </Stack>
  );
}
