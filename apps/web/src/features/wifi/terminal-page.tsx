import { Suspense, lazy, useState } from 'react';
import { Badge, Group, Stack, Table, Tabs, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { getRouteApi } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { WIFI_HISTORY_MAX_DAYS, type WifiClientFilters } from '@sc/contracts';
import { DateTimeField } from '@/components/date-inputs';
import { AreaCascader } from '@/components/area-cascader';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { NameFilter } from '@/components/filter-fields';
import { Select } from '@/components/select';
import { TableFooter } from '@/components/table-footer';
import { NameCode, TableEmptyRow } from '@/components/table-parts';
import { LazyExportButton } from '@/features/imports/lazy-buttons';
import { compact, paging } from '@/navigation/search-params';
import { parseTime } from '@/utils/format';
import { useLiveClients, useOnlineClients, useSessionHistory, useWifiPage } from './api';
import { regionIdsOf, type TerminalSearch } from './search';

const route = getRouteApi('/_auth/_shell/wifiManage/terminalManage');
// The chart library loads beside the page.
const ClientChart = lazy(() => import('./wifi-charts').then((m) => ({ default: m.ClientChart })));
const RegionComparison = lazy(() => import('./region-comparison').then((m) => ({ default: m.RegionComparison })));

const HOUR_MS = 3600_000;
/** A local date-time as the date inputs write it (YYYY-MM-DDTHH:mm). */
const localOf = (ms: number) => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};

/** A session's length in the caller's words. */
export function durationText(t: TFunction, seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return t('wifi:duration.hours', { h, m });
  if (m > 0) return t('wifi:duration.minutes', { m, s });
  return t('wifi:duration.seconds', { s });
}

/** Signal strength as a badge: good from −60 dBm, fair from −75, weak below. */
function Signal({ dbm }: { dbm: number }) {
  const { t } = useTranslation();
  const color = dbm >= -60 ? 'teal' : dbm >= -75 ? 'yellow' : 'red';
  return (
    <Badge color={color} variant="light" data-testid="wifi-signal">
      {t('wifi:terminal.signal', { value: dbm })}
    </Badge>
  );
}

/** The access point filter: searched by name or serial number among the access points. */
function ApFilter({ value, onChange }: { value: number | undefined; onChange: (id: number | undefined) => void }) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [debounced] = useDebouncedValue(keyword, 300);
  const aps = useWifiPage('ap', { pageNum: 1, pageSize: 50, name: debounced.trim() || undefined });
  const options = (aps.data?.list ?? []).map((ap) => ({ value: String(ap.id), label: `${ap.devName} (${ap.devSN})` }));
  if (value !== undefined && !options.some((o) => o.value === String(value))) options.unshift({ value: String(value), label: `#${value}` });
  return (
    <Select
      label={t('wifi:fields.ap')}
      placeholder={t('wifi:terminal.allAps')}
      clearable
      searchable
      searchValue={keyword}
      onSearchChange={setKeyword}
      filter={({ options: all }) => all}
      w={220}
      data={options}
      value={value === undefined ? null : String(value)}
      onChange={(id) => onChange(id ? Number(id) : undefined)}
      data-testid="wifi-ap-filter"
    />
  );
}

/**
 * terminalManage: the Wi-Fi clients online now, per access point and SSID with their signal strength, and the history
 * of ended sessions (online date, offline date, duration) in a window of dates, with filters and an xlsx export. Both
 * follow the access points' client changes live (no polling). A third tab charts the clients of several regions side
 * by side (region-comparison.tsx).
 */
export function TerminalPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const tab = search.tab ?? 'online';
  const { pageNum, pageSize } = paging(search);
  // The history's window: the last day unless chosen.
  const [defaultWindow] = useState(() => ({ from: localOf(Date.now() - 24 * HOUR_MS), to: localOf(Date.now() + HOUR_MS) }));
  const from = search.from ?? defaultWindow.from;
  const to = search.to ?? defaultWindow.to;
  const filters: WifiClientFilters = {
    client: search.client,
    apId: search.apId,
    acId: search.acId,
    clientSsid: search.clientSsid,
    regionId: search.regionId,
  };
  const window = {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    ...(search.minDuration ? { minDuration: search.minDuration * 60 } : {}),
  };
  const online = useOnlineClients({ ...filters, pageNum, pageSize }, tab === 'online');
  const history = useSessionHistory({ ...filters, ...window, pageNum, pageSize }, tab === 'history');
  useLiveClients();

  const [draft, setDraft] = useState<TerminalSearch>(search);
  const go = (next: TerminalSearch) => void navigate({ search: compact(next) });
  const apply = (next: TerminalSearch) => go({ ...next, tab: search.tab, pageNum: undefined });
  const page = tab === 'online' ? online : history;

  return (
    <PagePanel
      title={t('common:route.terminalManage')}
      actions={
        tab === 'history' && (
          <Suspense fallback={null}>
            <LazyExportButton kind="terminalHistory" search={{ ...filters, ...window }} />
          </Suspense>
        )
      }
    >
      <Tabs value={tab} onChange={(v) => v && go({ ...search, tab: v as TerminalSearch['tab'], pageNum: undefined })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="online" data-testid="wifi-tab-online">
            {t('wifi:terminal.online')}
          </Tabs.Tab>
          <Tabs.Tab value="history" data-testid="wifi-tab-history">
            {t('wifi:terminal.history')}
          </Tabs.Tab>
          <Tabs.Tab value="regions" data-testid="wifi-tab-regions">
            {t('wifi:terminal.regions')}
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {tab === 'regions' ? (
        <Suspense fallback={null}>
          <RegionComparison value={regionIdsOf(search.regions)} onChange={(ids) => go({ ...search, regions: ids.join(',') })} />
        </Suspense>
      ) : (
        <Stack gap="sm">
          <FilterBar
            onSubmit={() => apply({ ...draft, client: draft.client?.trim() || undefined, clientSsid: draft.clientSsid?.trim() || undefined })}
            onReset={() => {
              setDraft({});
              apply({});
            }}
            testId="wifi-terminal"
          >
            <NameFilter
              label={t('wifi:fields.client')}
              value={draft.client}
              onChange={(client) => setDraft({ ...draft, client })}
              name="client"
              width={200}
            />
            <AreaCascader
              label={t('wifi:fields.region')}
              value={draft.regionId ?? null}
              onChange={(id) => setDraft({ ...draft, regionId: id ?? undefined })}
            />
            <ApFilter value={draft.apId} onChange={(apId) => setDraft({ ...draft, apId })} />
            <NameFilter
              label={t('wifi:fields.clientSsid')}
              placeholder={t('wifi:terminal.allSsids')}
              width={180}
              maxLength={32}
              value={draft.clientSsid}
              onChange={(clientSsid) => setDraft({ ...draft, clientSsid })}
              testId="wifi-ssid-filter"
            />
            {tab === 'history' && (
              <>
                <DateTimeField
                  label={t('wifi:fields.from')}
                  value={draft.from ?? from}
                  onChange={(v) => setDraft({ ...draft, from: v || undefined })}
                />
                <DateTimeField label={t('wifi:fields.to')} value={draft.to ?? to} onChange={(v) => setDraft({ ...draft, to: v || undefined })} />
                <NameFilter
                  label={t('wifi:fields.minDuration')}
                  width={150}
                  maxLength={6}
                  value={draft.minDuration === undefined ? '' : String(draft.minDuration)}
                  onChange={(v) => setDraft({ ...draft, minDuration: /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : undefined })}
                  testId="wifi-min-duration"
                />
              </>
            )}
          </FilterBar>
          {tab === 'history' ? (
            <Text size="xs" c="dimmed">
              {t('wifi:terminal.windowHint', { max: WIFI_HISTORY_MAX_DAYS })}
            </Text>
          ) : (
            <>
              <Suspense fallback={null}>
                <ClientChart query={{ regionId: search.regionId, acId: search.acId, apId: search.apId }} />
              </Suspense>
              <Text size="sm" data-testid="wifi-online-count">
                {t('wifi:terminal.onlineCount', { count: online.data?.total ?? 0 })}
              </Text>
            </>
          )}
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover data-testid={`wifi-${tab}-table`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('wifi:fields.clientMac')}</Table.Th>
                  <Table.Th>{t('wifi:fields.clientIp')}</Table.Th>
                  <Table.Th>{t('wifi:fields.clientSsid')}</Table.Th>
                  <Table.Th>{t('wifi:fields.ap')}</Table.Th>
                  <Table.Th>{t('wifi:fields.signalStrength')}</Table.Th>
                  <Table.Th>{t('wifi:fields.onLineDate')}</Table.Th>
                  {tab === 'history' && (
                    <>
                      <Table.Th>{t('wifi:fields.offLineDate')}</Table.Th>
                      <Table.Th>{t('wifi:fields.duration')}</Table.Th>
                    </>
                  )}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tab === 'online'
                  ? (online.data?.list ?? []).map((c) => (
                      <Table.Tr key={`${c.apId}-${c.clientMac}`} data-testid={`wifi-client-${c.clientMac}`}>
                        <Table.Td ff="monospace">{c.clientMac}</Table.Td>
                        <Table.Td ff="monospace">{c.clientIp || '—'}</Table.Td>
                        <Table.Td>{c.clientSsid || '—'}</Table.Td>
                        <Table.Td>
                          <NameCode name={c.apName} code={c.apSN} />
                        </Table.Td>
                        <Table.Td>
                          <Signal dbm={c.signalStrength} />
                        </Table.Td>
                        <Table.Td>{parseTime(c.onLineDate)}</Table.Td>
                      </Table.Tr>
                    ))
                  : (history.data?.list ?? []).map((s) => (
                      <Table.Tr key={s.id} data-testid={`wifi-session-${s.clientMac}`}>
                        <Table.Td ff="monospace">{s.clientMac}</Table.Td>
                        <Table.Td ff="monospace">{s.clientIp || '—'}</Table.Td>
                        <Table.Td>{s.clientSsid || '—'}</Table.Td>
                        <Table.Td>{s.apSN ? <NameCode name={s.apName ?? ''} code={s.apSN} /> : '—'}</Table.Td>
                        <Table.Td>
                          <Signal dbm={s.signalStrength} />
                        </Table.Td>
                        <Table.Td>{parseTime(s.onLineDate)}</Table.Td>
                        <Table.Td>{parseTime(s.offLineDate)}</Table.Td>
                        <Table.Td>{durationText(t, s.duration)}</Table.Td>
                      </Table.Tr>
                    ))}
                {(page.data?.list.length ?? 0) === 0 && (
                  <TableEmptyRow colSpan={tab === 'history' ? 8 : 6}>
                    {page.isLoading ? t('common:feedback.loading') : t(tab === 'online' ? 'wifi:terminal.emptyOnline' : 'wifi:terminal.emptyHistory')}
                  </TableEmptyRow>
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="flex-end">
            <TableFooter
              total={page.data?.total ?? 0}
              totalCapped={page.data?.totalCapped}
              pageNum={pageNum}
              pageSize={pageSize}
              onChange={(p) => go({ ...search, ...p })}
            />
          </Group>
        </Stack>
      )}
    </PagePanel>
  );
}
