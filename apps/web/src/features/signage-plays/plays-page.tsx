import { Suspense, useEffect, useState } from 'react';
import { Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { PlayReportBy, PlayReportQuery, PlayReportRow } from '@sc/contracts';
import { AreaCascader } from '@/components/area-cascader';
import { DayField } from '@/components/date-inputs';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { Select } from '@/components/select';
import { TableBox } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { LazyExportButton } from '@/features/imports/lazy-buttons';
import { useAdPage } from '@/features/signage-ads/api';
import { useSignageGroups, useSignagePage } from '@/features/signage/api';
import { TABLE_STYLES, TableStatusRow } from '@/features/system/shared/table-states';
import { compact, paging } from '@/navigation/search-params';
import { usePlayReport } from './api';
import type { PlaySearch } from './search';

const route = getRouteApi('/_auth/_shell/floor-screen/plays');

const BYS: readonly PlayReportBy[] = ['ad', 'device', 'day', 'detail'];

/** YYYY-MM-DD of a local day. */
function dayOf(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** The range shown when the address names none: the last seven days, today included. */
function defaultRange(): { startDate: string; endDate: string } {
  const today = new Date();
  const start = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 6);
  return { startDate: dayOf(start), endDate: dayOf(today) };
}

type Draft = Required<Pick<PlaySearch, 'startDate' | 'endDate'>> & Pick<PlaySearch, 'regionId' | 'groupId' | 'deviceId' | 'adId'>;

/** The columns of a report, by what it sums by. */
function useColumns(by: PlayReportBy): { key: string; label: string; numeric?: boolean; cell: (row: PlayReportRow) => string | number }[] {
  const { t } = useTranslation();
  const day = { key: 'day', label: t('signagePlays:day'), cell: (r: PlayReportRow) => r.day ?? '' };
  const ad = { key: 'ad', label: t('signagePlays:ad'), cell: (r: PlayReportRow) => r.adName ?? t('signagePlays:deletedAd', { id: r.adId }) };
  const device = { key: 'device', label: t('signagePlays:device'), cell: (r: PlayReportRow) => `${r.deviceName ?? ''} (${r.deviceCode ?? ''})` };
  const sums = [
    { key: 'plays', label: t('signagePlays:plays'), numeric: true, cell: (r: PlayReportRow) => r.plays.toLocaleString() },
    { key: 'seconds', label: t('signagePlays:seconds'), numeric: true, cell: (r: PlayReportRow) => r.seconds.toLocaleString() },
  ];
  const keys = { ad: [ad], device: [device], day: [day], detail: [day, ad, device] }[by];
  return [...keys, ...sums];
}

/** /floor-screen/plays (Proof of Play): what the players played, per ad, per player, per day, for advertisers; exportable. */
export function PlayReportPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const fallback = defaultRange();
  const range = { startDate: search.startDate ?? fallback.startDate, endDate: search.endDate ?? fallback.endDate };
  const by = search.by ?? 'ad';
  const query: PlayReportQuery = compact({
    pageNum,
    pageSize,
    by,
    ...range,
    regionId: search.regionId,
    groupId: search.groupId,
    deviceId: search.deviceId,
    adId: search.adId,
  });
  const report = usePlayReport(query);
  const toDraft = (): Draft => ({ ...range, regionId: search.regionId, groupId: search.groupId, deviceId: search.deviceId, adId: search.adId });
  const [draft, setDraft] = useState<Draft>(toDraft);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the draft follows the address
  useEffect(() => setDraft(toDraft()), [search]);
  const [deviceName, setDeviceName] = useState('');
  const groups = useSignageGroups();
  const devices = useSignagePage({ pageNum: 1, pageSize: 50, name: deviceName.trim() || undefined });
  const ads = useAdPage({ pageNum: 1, pageSize: 200 });
  const columns = useColumns(by);
  const rows = report.data?.list ?? [];

  const go = (next: PlaySearch) => void navigate({ search: compact({ ...next, pageNum: undefined, pageSize: search.pageSize }) });
  const filtered = Boolean(search.regionId || search.groupId || search.deviceId || search.adId);
  const idOf = (value: string | null) => (value === null ? undefined : Number(value));

  return (
    <PagePanel
      title={t('common:route.floorScreenPlays')}
      actions={
        <Suspense fallback={null}>
          <LazyExportButton kind="play" search={query} />
        </Suspense>
      }
    >
      <FilterBar onSubmit={() => go({ ...search, ...draft })} onReset={() => go({ by: search.by })} testId="plays">
        <DayField
          label={t('signagePlays:startDate')}
          value={draft.startDate}
          max={draft.endDate}
          onChange={(startDate) => setDraft((d) => ({ ...d, startDate }))}
          data-testid="plays-start"
        />
        <DayField
          label={t('signagePlays:endDate')}
          value={draft.endDate}
          min={draft.startDate}
          onChange={(endDate) => setDraft((d) => ({ ...d, endDate }))}
          data-testid="plays-end"
        />
        <AreaCascader
          label={t('signagePlays:region')}
          width={220}
          value={draft.regionId ?? null}
          onChange={(id) => setDraft((d) => ({ ...d, regionId: id ?? undefined }))}
          data-testid="plays-region"
        />
        <Select
          label={t('signagePlays:group')}
          placeholder={t('signagePlays:all')}
          clearable
          data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
          value={draft.groupId === undefined ? null : String(draft.groupId)}
          onChange={(value) => setDraft((d) => ({ ...d, groupId: idOf(value) }))}
          w={{ base: '100%', xs: 160 }}
          data-testid="plays-group"
        />
        <Select
          label={t('signagePlays:device')}
          placeholder={t('signagePlays:all')}
          clearable
          searchable
          onSearchChange={setDeviceName}
          data={(devices.data?.list ?? []).map((d) => ({ value: String(d.id), label: `${d.name} (${d.code})` }))}
          value={draft.deviceId === undefined ? null : String(draft.deviceId)}
          onChange={(value) => setDraft((d) => ({ ...d, deviceId: idOf(value) }))}
          nothingFoundMessage={t('common:feedback.noData')}
          w={{ base: '100%', xs: 200 }}
          data-testid="plays-device"
        />
        <Select
          label={t('signagePlays:ad')}
          placeholder={t('signagePlays:all')}
          clearable
          searchable
          data={(ads.data?.list ?? []).map((a) => ({ value: String(a.id), label: a.name }))}
          value={draft.adId === undefined ? null : String(draft.adId)}
          onChange={(value) => setDraft((d) => ({ ...d, adId: idOf(value) }))}
          nothingFoundMessage={t('common:feedback.noData')}
          w={{ base: '100%', xs: 200 }}
          data-testid="plays-ad"
        />
      </FilterBar>

      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <SegmentedControl
            value={by}
            onChange={(value) => go({ ...search, by: value as PlayReportBy })}
            data={BYS.map((value) => ({ value, label: t(`signagePlays:by.${value}`) }))}
            data-testid="plays-by"
          />
          <Text size="sm" data-testid="plays-totals">
            {t('signagePlays:totals', {
              plays: (report.data?.totalPlays ?? 0).toLocaleString(),
              seconds: (report.data?.totalSeconds ?? 0).toLocaleString(),
            })}
          </Text>
        </Group>
        <TableBox>
          <Table striped highlightOnHover verticalSpacing="sm" styles={TABLE_STYLES} data-testid="plays-table">
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.key} ta={c.numeric ? 'right' : undefined}>
                    {c.label}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: report.isPlaceholderData ? 0.6 : 1, transition: 'opacity 120ms' }}>
              <TableStatusRow
                colSpan={columns.length}
                loading={report.isPending}
                failed={report.isError && rows.length === 0}
                empty={report.isSuccess && rows.length === 0}
                filtered={filtered}
                onRetry={() => void report.refetch()}
              />
              {rows.map((row) => (
                <Table.Tr key={`${row.day ?? ''}/${row.adId ?? ''}/${row.deviceId ?? ''}`} data-testid="plays-row">
                  {columns.map((c) => (
                    <Table.Td key={c.key} ta={c.numeric ? 'right' : undefined}>
                      {c.cell(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableBox>
        <TableFooter
          total={report.data?.total ?? 0}
          pageNum={pageNum}
          pageSize={pageSize}
          onChange={(page) => void navigate({ search: compact({ ...search, ...page }) })}
        />
      </Stack>
    </PagePanel>
  );
}
