import { Suspense, lazy } from 'react';
import { Badge, Button, Card, Group, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { DeviceFamily, OnlineState, type RadarDetectedEvent, type RadarRow } from '@sc/contracts';
import { DeviceListBody, DeviceListFilters, DeviceRowActions, DeviceTable, useDeviceList } from '@/components/device-list';
import { OptionFilter } from '@/components/filter-fields';
import { PagePanel } from '@/components/page-panel';
import type { Column } from '@/components/table-columns';
import { NameCode } from '@/components/table-parts';
import { draftFields } from '@/components/use-paged-filters';
import { LazyExportButton, LazyImportButton } from '@/features/imports/lazy-buttons';
import { paging } from '@/navigation/search-params';
import { parseTime } from '@/utils/format';
import { radarKeys, useDeleteRadar, useLiveRadar, useRadarDetections, useRadarPage } from './api';

const RadarFormModal = lazy(() => import('./radar-form-modal').then((m) => ({ default: m.RadarFormModal })));

const route = getRouteApi('/_auth/_shell/radarManage/radarTerminalManagement');

function NetworkBadge({ networkStatus }: { networkStatus: OnlineState }) {
  const { t } = useTranslation();
  return (
    <Badge color={networkStatus === OnlineState.Online ? 'teal' : 'gray'} variant="dot" data-testid="radar-network" data-network={networkStatus}>
      {t(`radar:network.${networkStatus}`)}
    </Badge>
  );
}

/** The spec's radar fields: name and code, network, count and rate by default; versions, MAC, RSSI and place in the chooser. */
function useRadarColumns(): Column<RadarRow>[] {
  const { t } = useTranslation();
  return [
    { key: 'radarName', label: t('radar:fields.radarName'), always: true, cell: (row) => <NameCode name={row.radarName} code={row.code} fw={500} /> },
    { key: 'network', label: t('radar:fields.networkStatus'), cell: (row) => <NetworkBadge networkStatus={row.networkStatus} /> },
    { key: 'count', label: t('radar:fields.count'), align: 'right', td: { 'data-testid': 'radar-count' }, cell: (row) => row.count },
    {
      key: 'radarRate',
      label: t('radar:fields.radarRate'),
      align: 'right',
      td: { 'data-testid': 'radar-rate' },
      cell: (row) => row.radarRate.toFixed(1),
    },
    { key: 'lastDetection', label: t('radar:fields.lastDetectionAt'), cell: (row) => (row.lastDetectionAt ? parseTime(row.lastDetectionAt) : '—') },
    { key: 'swver', label: t('radar:fields.swver'), hidden: true, cell: (row) => row.swver || '—' },
    { key: 'hwver', label: t('radar:fields.hwver'), hidden: true, cell: (row) => row.hwver || '—' },
    { key: 'mac', label: t('radar:fields.mac'), hidden: true, td: { ff: 'monospace' }, cell: (row) => row.mac || '—' },
    { key: 'rssi', label: t('radar:fields.rssi'), hidden: true, align: 'right', cell: (row) => (row.rssi === null ? '—' : `${row.rssi} dBm`) },
    { key: 'groups', label: t('radar:fields.groups'), hidden: true, cell: (row) => row.groupNames.join(', ') || '—' },
    { key: 'region', label: t('radar:fields.region'), hidden: true, cell: (row) => row.regionName ?? '—' },
    {
      key: 'pole',
      label: t('radar:fields.pole'),
      hidden: true,
      cell: (row) => (row.poleCode ? <NameCode name={row.poleName ?? ''} code={row.poleCode} /> : t('radar:list.noPole')),
    },
    { key: 'heartbeat', label: t('radar:fields.reportedAt'), hidden: true, cell: (row) => (row.reportedAt ? parseTime(row.reportedAt) : '—') },
  ];
}

/** One detection and the lamps it raised (or left to rise by themselves). */
function DetectionItem({ detection }: { detection: RadarDetectedEvent }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} data-testid="radar-detection" data-code={detection.code}>
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Text size="sm" fw={500}>
          {detection.code} · {t(`radar:event.${detection.event}`)}
        </Text>
        <Text size="xs" c="dimmed">
          {parseTime(detection.ts)}
        </Text>
      </Group>
      {detection.lamps.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t('radar:detections.noLamps')}
        </Text>
      ) : (
        <Group gap={4}>
          {detection.lamps.map((lamp) => (
            <Badge
              key={lamp.id}
              size="sm"
              variant={lamp.byItself ? 'outline' : 'light'}
              color="yellow"
              data-testid="radar-raised-lamp"
              title={lamp.byItself ? t('radar:detections.byItself') : t('radar:detections.until', { time: parseTime(lamp.until) })}
            >
              {t('radar:detections.lamp', { code: lamp.code, level: lamp.level })}
            </Badge>
          ))}
        </Group>
      )}
    </Stack>
  );
}

/** The detections pushed since the page opened, newest first, with the lamps each raised. */
function DetectionFeed() {
  const { t } = useTranslation();
  const detections = useRadarDetections();
  return (
    <Card withBorder padding="md" data-testid="radar-detections">
      <Title order={5} mb="xs">
        {t('radar:detections.title')}
      </Title>
      {detections.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('radar:detections.waiting')}
        </Text>
      ) : (
        <ScrollArea.Autosize mah={480}>
          <Stack gap="sm">
            {detections.map((d) => (
              <DetectionItem key={`${d.radarId}-${d.at}-${d.count}`} detection={d} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Card>
  );
}

/** /radarManage/radarTerminalManagement: the radars, online and counting live; the detections and the lamps they raise. */
export function RadarTerminalPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const radars = useRadarPage({
    radarName: search.radarName,
    regionId: search.regionId,
    networkStatus: search.networkStatus,
    groupId: search.groupId,
    pageNum,
    pageSize,
  });
  const remove = useDeleteRadar();
  useLiveRadar();

  const rows = radars.data?.list ?? [];
  const list = useDeviceList({
    search,
    go: (next, replace) => void navigate({ search: next, replace, resetScroll: !replace }),
    rows,
    table: 'radars',
    columns: useRadarColumns(),
    remove: (id) => remove.mutateAsync(id),
    deleteText: (radar) => t('radar:list.deleteDetail', { name: radar.radarName }),
  });
  const { selection, draft, setDraft } = list;
  const field = draftFields(draft, setDraft);

  return (
    <PagePanel
      title={t('common:route.radarTerminalManagement')}
      actions={
        <>
          {list.canAdd && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => list.edit(null)} data-testid="radar-add">
              {t('radar:list.add')}
            </Button>
          )}
          <Suspense fallback={null}>
            <LazyImportButton kind="radar" onImported={() => void queryClient.invalidateQueries({ queryKey: radarKeys.all })} />
            <LazyExportButton kind="radar" search={search} />
          </Suspense>
        </>
      }
    >
      <DeviceListBody list={list} total={radars.data?.total ?? 0} side={<DetectionFeed />}>
        <DeviceListFilters
          testId="radar"
          nameKey="radarName"
          nameLabel={t('radar:fields.radarName')}
          regionLabel={t('radar:fields.region')}
          draft={draft}
          setDraft={setDraft}
          apply={list.apply}
        >
          <OptionFilter
            label={t('radar:fields.networkStatus')}
            placeholder={t('radar:list.allNetwork')}
            options={[OnlineState.Online, OnlineState.Offline].map((state) => ({ value: state, label: t(`radar:network.${state}`) }))}
            {...field('networkStatus')}
            width={160}
            testId="radar-network-filter"
          />
        </DeviceListFilters>
        <DeviceTable
          testId="radar"
          rows={rows}
          loading={radars.isLoading}
          selection={selection}
          columns={list.columns}
          texts="radar:list"
          rowLabel={(radar) => radar.radarName}
          rowTestId={(radar) => `radar-row-${radar.code}`}
          withActions={list.canEdit || list.canDelete}
          actions={(radar) => (
            <DeviceRowActions
              list={list}
              row={radar}
              family={DeviceFamily.Radar}
              name={radar.radarName}
              editLabel={t('radar:list.edit')}
              testId="radar"
            />
          )}
        />
      </DeviceListBody>
      <Suspense fallback={null}>{list.formOpen && <RadarFormModal opened radar={list.editing} onClose={list.closeForm} />}</Suspense>
    </PagePanel>
  );
}
