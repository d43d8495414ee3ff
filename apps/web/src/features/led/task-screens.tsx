import { useState } from 'react';
import { Badge, Drawer, Group, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LedReceiveStatus, ledReceiveStatusOf, receiptPercent, type LedTaskRow, type LedTaskScreenRow } from '@sc/contracts';
import { Pagination } from '@/components/pagination';
import { NameCode, TableEmptyRow } from '@/components/table-parts';
import { TASK_SCREENS_PAGE, useLedTaskScreens, useLiveTaskScreens } from './tasks-api';

const RECEIVE_COLOR: Record<LedReceiveStatus, string> = {
  [LedReceiveStatus.ToBeSent]: 'gray',
  [LedReceiveStatus.Downloading]: 'blue',
  [LedReceiveStatus.Received]: 'teal',
  [LedReceiveStatus.Playing]: 'green',
  [LedReceiveStatus.Failed]: 'red',
};

/** A screen's receive status of a task: to be sent, downloading with its percent, received, playing or failed. */
function ReceiveCell({ row, taskId }: { row: LedTaskScreenRow; taskId: number }) {
  const { t } = useTranslation();
  const status = ledReceiveStatusOf(row.state ? { state: row.state, receipt: row.receipt } : null, row.playingTaskId === taskId);
  const percent = status === LedReceiveStatus.Downloading ? (receiptPercent(row.receipt) ?? 0) : null;
  return (
    <Group gap={6} wrap="nowrap" data-testid="led-task-receive" data-status={status}>
      <Badge color={RECEIVE_COLOR[status]} variant="light">
        {percent === null ? t(`led:task.receive.${status}`) : t('led:task.receive.downloadingPercent', { percent })}
      </Badge>
      {percent !== null && <Progress value={percent} w={80} size="sm" />}
      {status === LedReceiveStatus.Failed && row.lastError && (
        <Text size="xs" c="red">
          {row.lastError}
        </Text>
      )}
    </Group>
  );
}

/**
 * The screens of a task, a page at a time, each with its receive status and time status (in its own time zone), live;
 * above them how many of all its screens are in each receive status.
 */
export function LedTaskScreensDrawer({ task, onClose }: { task: LedTaskRow; onClose: () => void }) {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const screens = useLedTaskScreens(task.id, pageNum);
  const data = screens.data;
  useLiveTaskScreens(task.id, data?.dispatchId ?? task.dispatchId);
  return (
    <Drawer opened onClose={onClose} position="right" size="xl" title={t('led:task.screensTitle', { name: task.name })}>
      <Stack gap="sm">
        <Group gap="xs" wrap="wrap" data-testid="led-task-receive-counts">
          {Object.values(LedReceiveStatus).map((status) => (
            <Badge key={status} color={RECEIVE_COLOR[status]} variant="light" data-status={status} data-count={data?.receiveCounts[status] ?? 0}>
              {`${t(`led:task.receive.${status}`)} ${data?.receiveCounts[status] ?? 0}`}
            </Badge>
          ))}
        </Group>
        <ScrollArea.Autosize mah="70vh">
          <Table striped data-testid="led-task-screens-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('led:fields.name')}</Table.Th>
                <Table.Th>{t('led:fields.timeZone')}</Table.Th>
                <Table.Th>{t('led:task.fields.receive')}</Table.Th>
                <Table.Th>{t('led:task.fields.timeStatus')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data && data.list.length === 0 && <TableEmptyRow colSpan={4} py="lg" />}
              {data?.list.map((row) => (
                <Table.Tr key={row.deviceId} data-testid={`led-task-screen-${row.sn}`}>
                  <Table.Td>
                    <NameCode name={row.name} code={row.sn} />
                  </Table.Td>
                  <Table.Td>{row.timeZone}</Table.Td>
                  <Table.Td>
                    <ReceiveCell row={row} taskId={task.id} />
                  </Table.Td>
                  <Table.Td data-testid="led-task-screen-time">{t(`led:task.timeStatus.${row.timeStatus}`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        {data && data.total > TASK_SCREENS_PAGE && (
          <Pagination size="sm" total={Math.ceil(data.total / TASK_SCREENS_PAGE)} value={pageNum} onChange={setPageNum} />
        )}
      </Stack>
    </Drawer>
  );
}
