import type { ReactNode } from 'react';
import { Badge, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CallStatus, type AlarmCallRow } from '@sc/contracts';
import { NameCode } from '@/components/table-parts';
import { formatDuration } from '@/features/broadcast/media-format';
import { TABLE_STYLES, TableStatusRow } from '@/features/system/shared/table-states';
import { parseTime } from '@/utils/format';
import type { useCallPage } from './api';

/**
 * The alarm calls as a table: the call log's (every column: call type and result too) and audioInquiry's recordings
 * (`recordings`: the recorded calls, their talk time and recording). `testId` prefixes the table's and rows' test ids.
 */
export function CallTable({
  calls,
  rows,
  filtered,
  recordingCell,
  recordings = false,
  testId,
}: {
  calls: ReturnType<typeof useCallPage>;
  rows: readonly AlarmCallRow[];
  filtered: boolean;
  recordingCell: (call: AlarmCallRow) => ReactNode;
  recordings?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const columns = recordings ? 6 : 8;
  return (
    <Table.ScrollContainer minWidth={recordings ? 760 : 860}>
      <Table striped highlightOnHover verticalSpacing="sm" styles={TABLE_STYLES} data-testid={`${testId}-table`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('alarmIntercom:fields.startedAt')}</Table.Th>
            <Table.Th>{t('alarmIntercom:fields.column')}</Table.Th>
            <Table.Th>{t('alarmIntercom:fields.agent')}</Table.Th>
            {!recordings && <Table.Th>{t('alarmIntercom:fields.callType')}</Table.Th>}
            <Table.Th>{t('alarmIntercom:fields.direction')}</Table.Th>
            {!recordings && <Table.Th>{t('alarmIntercom:fields.status')}</Table.Th>}
            <Table.Th ta="right">{t(recordings ? 'alarmIntercom:audio.talkDuration' : 'alarmIntercom:fields.duration')}</Table.Th>
            <Table.Th>{t('alarmIntercom:fields.recording')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody style={{ opacity: calls.isPlaceholderData ? 0.6 : 1 }}>
          <TableStatusRow
            colSpan={columns}
            loading={calls.isPending}
            failed={calls.isError && rows.length === 0}
            empty={calls.isSuccess && rows.length === 0}
            filtered={filtered}
            onRetry={() => void calls.refetch()}
          />
          {rows.map((call) => (
            <Table.Tr key={call.id} data-testid={`${testId}-row-${call.id}`}>
              <Table.Td>
                <Text size="sm">{parseTime(call.startedAt)}</Text>
              </Table.Td>
              <Table.Td>
                <NameCode name={call.columnName} code={call.columnSip || call.columnCode} fw={500} />
              </Table.Td>
              <Table.Td>{call.agentName ? <NameCode name={call.agentName} code={call.agentSip} /> : '—'}</Table.Td>
              {!recordings && (
                <Table.Td>
                  <Text size="sm">{t(`alarmIntercom:callType.${call.callType}`)}</Text>
                </Table.Td>
              )}
              <Table.Td>
                <Text size="sm">{t(`alarmIntercom:direction.${call.direction}`)}</Text>
              </Table.Td>
              {!recordings && (
                <Table.Td>
                  <Badge
                    variant="light"
                    color={call.status === CallStatus.Connected ? 'green' : 'gray'}
                    data-testid="call-status"
                    data-status={call.status}
                    data-state={call.state}
                  >
                    {call.state === 'ended'
                      ? t(`alarmIntercom:callStatus.${call.status}`)
                      : t(`alarmIntercom:callState.${call.state}`, { agent: call.agentName })}
                  </Badge>
                </Table.Td>
              )}
              <Table.Td ta="right" ff="monospace" data-testid={`${testId}-duration`} data-seconds={call.duration}>
                {formatDuration(call.duration)}
              </Table.Td>
              <Table.Td>{recordingCell(call)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
