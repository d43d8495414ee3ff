import { Suspense, useEffect, useMemo, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { CALL_DIRECTIONS, CALL_SORTS, CALL_STATUSES, CALL_TYPES, CallSort, type AlarmCallPageQuery } from '@sc/contracts';
import { DateTimeField } from '@/components/date-inputs';
import { NameFilter, OptionFilter } from '@/components/filter-fields';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { LazyExportButton } from '@/features/imports/lazy-buttons';
import { localIso } from '@/features/system/shared/date-fields';
import { compact, paging } from '@/navigation/search-params';
import { useCallPage, useLiveIncidents } from './api';
import { CallTable } from './call-table';
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
      <CallTable calls={calls} rows={rows} filtered={filtered} recordingCell={recordings.cell} testId="call" />
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
