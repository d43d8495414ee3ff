import { Suspense, lazy } from 'react';
import { Badge, Button, Card, Group, ScrollArea, Stack, Text, Title, type BadgeVariant } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { DeviceFamily, type RadarRow } from '@sc/contracts';
import { DeviceListBody, DeviceListFilters, DeviceRowActions, DeviceTable, useDeviceList } from '@/components/device-list';
import { NetworkBadge, NetworkFilter } from '@/components/network-status';
import { PagePanel } from '@/components/page-panel';
import type { Column } from '@/components/table-columns';
import { NameCode } from '@/components/table-parts';
import { draftFields } from '@/components/use-paged-filters';
import { LazyExportButton, LazyImportButton } from '@/features/imports/lazy-buttons';
import { paging } from '@/navigation/search-params';
import { parseTime } from '@/utils/format';
import { radarKeys, useDeleteRadar, useLiveRadar, useRadarDetections, useRadarPage } from './api';
import type { FeedDetection, FeedLamp } from './detection-feed';

const RadarFormModal = lazy(() => import('./radar-form-modal').then((m) => ({ default: m.RadarFormModal })));

const route = getRouteApi('/_auth/_shell/radarManage/radarTerminalManagement');

/** The spec's radar fields: name and code, network, count and rate by default; versions, MAC, RSSI and place in the chooser. */
function useRadarColumns(): Column<RadarRow>[] {
  const { t } = useTranslation();
  return [
    { key: 'radarName', label: t('radar:fields.radarName'), always: true, cell: (row) => <NameCode name={row.radarName} code={row.code} fw={500} /> },
    {
      key: 'network',
      label: t('radar:fields.networkStatus'),
      cell: (row) => <NetworkBadge ns="radar" networkStatus={row.networkStatus} testId="radar-network" />,
    },
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

const clock = (time: string) => parseTime(time, '{h}:{i}:{s}');

/** How a lamp of a detection looks where it is now. */
function useLampLook(lamp: FeedLamp, detectedAt: string): { label: string; title?: string; color: string; variant: BadgeVariant } {
  const { t } = useTranslation();
  const { now, code, level } = lamp;
  switch (now.state) {
    case 'waiting': {
      const rises = new Date(Date.parse(detectedAt) + lamp.after * 1000).toISOString();
      return {
        label: t('radar:detections.lampWaiting', { code, level, after: lamp.after }),
        title: t('radar:detections.risesAt', { time: clock(rises) }),
        color: 'gray',
        variant: 'outline',
      };
    }
    case 'raised':
      return {
        label: t('radar:detections.lamp', { code, level }),
        title: lamp.byItself ? t('radar:detections.byItself') : t('radar:detections.until', { at: clock(now.at), time: clock(lamp.until) }),
        color: 'yellow',
        variant: lamp.byItself ? 'outline' : 'light',
      };
    case 'returned':
      return { label: t('radar:detections.lampReturned', { code, level: now.level, time: clock(now.at) }), color: 'gray', variant: 'light' };
    case 'kept':
      return { label: t('radar:detections.lampKept', { code, level }), color: 'gray', variant: 'dot' };
  }
}

/** One lamp of a detection where it is now: waiting for its open interval, raised, returned (with the time), or kept. */
function FeedLampBadge({ lamp, detectedAt }: { lamp: FeedLamp; detectedAt: string }) {
  const { label, title, color, variant } = useLampLook(lamp, detectedAt);
  return (
    <Badge size="sm" variant={variant} color={color} data-testid="radar-raised-lamp" data-lamp={lamp.code} data-state={lamp.now.state} title={title}>
      {label}
    </Badge>
  );
}

/** One detection and its lamps, each where it is now (raised or left to rise by itself, waiting, returned). */
function DetectionItem({ detection }: { detection: FeedDetection }) {
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
            <FeedLampBadge key={lamp.id} lamp={lamp} detectedAt={detection.at} />
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
          <NetworkFilter ns="radar" {...field('networkStatus')} testId="radar-network-filter" />
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
