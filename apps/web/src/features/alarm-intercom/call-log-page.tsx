import { Suspense, useEffect, useMemo, useState } from 'react';
import { Badge, Table, Text } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { CALL_DIRECTIONS, CALL_SORTS, CALL_STATUSES, CALL_TYPES, CallSort, CallStatus, type AlarmCallPageQuery } from '@sc/contracts';
import { DateTimeField } from '@/components/date-inputs';
import { NameFilter, OptionFilter } from '@/components/filter-fields';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { NameCode } from '@/components/table-parts';
import { formatDuration } from '@/features/broadcast/media-format';
import { LazyExportButton } from '@/features/imports/lazy-buttons';
import { localIso } from '@/features/system/shared/date-fields';
import { TABLE_STYLES, TableStatusRow } from '@/features/system/shared/table-states';
import { compact, paging } from '@/navigation/search-params';
import { parseTime } from '@/utils/format';
import { useCallPage, useLiveIncidents } from './api';
import { useRecordingPlayer } from './recording-parts';
import type { CallLogSearch } from './search';

const route = getRouteApi('/_auth/_shell/alarmManage/callLogQuery');

type Draft = Omit<CallLogSearch, 'pageNum' | 'pageSize'>;
const toDraft = ({ pageNum: _n, pageSize: _s, ...draft }: CallLogSearch): Draft => draft;

/**
 * /alarmManage/callLogQuery: every call of the alarm columns, whatever happened to it, with the spec's filters (call
 * type, status, direction; column or agent; start time) and its four sorts. A call that ends reads the log again.
 */
export function CallLogPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  useLiveIncidents();
  const query: AlarmCallPageQuery = compact({
    pageNum,
    pageSize,
    keyword: search.keyword,
    callType: search.callType as AlarmCallPageQuery['callType'],
    status: search.status as AlarmCallPageQuery['status'],
    direction: search.direction,
    startFrom: localIso(search.from),
    startTo: localIso(search.to),
    sort: search.sort,
  });
  const calls = useCallPage(query);
  const rows = useMemo(() => calls.data?.list ?? [], [calls.data]);
  const [draft, setDraft] = useState<Draft>(() => toDraft(search));
  useEffect(() => setDraft(toDraft(search)), [search]);
  const filtered = Boolean(search.keyword || search.callType || search.status || search.direction || search.from || search.to);
  const all = t('alarmIntercom:calls.all');
  const recordings = useRecordingPlayer(calls, 'call-recording');

  return (
    <PagePanel
      title={t('common:route.callLogQuery')}
      actions={
        <Suspense fallback={null}>
          <LazyExportButton kind="call" search={query} />
        </Suspense>
      }
    >
      <FilterBar
        testId="call"
        onSubmit={() => void navigate({ search: compact({ pageSize: search.pageSize, ...draft, keyword: draft.keyword?.trim() || undefined }) })}
        onReset={() => void navigate({ search: compact({ pageSize: search.pageSize, sort: search.sort }) })}
      >
        <NameFilter
          label={t('alarmIntercom:fields.keyword')}
          value={draft.keyword}
          onChange={(keyword) => setDraft((d) => ({ ...d, keyword }))}
          maxLength={64}
          width={180}
          testId="call-filter-keyword"
        />
        <OptionFilter
          label={t('alarmIntercom:fields.callType')}
          placeholder={all}
          options={CALL_TYPES.map((v) => ({ value: v, label: t(`alarmIntercom:callType.${v}`) }))}
          value={draft.callType}
          onChange={(callType) => setDraft((d) => ({ ...d, callType }))}
          width={170}
          testId="call-filter-type"
        />
        <OptionFilter
          label={t('alarmIntercom:fields.status')}
          placeholder={all}
          options={CALL_STATUSES.map((v) => ({ value: v, label: t(`alarmIntercom:callStatus.${v}`) }))}
          value={draft.status}
          onChange={(status) => setDraft((d) => ({ ...d, status }))}
          width={150}
          testId="call-filter-status"
        />
        <OptionFilter
          label={t('alarmIntercom:fields.direction')}
          placeholder={all}
          options={CALL_DIRECTIONS.map((v) => ({ value: v, label: t(`alarmIntercom:direction.${v}`) }))}
          value={draft.direction}
          onChange={(direction) => setDraft((d) => ({ ...d, direction }))}
          width={140}
          testId="call-filter-direction"
        />
        <DateTimeField
          label={t('alarmIntercom:fields.from')}
          value={draft.from ?? ''}
          max={draft.to}
          onChange={(from) => setDraft((d) => ({ ...d, from: from || undefined }))}
          data-testid="call-filter-from"
        />
        <DateTimeField
          label={t('alarmIntercom:fields.to')}
          value={draft.to ?? ''}
          min={draft.from}
          onChange={(to) => setDraft((d) => ({ ...d, to: to || undefined }))}
          data-testid="call-filter-to"
        />
        <OptionFilter
          label={t('alarmIntercom:fields.sort')}
          placeholder={t(`alarmIntercom:sort.${CallSort.StartTimeDesc}`)}
          options={CALL_SORTS.map((v) => ({ value: v, label: t(`alarmIntercom:sort.${v}`) }))}
          value={draft.sort}
          onChange={(sort) => setDraft((d) => ({ ...d, sort }))}
          width={210}
          testId="call-sort"
        />
      </FilterBar>
      <Table.ScrollContainer minWidth={860}>
        <Table striped highlightOnHover verticalSpacing="sm" styles={TABLE_STYLES} data-testid="call-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('alarmIntercom:fields.startedAt')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.column')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.agent')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.callType')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.direction')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.status')}</Table.Th>
              <Table.Th ta="right">{t('alarmIntercom:fields.duration')}</Table.Th>
              <Table.Th>{t('alarmIntercom:fields.recording')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody style={{ opacity: calls.isPlaceholderData ? 0.6 : 1 }}>
            <TableStatusRow
              colSpan={8}
              loading={calls.isPending}
              failed={calls.isError && rows.length === 0}
              empty={calls.isSuccess && rows.length === 0}
              filtered={filtered}
              onRetry={() => void calls.refetch()}
            />
            {rows.map((call) => (
              <Table.Tr key={call.id} data-testid={`call-row-${call.id}`}>
                <Table.Td>
                  <Text size="sm">{parseTime(call.startedAt)}</Text>
                </Table.Td>
                <Table.Td>
                  <NameCode name={call.columnName} code={call.columnSip || call.columnCode} fw={500} />
                </Table.Td>
                <Table.Td>{call.agentName ? <NameCode name={call.agentName} code={call.agentSip} /> : '—'}</Table.Td>
                <Table.Td>
                  <Text size="sm">{t(`alarmIntercom:callType.${call.callType}`)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{t(`alarmIntercom:direction.${call.direction}`)}</Text>
                </Table.Td>
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
                <Table.Td ta="right" ff="monospace" data-testid="call-duration" data-seconds={call.duration}>
                  {formatDuration(call.duration)}
                </Table.Td>
                <Table.Td>{recordings.cell(call)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <TableFooter
        total={calls.data?.total ?? 0}
        pageNum={pageNum}
        pageSize={pageSize}
        onChange={(page) => void navigate({ search: { ...search, ...page } })}
      />
      {recordings.player}
    </PagePanel>
  );
}
