import { Badge, Drawer, Group, Progress, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LedReceiveStatus, ledReceiveStatusOf, receiptPercent, type LedTaskRow, type LedTaskScreenRow } from '@sc/contracts';
import { NameCode } from '@/components/table-parts';
import { useLedTaskScreens, useLiveTaskScreens } from './tasks-api';

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

/** The screens of a task, each with its receive status and time status (in its own time zone), live. */
export function LedTaskScreensDrawer({ task, onClose }: { task: LedTaskRow; onClose: () => void }) {
  const { t } = useTranslation();
  const screens = useLedTaskScreens(task.id);
  useLiveTaskScreens(task.id, task.dispatchId);
  return (
    <Drawer opened onClose={onClose} position="right" size="xl" title={t('led:task.screensTitle', { name: task.name })}>
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
          {(screens.data ?? []).map((row) => (
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
    </Drawer>
  );
}
